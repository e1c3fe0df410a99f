"""mypy types to engine values and back.

Reading: ``jax.Array`` instances are JAX arrays (dtype from a tag), ``numpy.ndarray[..., dtype[X]]``
and NumPy scalar types carry their dtype in their type arguments, ``int``/``float``/... are
Python scalars (literal types keep their value).  Writing: the plugin keeps the type mypy
inferred and tags it, except where NumPy's stubs are wrong about the library (``ndarray +
jax.Array`` is a ``jax.Array`` at run time) or mypy only knows ``Any``.
"""

from __future__ import annotations

from dataclasses import fields, replace

from mypy.nodes import TypeInfo
from mypy.types import AnyType, Instance, LiteralType, TupleType, Type, TypeOfAny, UnionType, get_proper_type

from promolint.core.dtypes import DTYPES
from promolint.engine.annotations import annotation_value
from promolint.engine.context import Context
from promolint.engine.values import UNKNOWN, Array, Items, Library, Value, join, python_scalar
from promolint_mypy import tags

JAX_ARRAY = "jax._src.basearray.Array"
NDARRAY = "numpy.ndarray"
NUMPY_GENERIC = "numpy.generic"
_NBIT = "numpy._typing._nbit_base._{}Bit"
_PYTHON = {"builtins.bool": "bool", "builtins.int": "int", "builtins.float": "float", "builtins.complex": "complex"}
_NUMPY_CLASSES = {"numpy.float64": "float64", "numpy.complex128": "complex128", "numpy.bool": "bool"}
_NUMPY_GENERIC_KINDS = {"numpy.floating": "float", "numpy.signedinteger": "int", "numpy.unsignedinteger": "uint"}


_PYTHON_LIBRARY = Library.PYTHON


def library_of(typ: Instance) -> Library | None:
    """The engine library of an instance type, by class (not by tag)."""
    info = typ.type
    if info.has_base(JAX_ARRAY):
        return Library.JAX
    if info.has_base(NDARRAY):
        return Library.NUMPY_ARRAY
    if info.has_base(NUMPY_GENERIC):
        return Library.NUMPY_SCALAR
    if info.fullname in _PYTHON:
        return Library.PYTHON
    return None


def _bits(arg: Type) -> int | None:
    arg = get_proper_type(arg)
    if isinstance(arg, Instance) and arg.type.fullname.startswith("numpy._typing._nbit_base._"):
        digits = arg.type.name.strip("_").removesuffix("Bit")
        return int(digits) if digits.isdigit() else None
    return None


def numpy_scalar_dtype(typ: Type) -> str | None:
    """``numpy.floating[_32Bit]`` is float32, ``numpy.float64`` float64; None when unknown."""
    typ = get_proper_type(typ)
    if not isinstance(typ, Instance):
        return None
    name = typ.type.fullname
    if name in _NUMPY_CLASSES:
        return _NUMPY_CLASSES[name]
    if name in _NUMPY_GENERIC_KINDS and typ.args:
        bits = _bits(typ.args[0])
        dtype = f"{_NUMPY_GENERIC_KINDS[name]}{bits}" if bits else None
    elif name == "numpy.complexfloating" and typ.args:
        bits = _bits(typ.args[0])
        dtype = f"complex{2 * bits}" if bits else None
    else:
        return None
    return dtype if dtype in DTYPES else None


def ndarray_dtype(typ: Instance) -> str | None:
    """The dtype in ``numpy.ndarray[shape, numpy.dtype[X]]``."""
    if len(typ.args) < 2:
        return None
    dtype = get_proper_type(typ.args[1])
    if isinstance(dtype, Instance) and dtype.type.fullname == "numpy.dtype" and dtype.args:
        return numpy_scalar_dtype(dtype.args[0])
    return None


# --- tags ---------------------------------------------------------------------------------
# A value tag holds the library, the dtypes and every other simple field of ``Array`` (weak,
# intended64, ndim, ...) by name, so fields the engine adds travel without a format change.
_OMITTED = frozenset({"dtypes", "library", "literal", "provenance"})
_SIMPLE = {"~": None, "T": True, "F": False}
_SIMPLE_BACK = {None: "~", True: "T", False: "F"}
_decoded: dict[str, Array | None] = {}


def encode(value: Array) -> str:
    extras = []
    for field in fields(Array):
        item = getattr(value, field.name)
        if field.name in _OMITTED:
            continue
        if item is None or isinstance(item, bool):
            extras.append(f"{field.name}={_SIMPLE_BACK[item]}")
        elif isinstance(item, int):
            extras.append(f"{field.name}={item}")
    return f"{tags.VALUE_PREFIX}{value.library.value};{','.join(sorted(value.dtypes))};{';'.join(extras)}"


def decode(text: str) -> Array | None:
    if text in _decoded:
        return _decoded[text]
    value = None
    try:
        _, library, dtypes, *extras = text.split(";")
        names = frozenset(d for d in dtypes.split(",") if d)
        known = {field.name for field in fields(Array)} - _OMITTED
        kwargs = {}
        for extra in extras:
            name, _, item = extra.partition("=")
            if name in known:
                kwargs[name] = _SIMPLE[item] if item in _SIMPLE else int(item)
        if names <= DTYPES.keys():
            value = Array(names, Library(library), **kwargs)
    except (ValueError, KeyError, TypeError):
        value = None
    _decoded[text] = value
    return value


def annotation_tag(head: str, argument: str) -> str:
    return f"{tags.ANNOTATION_PREFIX}{head};{argument}"


def _from_annotation_tag(text: str, ctx: Context) -> Value:
    try:
        _, head, argument = text.split(";")
    except ValueError:
        return UNKNOWN
    return annotation_value(head, [argument], ctx)


def _rank(value: Array) -> int | None:
    return getattr(value, "rank", 0 if value.library is Library.NUMPY_SCALAR else None)


def _same_family(tagged: Library, library: Library) -> bool:
    if tagged is Library.JAX or library is Library.JAX:
        return tagged is library
    return tagged.is_numpy and library.is_numpy


# --- reading --------------------------------------------------------------------------------
_values: dict[int, tuple[Type, dict]] = {}


def value_of_type(typ: Type | None, ctx: Context, trust_values: bool) -> Value:
    """What a type says about a value.  ``trust_values``: whether a value tag on this type can
    be believed (the caller knows it is fresh); annotation tags and type arguments always can.
    Memoized per type object: parameter types such as ``ArrayLike`` are large unions, met often."""
    if typ is None:
        return UNKNOWN
    entry = _values.get(id(typ))
    if entry is None or entry[0] is not typ:
        if len(_values) > 100_000:
            _values.clear()
        entry = _values[id(typ)] = (typ, {})
    key = (ctx, trust_values)
    value = entry[1].get(key)
    if value is None:
        value = entry[1][key] = _value_of_type(typ, ctx, trust_values)
    return value


def _value_of_type(typ: Type, ctx: Context, trust_values: bool) -> Value:
    typ = get_proper_type(typ)
    if isinstance(typ, LiteralType):
        kind = _PYTHON.get(typ.fallback.type.fullname)
        return python_scalar(kind, typ.value) if kind else UNKNOWN
    if isinstance(typ, UnionType):
        # Members of different libraries join to unknown: find out before evaluating them.
        libraries = set()
        for item in typ.items:
            item = get_proper_type(item)
            library = _PYTHON_LIBRARY if isinstance(item, LiteralType) else \
                library_of(item) if isinstance(item, Instance) else None  # fmt: skip
            if library is None:
                return UNKNOWN
            libraries.add(library)
            if len(libraries) > 1:
                return UNKNOWN
        return join(value_of_type(item, ctx, trust_values) for item in typ.items)
    if isinstance(typ, TupleType):
        return Items(tuple(value_of_type(item, ctx, trust_values) for item in typ.items), is_tuple=True)
    if not isinstance(typ, Instance):
        return UNKNOWN
    library = library_of(typ)
    if library is None:
        return UNKNOWN
    if library is Library.PYTHON:
        literal = typ.last_known_value.value if typ.last_known_value is not None else None
        return python_scalar(_PYTHON[typ.type.fullname], literal)
    text = tags.read(typ)
    if text is not None and text.startswith(tags.ANNOTATION_PREFIX):
        value = _from_annotation_tag(text, ctx)
        if isinstance(value, Array) and _same_family(value.library, library):
            return value
    if text is not None and trust_values and text.startswith(tags.VALUE_PREFIX):
        value = decode(text)
        if value is not None and _same_family(value.library, library):
            return value
    if library is Library.JAX:
        return Array(frozenset(), Library.JAX, None)
    dtype = ndarray_dtype(typ) if library is Library.NUMPY_ARRAY else numpy_scalar_dtype(typ)
    value = Array(frozenset([dtype]) if dtype else frozenset(), library, False if dtype else None)
    ndim = ndarray_rank(typ) if library is Library.NUMPY_ARRAY else None
    return replace(value, ndim=ndim) if ndim is not None and _has_field("ndim") else value


def ndarray_rank(typ: Instance) -> int | None:
    """Dimensions from NumPy's shape type: ``tuple[int, int]`` is 2, ``tuple[Any, ...]`` unknown."""
    if not typ.args:
        return None
    shape = get_proper_type(typ.args[0])
    if isinstance(shape, TupleType) and not any(type(get_proper_type(i)).__name__ == "UnpackType" for i in shape.items):
        return len(shape.items)
    return None


def _has_field(name: str) -> bool:
    return any(field.name == name for field in fields(Array))


# --- writing --------------------------------------------------------------------------------
def with_value_tag(typ: Type, value: Value | None, str_type: Instance | None) -> Type:
    """A variable's declared type carrying ``value`` (its value once its module has run), or
    no tag where that value says nothing or belongs to another library than the type."""
    proper = get_proper_type(typ)
    library = library_of(proper) if isinstance(proper, Instance) else None
    if isinstance(value, Array) and value.dtypes and library is not None and str_type is not None \
            and _same_family(value.library, library):  # fmt: skip
        return tags.attach(proper, encode(value), str_type)
    return tags.strip_type(typ)



class TypeFactory:
    """Builds the types the plugin returns, through the checker's ``named_generic_type``."""

    def __init__(self, api, modules=None):
        self.api = api
        self.modules = modules

    def named(self, name: str, args: list[Type] | None = None) -> Instance | None:
        try:
            return self.api.named_generic_type(name, args or [])
        except (KeyError, AssertionError, AttributeError):
            pass
        # The checker resolves names through module attributes; private modules (NumPy's
        # ``numpy._typing._nbit_base``) are only reachable through the module table.
        module, _, attribute = name.rpartition(".")
        tree = self.modules.get(module) if self.modules else None
        symbol = tree.names.get(attribute) if tree is not None else None
        if symbol is not None and isinstance(symbol.node, TypeInfo):
            return Instance(symbol.node, args or [])
        return None

    def numpy_scalar(self, dtype: str | None) -> Instance | None:
        if dtype is None:
            return None
        if dtype in ("float64", "complex128"):
            return self.named(f"numpy.{dtype}")
        if dtype == "bool":
            builtin_bool = self.named("builtins.bool")
            return self.named("numpy.bool", [builtin_bool]) if builtin_bool else None
        for prefix, generic in (("uint", "numpy.unsignedinteger"), ("int", "numpy.signedinteger"),
                                ("float", "numpy.floating")):  # fmt: skip
            if dtype.startswith(prefix) and dtype[len(prefix):].isdigit() and dtype in DTYPES:
                nbit = self.named(_NBIT.format(dtype[len(prefix):]))
                return self.named(generic, [nbit]) if nbit else None
        if dtype == "complex64":
            nbit = self.named(_NBIT.format(32))
            return self.named("numpy.complexfloating", [nbit, nbit]) if nbit else None
        return None

    def ndarray(self, dtype: str | None) -> Instance | None:
        scalar = self.numpy_scalar(dtype) or AnyType(TypeOfAny.special_form)
        shape = self.named("builtins.tuple", [AnyType(TypeOfAny.special_form)])
        dtype_type = self.named("numpy.dtype", [scalar])
        return self.named(NDARRAY, [shape, dtype_type]) if shape and dtype_type else None

    def for_value(self, value: Array) -> Instance | None:
        if value.library is Library.JAX:
            return self.named(JAX_ARRAY)
        if value.library is Library.NUMPY_ARRAY:
            return self.ndarray(value.dtype)
        if value.library is Library.NUMPY_SCALAR:
            return self.numpy_scalar(value.dtype)
        return None

    def result(self, value: Value, default: Type) -> Type:
        """The type to return for an expression the engine evaluated to ``value``."""
        if not isinstance(value, Array) or value.library is Library.PYTHON:
            return default
        proper = get_proper_type(default)
        base: Instance | None = None
        if isinstance(proper, Instance):
            library = library_of(proper)
            if library is not None and _same_family(value.library, library):
                base = proper
            elif library is not None and value.library is Library.JAX:
                base = self.for_value(value)  # NumPy's stubs: ndarray + jax.Array is a jax.Array
        elif isinstance(proper, AnyType) and value.dtypes and \
                (value.library is Library.JAX or _rank(value) is not None):  # fmt: skip
            # mypy knows nothing: the engine's type, where it is sure of it (a NumPy value of
            # unknown rank may be an array or a scalar: it stays Any).
            base = self.for_value(value)
        if base is None:
            return default
        str_type = self.named("builtins.str")
        return tags.attach(base, encode(value), str_type) if str_type is not None else base

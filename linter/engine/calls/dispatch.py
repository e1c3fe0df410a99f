"""Dispatch: a call of a function value goes to the semantics its catalog row names (``apply``), a
method to the array's, an attribute or a dotted name to the value it denotes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from promolint.core.dtypes import BUILTIN_TYPE_DTYPES, MODULE_DTYPE_ATTRIBUTES
from promolint.engine import operations
from promolint.engine.calls import (
    comparisons,
    contractions,
    creation,
    dtype_queries,
    elementwise,
    lax,
    linear_algebra,
    methods,
    python_functions,
    reductions,
    sequences,
    spectral,
)
from promolint.engine.calls.binding import bind, display_name
from promolint.engine.calls.conversions import REAL_OF, as_dtype, call_scalar_type, python_int_overflow
from promolint.engine.calls.shapes import non_integer_dimension, shaped
from promolint.engine.catalog import (
    ALIASES,
    CATALOG,
    CONSTANTS,
    LIST_MUTATORS,
    METHODS,
    NUMPY_FORWARDED,
    NUMPY_IN_PLACE_METHODS,
    SCALAR_CONSTANTS,
    entry_for,
    takes_sequence,
)
from promolint.engine.context import Context
from promolint.engine.records import Call
from promolint.engine.symbolic import apply as symbolic_apply
from promolint.engine.symbolic import is_symbolic, lifted
from promolint.engine.values import (
    AT_INDEXED,
    UNKNOWN,
    Array,
    Bound,
    DTypeRef,
    Elements,
    FInfo,
    Items,
    Library,
    Reference,
    Refusal,
    Unknown,
    Value,
    array,
    is_none,
    join,
    python_scalar,
)


def _forward(call: Call) -> Value:
    """``np.sum(J)`` is ``J.sum()`` and ``np.flip(J)`` indexes J: a JAX argument gets what
    ``jnp.<name>`` gives, the rest NumPy's own function."""
    source = call.first()
    name = call.short
    if isinstance(source, Array) and source.library is Library.JAX:
        target = f"jax.numpy.{name}"
        forwarded = apply(Call(target, CATALOG[target], call.bound, call.ctx))
        if not (isinstance(forwarded, Refusal) and forwarded.error == "TypeError" and call.fn.falls_back):
            return forwarded
    return apply(Call(call.name, NUMPY_FORWARDED[name], call.bound, call.ctx))


# Every semantics by name, from the families; forwarding applies another catalog entry.
SEMANTICS: dict[str, Callable[[Call], Value]] = {
    **creation.SEMANTICS,
    **elementwise.SEMANTICS,
    **contractions.SEMANTICS,
    **linear_algebra.SEMANTICS,
    **comparisons.SEMANTICS,
    **reductions.SEMANTICS,
    **dtype_queries.SEMANTICS,
    **lax.SEMANTICS,
    **methods.SEMANTICS,
    **python_functions.SEMANTICS,
    **sequences.SEMANTICS,
    **spectral.SEMANTICS,
    "forward": _forward,
}


# --- applying semantics ------------------------------------------------------------------------
def _untyped_input(call: Call) -> bool:
    """An array argument or a ``dtype=`` the engine cannot type: the result is not guessed
    (an array argument whose dtype a requested one replaces does not matter)."""
    dtype = next((call.bound[p] for p in ("dtype", "new_dtype", "preferred_element_type") if p in call.bound), None)
    if dtype is not None and not is_none(dtype):
        if as_dtype(dtype) is None:
            return True
        if call.fn.semantics in _REQUESTED_DTYPE_DECIDES:
            return False
    for param in call.fn.arrays:
        value = call.bound.get(param)
        if value is not None and not is_none(value) and not _typed(value):
            return True
    return False


def _typed(value: Value) -> bool:
    """An array value, or a (nested) list or tuple of them: ``np.array([[1, 2], [3, 4]])``."""
    if isinstance(value, Items):
        return all(_typed(item) for item in value.items)
    return isinstance(value, Array)


def _without_dimensions(call: Call) -> bool:
    """A function that needs an array with dimensions, given a Python scalar or a 0-d array."""
    first = next((v for v in call.arrays()), None)
    return call.fn.needs_dimensions and isinstance(first, Array) and first.rank == 0


# Semantics whose requested ``dtype=`` is the result's dtype whatever the data (``jnp.asarray(x,
# dtype=jnp.int32)``, ``np.zeros_like(x, dtype=...)``, ``jnp.full(n, v, dtype)``): data of unknown
# dtype does not make the result unknown.
_REQUESTED_DTYPE_DECIDES = frozenset({"asarray", "like", "full"})
# Semantics whose result dtype does not depend on the operands' dtypes: JAX's predicates and
# comparisons give bools, its index functions the default int (or the int their row names),
# whatever they are given.
_DTYPE_INDEPENDENT = frozenset({"bool", "compare", "index"})
# Semantics whose results are dtypes or their properties, not values of the function's library.
_DESCRIBING_DTYPES = frozenset({"dtype_of", "canonical_dtype", "finfo", "iinfo", "result_type", "promote_types"})
# Semantics whose results are sequences of arrays (``jnp.split``, ``lax.top_k``, ``np.nonzero``):
# how many, where that does not depend on the operands (None: a list of unknown length).
_GIVING_SEQUENCES: dict[str, int | None] = {"split": None, "meshgrid": None, "top_k": 2, "indices": 2, "nonzero": None}


# Shapes whose result is a NumPy scalar where the operands have no dimensions (np.abs(3) is an
# np.int64): of operands nothing is known of, NumPy's result may be either.
_RANK_FOLLOWS_OPERANDS = frozenset({"elementwise", "reduce", "keep", "contract"})


def _unknown_arrays(call: Call) -> Value:
    """What a call of operands nothing is known of gives: an array of the function's library of
    unknown dtype, or, where it gives a tuple or list of them, that sequence (the parts of a
    decomposition such as ``eigh`` or ``slogdet``, ``atleast_1d`` of several arrays, a
    ``return_*`` flag: ``unique(x, return_counts=True)``, ``logsumexp(..., return_sign=True)``)."""
    fn = call.fn
    if fn.library.is_numpy and fn.shape in _RANK_FOLLOWS_OPERANDS:
        return UNKNOWN  # a NumPy array, or a scalar for operands without dimensions: not said
    unknown = Array(frozenset(), fn.library, None)
    if fn.semantics in _GIVING_SEQUENCES:
        count = _GIVING_SEQUENCES[fn.semantics]
        return Elements(unknown) if count is None else Items((unknown,) * count, is_tuple=True)
    if fn.semantics == "decomposition" and len(fn.parts) > 1:
        return UNKNOWN if "compute_uv" in call.bound else Items((unknown,) * len(fn.parts), is_tuple=True)
    if fn.semantics == "atleast" and isinstance(call.bound.get("more"), Items) or any(p.startswith("return_")
                                                                                     for p in call.bound):  # fmt: skip
        return Elements(unknown)
    return unknown


def _opaque_operands_allowed(call: Call) -> bool:
    """A JAX predicate or index function given operands nothing is known of (``jnp.isnan(obj.x)``):
    its result's dtype does not depend on theirs (bool, the default int), whatever they are when
    the call runs.  Not where strict promotion may refuse two operands of different dtypes, nor
    where an operand is known to be something else (a list raises)."""
    if call.fn.library is not Library.JAX or call.fn.semantics not in _DTYPE_INDEPENDENT:
        return False
    operands = [call.bound[p] for p in call.fn.arrays if p in call.bound and not is_none(call.bound[p])]
    if call.ctx.strict and len(operands) > 1:
        return False
    return all(isinstance(v, Array) or type(v) is Unknown for v in operands)


def apply(call: Call) -> Value:
    """The semantics of ``call``'s row, its result given the dimensions the function's shape says."""
    refused = non_integer_dimension(call)
    if refused is not None:
        return refused
    if ((_untyped_input(call) and not _opaque_operands_allowed(call))
            or any(p in call.bound for p in call.fn.unmodelled)
            or _without_dimensions(call)):  # fmt: skip
        if call.fn.library is Library.PYTHON or call.fn.semantics in _DESCRIBING_DTYPES:
            return UNKNOWN  # np.dtype(unknown) is a dtype, not a NumPy value of unknown dtype
        return _unknown_arrays(call)
    if call.fn.library is Library.JAX and call.fn.semantics not in ("like", "asarray"):
        # A jitted jnp function parses Python ints as the default int first (2**40 raises with x64
        # off); the *_like functions only read the argument's dtype (jnp.zeros_like(2**40) runs)
        # and jnp.asarray converts through NumPy (its own checks, in its semantics).
        for value in call.arrays():
            if value.library is Library.PYTHON:
                overflow = python_int_overflow(value, call.ctx)
                if overflow:
                    return overflow
    return operations.kept_name(call.arrays(), shaped(call, SEMANTICS[call.fn.semantics](call)))


# --- entry points -----------------------------------------------------------------------------
def resolve_reference(qualname: str) -> Value:
    """A dotted name: a dtype (``numpy.float32``), a constant (``numpy.pi``), or a reference (to
    the function itself, for another name of a catalogued one)."""
    qualname = ALIASES.get(qualname, qualname)
    module, _, attr = qualname.rpartition(".")
    dtype = MODULE_DTYPE_ATTRIBUTES.get(module, {}).get(attr)
    if dtype:
        return DTypeRef(dtype, module=module)
    if qualname in SCALAR_CONSTANTS:
        dtype, literal = SCALAR_CONSTANTS[qualname]
        return array(dtype, Library.NUMPY_SCALAR, literal=literal, ndim=0)
    if qualname in CONSTANTS:
        return python_scalar("float", CONSTANTS[qualname], provenance=f"{display_name(qualname)} is a Python float")
    if module == "builtins" and attr in BUILTIN_TYPE_DTYPES:
        return DTypeRef(BUILTIN_TYPE_DTYPES[attr], builtin=True)
    return Reference(qualname)


def call(func: Value, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    """``func(*args, **kwargs)`` and the catalogued call it is (None for a call of a variable's
    value, whose call is known only at each of its members)."""
    if is_symbolic(func) or is_symbolic(args) or is_symbolic(kwargs):
        return symbolic_apply("call", _call_value, (func, list(args), dict(kwargs), ctx)), None
    return _call(func, args, kwargs, ctx)


def _call_value(func: Value, args: list[Value], kwargs: dict[str, Value], ctx: Context) -> Value:
    return _call(func, args, kwargs, ctx)[0]


def _call(func: Value, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    """Call a function value: a catalogued function, an array method, or a scalar type."""
    if any(isinstance(v, Refusal) for v in (*args, *kwargs.values())):
        return UNKNOWN, None  # an argument raised: the call never happens
    if isinstance(func, Reference):
        return call_function(func.qualname, args, kwargs, ctx)
    if isinstance(func, Bound) and func.at_update:
        return _at_update(func.receiver, func.at_update, args, ctx), None
    if isinstance(func, Bound):
        return call_method(func.receiver, func.method, args, kwargs, ctx)
    if isinstance(func, DTypeRef):
        return call_scalar_type(func, args, kwargs, ctx)
    return UNKNOWN, None


def _at_update(receiver: Value, method: str, args: Sequence[Value], ctx: Context) -> Value:
    """``x.at[i].set(v)`` / ``.add(v)`` / ``.get()``: x's dtype and weak flag; the update must
    promote with x (strict mode refuses ``i8.at[0].add(1.5)``), then is cast to x's dtype."""
    if not isinstance(receiver, Array):
        return UNKNOWN
    update = args[0] if args and method != "get" else None
    if isinstance(update, Array) and receiver.library is Library.JAX:
        outcome = operations.update_promotion(receiver, update, ctx)
        if isinstance(outcome, Refusal):
            return outcome
    if method == "divide" and receiver.library is Library.JAX:
        # x divided by ones of x's dtype with the update multiplied in: an integer x gives a
        # float (measured: jnp.zeros(3, jnp.int32).at[0].divide(2) is float32)
        return operations.binary("/", receiver, receiver, ctx)
    return receiver


def call_function(qualname: str, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    fn = entry_for(qualname, ctx.jax_facts)
    if fn is None:
        return UNKNOWN, None
    call = Call(qualname, fn, bind(fn, args, kwargs), ctx)
    lists = [p for p in fn.arrays if isinstance(call.bound.get(p), Items) and not takes_sequence(fn, p)]
    if lists and fn.semantics not in _MAKING and fn.library is not Library.PYTHON:
        if fn.library is Library.JAX:
            return UNKNOWN, None  # most jnp functions refuse lists (check_arraylike); not modelled
        call = replace(call, bound={**call.bound, **{p: creation.numpy_array_of(call.bound[p], ctx) for p in lists}})
    listed = _listed(call)
    return (apply(call) if listed is None else listed), call


# Semantics that join a list of arrays and raise for an empty one (stack, concatenate, hstack...),
# and those that make an empty list a float array (array, asarray; measured).
_JOINING = frozenset({"concatenate"})
_MAKING = frozenset({"asarray"})


def _listed(call: Call) -> Value | None:
    """A call given a list of unknown length whose items are all one exact value (a list
    comprehension, ``[x] * n``): joining its arrays gives what joining that one item does (an
    empty list raises); making an array of it, that or an empty list's array.  None for the
    other calls, and for items of several candidate dtypes (which may be mixed)."""
    if call.fn.semantics not in _JOINING and call.fn.semantics not in _MAKING:
        return None
    param = next((p for p in call.fn.arrays if isinstance(call.bound.get(p), Elements)), None)
    if param is None or not _exact(call.bound[param].element):
        return None
    one = apply(replace(call, bound={**call.bound, param: Items((call.bound[param].element,))}))
    if call.fn.semantics in _JOINING:
        return one
    return join([one, shaped(call, creation.of_empty_list(call))])


def _exact(value: Value) -> bool:
    if isinstance(value, Items):
        return all(_exact(item) for item in value.items)
    return isinstance(value, Array) and value.exact


def call_method(receiver: Value, name: str, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    if isinstance(receiver, FInfo):
        return UNKNOWN, None
    if not isinstance(receiver, Array) or receiver.library is Library.PYTHON:
        return UNKNOWN, None
    fn = METHODS.get(name)
    if fn is None or (receiver.library.is_numpy and name in NUMPY_IN_PLACE_METHODS):
        return UNKNOWN, None  # ndarray.sort() sorts in place and returns None
    library = Library.JAX if receiver.library is Library.JAX else Library.NUMPY_ARRAY
    fn = replace(fn, library=library)
    call = Call(name, fn, bind(fn, [receiver, *args], kwargs), ctx)
    value = apply(call)
    if isinstance(value, Array) and receiver.library is Library.NUMPY_SCALAR and value.library is Library.NUMPY_ARRAY:
        value = replace(value, library=Library.NUMPY_SCALAR, ndim=0)  # methods of NumPy scalars give scalars
    return value, call


_PYTHON_TYPES = {"bool": bool, "int64": int, "float64": float, "complex128": complex}
# What `attribute` models of an array beside its methods: read on a Python scalar, any of
# them (or a method) says the code took it for an array.
_ARRAY_PROPERTIES = frozenset({"T", "mT", "dtype", "shape", "ndim", "size", "nbytes", "itemsize", "at"})


@lifted("attribute")
def attribute(value: Value, name: str) -> Value:
    """``x.T``, ``x.dtype``, ``finfo.eps``, ``x.real``, ``x.shape`` ..."""
    if isinstance(value, Reference):
        return resolve_reference(f"{value.qualname}.{name}")
    if isinstance(value, FInfo):
        if name in ("eps", "max", "min", "tiny", "resolution", "smallest_normal", "epsneg") and not value.integer:
            return array(value.dtype, Library.NUMPY_SCALAR, provenance=f"finfo({value.dtype}).{name} is a NumPy "
                         f"{value.dtype} scalar")  # fmt: skip
        if name in ("max", "min") and value.integer and operations.int_bounds(value.dtype):
            # np.iinfo(np.int8).min is the Python int -128: its value, for the conversions it meets
            return python_scalar("int", operations.int_bounds(value.dtype)[name == "max"])
        if name in ("max", "min", "bits"):
            return python_scalar("int")
        if name == "dtype":
            return DTypeRef(value.dtype)
        return UNKNOWN
    if isinstance(value, DTypeRef):
        if name == "type":
            return value
        return UNKNOWN
    if isinstance(value, Bound) and value.method == AT_INDEXED:
        return Bound(value.receiver, AT_INDEXED + name)  # x.at[i].set: called by the front end
    if isinstance(value, (Items, Elements)) and name in LIST_MUTATORS:
        return Bound(value, name)  # xs.append: the flow stops following xs (containers.mutated)
    if not isinstance(value, Array):
        return UNKNOWN
    if value.library is Library.PYTHON and not all(hasattr(_PYTHON_TYPES[d], name) for d in value.dtypes):
        # `2.0.astype` raises; a name no array has either (`state.replace`, `Face.UP.value`) says
        # the value is some object the engine does not model, not a number.
        return Refusal("AttributeError", f"a Python scalar has no attribute {name!r}") \
            if name in METHODS or name in _ARRAY_PROPERTIES else UNKNOWN  # fmt: skip
    if name in ("T", "mT"):
        return value
    if name == "dtype":
        return DTypeRef(value.dtype) if value.dtype else UNKNOWN
    if name in ("real", "imag") and value.library is not Library.PYTHON:
        dtypes = frozenset(REAL_OF.get(d, d) for d in value.dtypes)
        return Array(dtypes, value.library, value.weak, ndim=value.ndim)
    if name == "shape":
        return Elements(python_scalar("int"))
    if name in ("ndim", "size", "nbytes", "itemsize"):
        return python_scalar("int")
    if name in METHODS or name in ("at",):
        return Bound(value, name)
    return UNKNOWN

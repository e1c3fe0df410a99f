"""Parameter annotations as values: ``jax.Array``, ``NDArray[np.float32]``, jaxtyping's
``Float32[Array, "n"]`` and ``Float[Array, ""]`` (some float), Python scalar types.

The front end passes the annotation's head and the qualified names inside its brackets."""

from __future__ import annotations

from collections.abc import Sequence

from promolint.core.dtypes import MODULE_DTYPE_ATTRIBUTES, narrow_x32
from promolint.engine.context import Context
from promolint.engine.values import UNKNOWN, Array, Library, Unknown, Value, python_scalar

JAX_ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxlib.xla_extension.ArrayImpl", "chex.Array",
                             "jax.core.Tracer"})  # fmt: skip
NUMPY_ARRAY_TYPES = frozenset({"numpy.ndarray", "numpy.typing.NDArray"})
# ``jax.typing.ArrayLike``, ``numpy.typing.ArrayLike`` and the projects' re-exports of them
# (``blackjax.types.ArrayLike``): any numeric value of any library, by the name they all share.
ARRAY_LIKE = Unknown(provenance="annotated ArrayLike")
_ARRAY_LIKE_NAME = "ArrayLike"
# A parameter annotated as a mapping (``indexers: dict[str, Any]``) holds no number: an item
# read from it is a variable of its own (``promolint.engine.symbolic.item_variable``).
MAPPING = Unknown(provenance="annotated mapping")
MAPPING_TYPES = frozenset({"builtins.dict", "typing.Dict", "typing.Mapping", "typing.MutableMapping",
                           "collections.abc.Mapping", "collections.abc.MutableMapping"})  # fmt: skip
PYTHON_SCALARS = {"builtins.float": "float", "builtins.int": "int", "builtins.complex": "complex",
                  "builtins.bool": "bool"}  # fmt: skip

_FLOATS = ("bfloat16", "float16", "float32", "float64")
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
# jaxtyping's dtype annotations and the dtypes each admits (its ``_float_dtypes`` etc.).
JAXTYPING_DTYPES: dict[str, tuple[str, ...]] = {
    "Float": _FLOATS,
    "Int": _SIGNED,
    "UInt": _UNSIGNED,
    "Integer": _SIGNED + _UNSIGNED,
    "Bool": ("bool",),
    "Complex": ("complex64", "complex128"),
    "Inexact": _FLOATS + ("complex64", "complex128"),
    "BFloat16": ("bfloat16",),
    **{f"Float{b}": (f"float{b}",) for b in (16, 32, 64)},
    **{f"Int{b}": (f"int{b}",) for b in (4, 8, 16, 32, 64)},
    **{f"UInt{b}": (f"uint{b}",) for b in (4, 8, 16, 32, 64)},
    **{f"Complex{b}": (f"complex{b}",) for b in (64, 128)},
}


def annotation_value(head: str | None, arguments: Sequence[str | None], ctx: Context) -> Value:
    """The value a parameter annotated ``head[arguments...]`` holds, as far as types say."""
    if head is None:
        return UNKNOWN
    if head.rpartition(".")[2] == _ARRAY_LIKE_NAME:
        return ARRAY_LIKE
    if head in MAPPING_TYPES:
        return MAPPING
    scalar = python_type(head, "annotated")
    if scalar is not None:
        return scalar
    if head in JAX_ARRAY_TYPES:
        return Array(frozenset(), Library.JAX, None)
    if head in NUMPY_ARRAY_TYPES:
        dtype = next((_dtype_name(a) for a in arguments if _dtype_name(a)), None)
        return Array(frozenset([dtype] if dtype else []), Library.NUMPY_ARRAY, False,
                     provenance=f"annotated {dtype}" if dtype else "")  # fmt: skip
    module, _, name = head.rpartition(".")
    if module == "jaxtyping" and name in JAXTYPING_DTYPES:
        library = Library.NUMPY_ARRAY if arguments and arguments[0] in NUMPY_ARRAY_TYPES else Library.JAX
        dtypes = JAXTYPING_DTYPES[name]
        if library is Library.JAX and not ctx.x64:
            dtypes = tuple(dict.fromkeys(narrow_x32(d) for d in dtypes))  # 64-bit JAX arrays cannot exist
        # The annotation checks the dtype, not the weak flag: ``jnp.array(-1.0)`` passes ``Float[Array, ""]``.
        # Weak JAX values hold their kind's default dtype only (an Int8 array is strong).
        weakly = {ctx.jax.default_dtype(kind) for kind in "ifc"}
        weak = None if library is Library.JAX and weakly.intersection(dtypes) else False
        return Array(frozenset(dtypes), library, weak, provenance=f"annotated {name}")
    return UNKNOWN


def python_type(qualname: str | None, why: str = "isinstance") -> Value | None:
    """What a value of the Python scalar type ``qualname`` is (``isinstance(v, float)`` proves
    it, an annotation says it); None for other types."""
    kind = PYTHON_SCALARS.get(qualname or "")
    return python_scalar(kind, provenance=f"{why} {kind}") if kind else None


def _dtype_name(qualname: str | None) -> str | None:
    if not qualname:
        return None
    module, _, attr = qualname.rpartition(".")
    return MODULE_DTYPE_ATTRIBUTES.get(module, {}).get(attr)

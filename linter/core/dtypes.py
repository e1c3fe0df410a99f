"""The dtype catalog: every dtype promolint knows, as data.

Names are NumPy's canonical names (``np.dtype(x).name``), which is also what JAX prints.
The weak nodes of JAX's lattice are ``i*``, ``f*`` and ``c*``: the Python types ``int``,
``float`` and ``complex`` and values weakly typed like them.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class DType:
    name: str
    kind: str  # NumPy's kind letter: b, u, i, f, c (V for ml_dtypes' own floats is not used)
    bits: int
    short: str  # bit-width abbreviation used in tables and messages: i8, u32, bf16, f8e4m3fn


def _catalog() -> dict[str, DType]:
    rows = [("bool", "b", 8, "b1")]
    for bits in (1, 2, 4, 8, 16, 32, 64):
        rows.append((f"uint{bits}", "u", bits, f"u{bits}"))
        rows.append((f"int{bits}", "i", bits, f"i{bits}"))
    for name, bits in (
        ("float4_e2m1fn", 4),
        ("float6_e2m3fn", 6),
        ("float6_e3m2fn", 6),
        ("float8_e3m4", 8),
        ("float8_e4m3", 8),
        ("float8_e8m0fnu", 8),
        ("float8_e4m3b11fnuz", 8),
        ("float8_e4m3fn", 8),
        ("float8_e4m3fnuz", 8),
        ("float8_e5m2", 8),
        ("float8_e5m2fnuz", 8),
    ):
        rows.append((name, "f", bits, "f" + name[len("float") :].replace("_", "")))
    rows += [
        ("bfloat16", "f", 16, "bf16"),
        ("float16", "f", 16, "f16"),
        ("float32", "f", 32, "f32"),
        ("float64", "f", 64, "f64"),
        ("complex64", "c", 64, "c64"),
        ("complex128", "c", 128, "c128"),
    ]
    return {name: DType(name, kind, bits, short) for name, kind, bits, short in rows}


DTYPES: dict[str, DType] = _catalog()

# Weak nodes: the lattice position of Python scalars and weakly typed values, by kind.
WEAK_NODES: dict[str, str] = {"i": "i*", "f": "f*", "c": "c*"}
WEAK_NODE_KIND: dict[str, str] = {node: kind for kind, node in WEAK_NODES.items()}
# The Python type each weak node stands for, and the dtype NumPy/JAX give it with 64 bits.
PYTHON_SCALAR_TYPES: dict[str, str] = {"bool": "bool", "int": "i*", "float": "f*", "complex": "c*"}
DEFAULT_DTYPE_X64: dict[str, str] = {"b": "bool", "i": "int64", "u": "uint64", "f": "float64", "c": "complex128"}
DEFAULT_DTYPE_X32: dict[str, str] = {"b": "bool", "i": "int32", "u": "uint32", "f": "float32", "c": "complex64"}

# With x64 off JAX canonicalizes these before promotion (``dtypes.canonicalize_dtype``).
X64_NARROWING: dict[str, str] = {
    "int64": "int32",
    "uint64": "uint32",
    "float64": "float32",
    "complex128": "complex64",
}

FLOAT8 = frozenset(n for n in DTYPES if n.startswith("float8_"))
FLOAT6 = frozenset(n for n in DTYPES if n.startswith("float6_"))
FLOAT4 = frozenset(n for n in DTYPES if n.startswith("float4_"))
INTN = frozenset(f"{s}int{b}" for s in ("", "u") for b in (1, 2, 4))
# Floats that ml_dtypes adds to NumPy (JAX calls them custom floats; weak ones act as f*).
CUSTOM_FLOATS = frozenset(FLOAT8 | FLOAT6 | FLOAT4 | {"bfloat16"})

# NumPy's own dtypes (the rest exist in NumPy only through ml_dtypes).
NUMPY_NATIVE = frozenset(
    ["bool", "float16", "float32", "float64", "complex64", "complex128"]
    + [f"{s}int{b}" for s in ("", "u") for b in (8, 16, 32, 64)]
)


def narrow_x32(name: str) -> str:
    """The dtype JAX uses for ``name`` with x64 off."""
    return X64_NARROWING.get(name, name)


def kind_of(node: str) -> str:
    """Kind letter of a dtype name or a weak node."""
    return WEAK_NODE_KIND.get(node) or DTYPES[node].kind


def is_64bit(name: str) -> bool:
    return name in X64_NARROWING


# --- spellings ---------------------------------------------------------------------------
_NUMPY_ALIASES: dict[str, str] = {
    "bool_": "bool",
    "half": "float16",
    "single": "float32",
    "double": "float64",
    "csingle": "complex64",
    "cdouble": "complex128",
    "byte": "int8",
    "ubyte": "uint8",
    "short": "int16",
    "ushort": "uint16",
    "intc": "int32",
    "uintc": "uint32",
    "int_": "int64",
    "intp": "int64",
    "uintp": "uint64",
    "uint": "uint64",
    "long": "int64",
    "ulong": "uint64",
    "longlong": "int64",
    "ulonglong": "uint64",
}
_JAX_NUMPY_ALIASES: dict[str, str] = {
    **{k: _NUMPY_ALIASES[k] for k in ("bool_", "single", "double", "csingle", "cdouble", "int_", "uint")},
    "float_": "float64",
    "complex_": "complex128",
}

# Which attribute of which module is a dtype (scalar type): ``np.float32``, ``jnp.int4``.
MODULE_DTYPE_ATTRIBUTES: dict[str, dict[str, str]] = {
    "numpy": {**{n: n for n in NUMPY_NATIVE}, **_NUMPY_ALIASES},
    "jax.numpy": {**{n: n for n in DTYPES}, **_JAX_NUMPY_ALIASES},
    "ml_dtypes": {n: n for n in DTYPES if n in CUSTOM_FLOATS or n in INTN},
}


def resolve_attribute(module: str, attr: str) -> str | None:
    """``<module>.<attr>`` (``numpy.float32``, ``jax.numpy.bfloat16``) as a dtype name, or None."""
    return MODULE_DTYPE_ATTRIBUTES.get(module, {}).get(attr)


# Python's builtin types used as dtypes: NumPy reads them as the 64-bit default of the kind;
# JAX narrows them with x64 off *without* the explicit-64-bit warning.
BUILTIN_TYPE_DTYPES: dict[str, str] = {
    "bool": "bool",
    "int": "int64",
    "float": "float64",
    "complex": "complex128",
}

# String spellings NumPy accepts (``np.dtype(s)``), besides the canonical names.
_STRING_ALIASES: dict[str, str] = {
    **{k: v for k, v in _NUMPY_ALIASES.items() if k != "bool_"},
    **BUILTIN_TYPE_DTYPES,
    "?": "bool",
    "b1": "bool",
    "b": "int8",
    "B": "uint8",
    "h": "int16",
    "H": "uint16",
    "i": "int32",
    "I": "uint32",
    "l": "int64",
    "L": "uint64",
    "q": "int64",
    "Q": "uint64",
    "p": "int64",
    "P": "uint64",
    "e": "float16",
    "f": "float32",
    "d": "float64",
    "F": "complex64",
    "D": "complex128",
    "i1": "int8",
    "i2": "int16",
    "i4": "int32",
    "i8": "int64",
    "u1": "uint8",
    "u2": "uint16",
    "u4": "uint32",
    "u8": "uint64",
    "f2": "float16",
    "f4": "float32",
    "f8": "float64",
    "c8": "complex64",
    "c16": "complex128",
}


_TYPE_CODES = frozenset(k for k in _STRING_ALIASES if len(k) == 1 or (k[0] in "biufc" and k[1:].isdigit()))


def resolve_string(text: str) -> str | None:
    """A dtype written as a string (``'float32'``, ``'f4'``, ``'<f4'``), or None."""
    spelled = text.strip()
    if spelled in DTYPES:
        return spelled
    # NumPy takes a byte-order prefix on type codes only ('<f4', '|b1'), never on names.
    if spelled[:1] in "<>=|" and spelled[1:] in _TYPE_CODES:
        spelled = spelled[1:]
    return _STRING_ALIASES.get(spelled)


# --- names on the command line and in printed tables ---------------------------------------
# One scheme, so that what `promolint table` prints, `promolint join` reads, and NumPy reads the
# same way: short names count bytes, as NumPy's type codes do (i8 is int64, u4 uint32, f2
# float16, c8 complex64).  Dtypes without a NumPy type code keep a name of their own: the
# sub-byte ints in full (int4, uint2), bfloat16 as bf16, ml_dtypes' floats as their name without
# ``float`` and underscores (f8e4m3fn).  None of those is a NumPy spelling, so no name means two
# dtypes.
def _label(dtype: DType) -> str:
    if dtype.name in NUMPY_NATIVE:
        return "b1" if dtype.kind == "b" else f"{dtype.kind}{dtype.bits // 8}"
    return dtype.name if dtype.kind in "iu" else dtype.short


LABELS: dict[str, str] = {name: _label(dtype) for name, dtype in DTYPES.items()}
_BY_LABEL: dict[str, str] = {label: name for name, label in LABELS.items()}
# Bit-width spellings other tools print (f32, i16): read as NumPy reads them, or not at all.
_BIT_WIDTH = {f"{dtype.kind}{dtype.bits}": name for name, dtype in DTYPES.items() if dtype.kind in "iufc"}


def label(name: str) -> str:
    """The short name tables print for a dtype (a weak node or a system's own dtype as is)."""
    return LABELS.get(name, name)


def resolve_name(text: str) -> str | None:
    """A dtype named on the command line: a canonical name, a spelling NumPy reads (read as NumPy
    reads it: ``i8`` is int64), or a label tables print (``bf16``, ``int4``, ``f8e4m3fn``)."""
    return resolve_string(text) or _BY_LABEL.get(text.strip())


def unknown_name_hint(text: str) -> str:
    """Why ``text`` is not a dtype name, when a likely meaning is known ('' otherwise)."""
    meant = _BIT_WIDTH.get(text.strip())
    if meant is None:
        return ""
    numpy = " (NumPy reads it as a 16-byte float, which no system here has)" if text.strip() == "f16" else ""
    return f"{numpy}; short names count bytes, as NumPy's do: {meant} is {label(meant)}"


# What an input contract gives a function's array parameters unless a project says otherwise.
DEFAULT_INPUT_DTYPES = ("float32",)
# The dtypes an input contract may give a parameter annotated as an array (what a library's
# functions are called with besides 64-bit arrays), each with x64's default of its kind: where an
# operation runs for that one and raises for the input, it is bound to x64's defaults.
CONTRACT_WIDE = MappingProxyType({"float32": "float64", "bfloat16": "float64", "float16": "float64",
                                  "int32": "int64", "int16": "int64", "int8": "int64", "uint8": "int64",
                                  "complex64": "complex128"})  # fmt: skip

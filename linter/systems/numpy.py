"""NumPy 2's promotion (NEP 50) as its operators apply it, ml_dtypes' types included.

NumPy's promotion is a table, not a lattice, so this system is data: the tables of
``promolint.systems.numpy_facts``, measured on the installed NumPy and ml_dtypes (how NumPy's
operators promote ml_dtypes' types changes with ml_dtypes' version).  The data and rules below are
the shipped facts, measured on NumPy 2.4.6 with ml_dtypes 0.6.0, which stand in where the installed
libraries cannot be measured: which dtype casts safely to which (``np.can_cast(a, b, "safe")``),
the order of the ufunc loops, and what a Python scalar does beside a dtype of a lower kind.
``tests/oracle/test_numpy_system.py`` checks the system against the installed libraries.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from promolint.core.dtypes import CUSTOM_FLOATS, DEFAULT_DTYPE_X64, DTYPES, INTN, NUMPY_NATIVE, WEAK_NODE_KIND, WEAK_NODES
from promolint.systems.base import Operand, Promoted, PromotionSystem, Reason, Refused, Result
from promolint.systems.numpy_facts import NO_RESULT, SHIPPED, NumpyFacts, installed_facts

_BY_SHORT = {dtype.short: name for name, dtype in DTYPES.items()}

# ml_dtypes declares the casts between these small floats and its 1/2/4-bit ints "safe" in both directions.
_SMALL = "f4e2m1fn f6e2m3fn f6e3m2fn f8e3m4 f8e4m3 f8e4m3b11fnuz f8e4m3fn f8e4m3fnuz f8e5m2fnuz"
_SMALL_BUT_F6E2M3 = _SMALL.replace(" f6e2m3fn", "")

# np.can_cast(a, b, "safe"): each dtype (in short names) to every dtype it casts to safely, itself included.
_SAFE_CASTS_TO: dict[str, str] = {
    "bool": f"b1 u1 i1 u2 i2 u4 i4 u8 i8 u16 i16 u32 i32 u64 i64 {_SMALL} "
    "f8e8m0fnu f8e5m2 bf16 f16 f32 f64 c64 c128",
    "uint1": f"u1 u2 u4 u8 i8 u16 i16 u32 i32 u64 i64 {_SMALL} f16 f32 f64 c64 c128",
    "int1": f"i1 i2 i4 i8 i16 i32 i64 {_SMALL} f16 f32 f64 c64 c128",
    "uint2": f"u2 u4 u8 i8 u16 i16 u32 i32 u64 i64 {_SMALL} f16 f32 f64 c64 c128",
    "int2": f"i2 i4 i8 i16 i32 i64 {_SMALL} f16 f32 f64 c64 c128",
    "uint4": f"u4 u8 i8 u16 i16 u32 i32 u64 i64 {_SMALL_BUT_F6E2M3} f16 f32 f64 c64 c128",
    "int4": f"i4 i8 i16 i32 i64 {_SMALL_BUT_F6E2M3} f16 f32 f64 c64 c128",
    "uint8": f"u8 u16 i16 u32 i32 u64 i64 {_SMALL} f8e8m0fnu f8e5m2 bf16 f16 f32 f64 c64 c128",
    "int8": f"i8 i16 i32 i64 {_SMALL} f8e8m0fnu f8e5m2 bf16 f16 f32 f64 c64 c128",
    "uint16": "u16 u32 i32 u64 i64 f32 f64 c64 c128",
    "int16": "i16 i32 i64 f32 f64 c64 c128",
    "uint32": "u32 u64 i64 f64 c128",
    "int32": "i32 i64 f64 c128",
    "uint64": "u64 f64 c128",
    "int64": "i64 f64 c128",
    "float4_e2m1fn": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float6_e2m3fn": f"u1 i1 u2 i2 {_SMALL} f32 f64 c64 c128",
    "float6_e3m2fn": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float8_e3m4": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float8_e4m3": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float8_e8m0fnu": "f8e8m0fnu f32 f64 c64 c128",
    "float8_e4m3b11fnuz": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float8_e4m3fn": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float8_e4m3fnuz": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "float8_e5m2": "f8e5m2 f32 f64 c64 c128",
    "float8_e5m2fnuz": f"u1 i1 u2 i2 u4 i4 {_SMALL} f32 f64 c64 c128",
    "bfloat16": "bf16 f32 f64 c64 c128",
    "float16": "f16 f32 f64 c64 c128",
    "float32": "f32 f64 c64 c128",
    "float64": "f64 c128",
    "complex64": "c64 c128",
    "complex128": "c128",
}
SAFE_CASTS: dict[str, frozenset[str]] = {
    name: frozenset(_BY_SHORT[short] for short in targets.split()) for name, targets in _SAFE_CASTS_TO.items()
}

# The loops of ``np.add`` in NumPy's order (``np.add.types`` less longdouble, datetimes and objects).
# A ufunc runs in the first loop every operand casts to safely; on NumPy's own dtypes that is promote_types.
LOOPS = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float16", "float32", "float64", "complex64", "complex128")  # fmt: skip

# NEP 50: a Python scalar takes the other dtype when that is of the scalar's kind or a higher one.
# Beside a lower kind NumPy promotes with the stand-in below: the kind's default dtype, except that
# a complex beside a float keeps the float's precision (float16 + 1j is complex64).
_WEAK_STAND_INS: dict[str, dict[str, str]] = {
    "i*": {"b": "int64"},
    "f*": {"b": "float64", "u": "float64", "i": "float64"},
    "c*": {"b": "complex128", "u": "complex128", "i": "complex128", "f": "complex64"},
}

# With an ml_dtypes operand NumPy falls back to its legacy resolver, where a Python scalar is not
# weak in NEP 50's sense but fits some loops: an int fits NumPy's numbers and ml_dtypes' floats (not
# its sub-byte ints: int4 + 1 is int8), a float only NumPy's floats (bfloat16 + 1.0 is float32).
_PYTHON_SCALAR_FITS: dict[str, frozenset[str]] = {
    "i*": frozenset(n for n in NUMPY_NATIVE if DTYPES[n].kind != "b") | CUSTOM_FLOATS,
    "f*": frozenset(n for n in NUMPY_NATIVE if DTYPES[n].kind in "fc"),
    "c*": frozenset(n for n in NUMPY_NATIVE if DTYPES[n].kind == "c"),
}
_FITS = {**SAFE_CASTS, **_PYTHON_SCALAR_FITS}


_TRUE_DIVIDE_LOOPS = ("float16", "float32", "float64", "complex64", "complex128")


def _first_loop(nodes: list[str], loops: tuple[str, ...] = LOOPS) -> str:
    # Every supported dtype and Python scalar casts safely to complex128, so a loop is always found.
    return next(loop for loop in loops if all(loop in _FITS[node] for node in nodes))


# np.promote_types of the pairs with an ml_dtypes type that the safe casts leave open (both or
# neither casts safely to the other): ml_dtypes' table picks one, a third dtype, or no common
# dtype ("-": DTypePromotionError).  In short names, "other:result" for each later dtype.
_ML_PAIRS_MEASURED: dict[str, str] = {
    "uint1": (
        "i1:- i2:- i4:- f4e2m1fn:f4e2m1fn f6e2m3fn:f6e2m3fn f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 f8e4m3:f8e4m3 f8e8m0fnu:- "
        "f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- f8e5m2fnuz:f8e5m2fnuz bf16:-"
    ),
    "int1": (
        "u2:- u4:- u8:- u16:- u32:- u64:- f4e2m1fn:f4e2m1fn f6e2m3fn:f6e2m3fn f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 "
        "f8e4m3:f8e4m3 f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- "
        "f8e5m2fnuz:f8e5m2fnuz bf16:-"
    ),
    "uint2": (
        "i2:- i4:- f4e2m1fn:f4e2m1fn f6e2m3fn:f6e2m3fn f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 f8e4m3:f8e4m3 f8e8m0fnu:- "
        "f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- f8e5m2fnuz:f8e5m2fnuz bf16:-"
    ),
    "int2": (
        "u4:- u8:- u16:- u32:- u64:- f4e2m1fn:f4e2m1fn f6e2m3fn:f6e2m3fn f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 "
        "f8e4m3:f8e4m3 f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- "
        "f8e5m2fnuz:f8e5m2fnuz bf16:-"
    ),
    "uint4": (
        "i4:- f4e2m1fn:f4e2m1fn f6e2m3fn:- f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 f8e4m3:f8e4m3 f8e8m0fnu:- "
        "f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- f8e5m2fnuz:f8e5m2fnuz bf16:-"
    ),
    "int4": (
        "u8:- u16:- u32:- u64:- f4e2m1fn:f4e2m1fn f6e2m3fn:- f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 f8e4m3:f8e4m3 "
        "f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- "
        "f8e5m2fnuz:f8e5m2fnuz bf16:-"
    ),
    "uint16": (
        "f4e2m1fn:- f6e2m3fn:- f6e3m2fn:- f8e3m4:- f8e4m3:- f8e8m0fnu:- f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- "
        "f8e5m2:f32 f8e5m2fnuz:- bf16:-"
    ),
    "int16": (
        "f4e2m1fn:- f6e2m3fn:- f6e3m2fn:- f8e3m4:- f8e4m3:- f8e8m0fnu:- f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- "
        "f8e5m2:f32 f8e5m2fnuz:- bf16:-"
    ),
    "uint32": (
        "f4e2m1fn:- f6e2m3fn:- f6e3m2fn:- f8e3m4:- f8e4m3:- f8e8m0fnu:- f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- "
        "f8e5m2:f64 f8e5m2fnuz:- bf16:-"
    ),
    "int32": (
        "f4e2m1fn:- f6e2m3fn:- f6e3m2fn:- f8e3m4:- f8e4m3:- f8e8m0fnu:- f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- "
        "f8e5m2:f64 f8e5m2fnuz:- bf16:-"
    ),
    "uint64": (
        "f4e2m1fn:- f6e2m3fn:- f6e3m2fn:- f8e3m4:- f8e4m3:- f8e8m0fnu:- f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- "
        "f8e5m2:f64 f8e5m2fnuz:- bf16:-"
    ),
    "int64": (
        "f4e2m1fn:- f6e2m3fn:- f6e3m2fn:- f8e3m4:- f8e4m3:- f8e8m0fnu:- f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- "
        "f8e5m2:f64 f8e5m2fnuz:- bf16:-"
    ),
    "float4_e2m1fn": (
        "f6e2m3fn:f6e2m3fn f6e3m2fn:f6e3m2fn f8e3m4:f8e3m4 f8e4m3:f8e4m3 f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3b11fnuz "
        "f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz f8e5m2:- f8e5m2fnuz:f8e5m2fnuz bf16:- f16:-"
    ),
    "float6_e2m3fn": (
        "f6e3m2fn:f6e2m3fn f8e3m4:f8e3m4 f8e4m3:f8e4m3 f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn "
        "f8e4m3fnuz:f8e4m3fnuz f8e5m2:- f8e5m2fnuz:f8e5m2fnuz bf16:- f16:-"
    ),
    "float6_e3m2fn": (
        "f8e3m4:f8e3m4 f8e4m3:f8e4m3 f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3b11fnuz f8e4m3fn:f8e4m3fn f8e4m3fnuz:f8e4m3fnuz "
        "f8e5m2:- f8e5m2fnuz:f8e5m2fnuz bf16:- f16:-"
    ),
    "float8_e3m4": (
        "f8e4m3:f8e3m4 f8e8m0fnu:- f8e4m3b11fnuz:f8e3m4 f8e4m3fn:f8e3m4 f8e4m3fnuz:f8e3m4 f8e5m2:- f8e5m2fnuz:f8e3m4 "
        "bf16:- f16:-"
    ),
    "float8_e4m3": (
        "f8e8m0fnu:- f8e4m3b11fnuz:f8e4m3 f8e4m3fn:f8e4m3 f8e4m3fnuz:f8e4m3 f8e5m2:- f8e5m2fnuz:f8e4m3 bf16:- f16:-"
    ),
    "float8_e8m0fnu": "f8e4m3b11fnuz:- f8e4m3fn:- f8e4m3fnuz:- f8e5m2:- f8e5m2fnuz:- bf16:- f16:-",
    "float8_e4m3b11fnuz": (
        "f8e4m3fn:f8e4m3b11fnuz f8e4m3fnuz:f8e4m3b11fnuz f8e5m2:- f8e5m2fnuz:f8e4m3b11fnuz bf16:- f16:-"
    ),
    "float8_e4m3fn": "f8e4m3fnuz:f8e4m3fn f8e5m2:- f8e5m2fnuz:f8e4m3fn bf16:- f16:-",
    "float8_e4m3fnuz": "f8e5m2:- f8e5m2fnuz:f8e4m3fnuz bf16:- f16:-",
    "float8_e5m2": "f8e5m2fnuz:- bf16:- f16:f32",
    "float8_e5m2fnuz": "bf16:- f16:-",
    "bfloat16": "f16:-",
}

# np.result_type of an ml_dtypes type and a Python bool, int, float or complex value, whatever
# the value (NEP 50 does not reach these legacy dtypes: ``np.result_type(bfloat16, 1.0)`` is
# float64, ``(int4, 1)`` int8, ``(float8_e5m2, 1.0)`` float32).
_ML_WITH_PYTHON_MEASURED: dict[str, str] = {
    "uint1": "b:u1 i:u8 f:f16 c:c64",
    "int1": "b:i1 i:i8 f:f16 c:c64",
    "uint2": "b:u2 i:u8 f:f16 c:c64",
    "int2": "b:i2 i:i8 f:f16 c:c64",
    "uint4": "b:u4 i:u8 f:f16 c:c64",
    "int4": "b:i4 i:i8 f:f16 c:c64",
    "float4_e2m1fn": "b:f4e2m1fn i:f4e2m1fn f:f64 c:c64",
    "float6_e2m3fn": "b:f6e2m3fn i:f6e2m3fn f:f64 c:c64",
    "float6_e3m2fn": "b:f6e3m2fn i:f6e3m2fn f:f64 c:c64",
    "float8_e3m4": "b:f8e3m4 i:f8e3m4 f:f64 c:c64",
    "float8_e4m3": "b:f8e4m3 i:f8e4m3 f:f64 c:c64",
    "float8_e8m0fnu": "b:f8e8m0fnu i:f8e8m0fnu f:f64 c:c64",
    "float8_e4m3b11fnuz": "b:f8e4m3b11fnuz i:f8e4m3b11fnuz f:f64 c:c64",
    "float8_e4m3fn": "b:f8e4m3fn i:f8e4m3fn f:f64 c:c64",
    "float8_e4m3fnuz": "b:f8e4m3fnuz i:f8e4m3fnuz f:f64 c:c64",
    "float8_e5m2": "b:f8e5m2 i:f8e5m2 f:f32 c:c64",
    "float8_e5m2fnuz": "b:f8e5m2fnuz i:f8e5m2fnuz f:f64 c:c64",
    "bfloat16": "b:bf16 i:bf16 f:f64 c:c64",
}
_NO_COMMON_DTYPE = "-"


def _pairs(table: dict[str, str]) -> dict[tuple[str, str], str]:
    """The measured pairs, both ways round, in full names."""
    pairs = {}
    for first, cells in table.items():
        for cell in cells.split():
            other, result = (_BY_SHORT.get(part, part) for part in cell.split(":"))
            pairs[first, other] = pairs[other, first] = result
    return pairs


ML_PAIRS = _pairs(_ML_PAIRS_MEASURED)
_PYTHON_KINDS = {"b": "bool", "i": "int64", "f": "float64", "c": "complex128"}
# Keyed by the ml_dtypes type and the dtype the Python value stands for (int64 for an int).
ML_WITH_PYTHON = {
    (ml, _PYTHON_KINDS[kind]): _BY_SHORT[result]
    for ml, cells in _ML_WITH_PYTHON_MEASURED.items()
    for kind, result in (cell.split(":") for cell in cells.split())
}


def _shipped_result_type(*operands: Operand) -> Result:
    """A ufunc of ``operands`` as NumPy 2.4.6 with ml_dtypes 0.6.0 resolves it (see ``NumpySystem.result_type``)."""
    nodes = [op.node for op in operands]
    strong = [node for node in nodes if node not in WEAK_NODE_KIND]
    if any(node not in NUMPY_NATIVE for node in strong):
        # The legacy resolver tries each ml_dtypes operand's own loop first, in operand order.
        own_loops = dict.fromkeys(node for node in strong if node not in NUMPY_NATIVE)
        return Promoted(_first_loop(nodes, (*own_loops, *LOOPS)))
    return Promoted(_nep50(nodes, SAFE_CASTS, LOOPS))


def _nep50(nodes: list[str], safe_casts: Mapping[str, frozenset[str]], loops: tuple[str, ...]) -> str:
    """NEP 50 on NumPy's own dtypes: the strong operands pick the first loop they all cast to
    safely, then each Python scalar of a higher kind lifts it."""

    def first_loop(dtypes: list[str]) -> str:
        return next(loop for loop in loops if all(loop in safe_casts[dtype] for dtype in dtypes))

    dtype = first_loop([node for node in nodes if node not in WEAK_NODE_KIND])
    for weak in dict.fromkeys(node for node in nodes if node in WEAK_NODE_KIND):
        stand_in = _WEAK_STAND_INS[weak].get(DTYPES[dtype].kind)
        if stand_in:
            dtype = first_loop([dtype, stand_in])
    return dtype


def _shipped_true_divide_type(*operands: Operand) -> Result:
    """``a / b`` as NumPy 2.4.6 with ml_dtypes 0.6.0 resolves it: true_divide has inexact loops
    only, none of them ml_dtypes'; with a narrow int (int4) the legacy resolver takes the first
    every operand casts or fits to (``int4 / 2`` and ``int4 / np.int8(2)`` are float16,
    ``int4 / np.int16(2)`` float32).  Otherwise NumPy's own integers promote, then divide in
    float64 (the caller's step)."""
    nodes = [op.node for op in operands]
    # An ml_dtypes float brings its own true_divide loop, which the resolver tries first.
    if any(node in INTN for node in nodes) and not any(node in CUSTOM_FLOATS for node in nodes):
        return Promoted(_first_loop(nodes, _TRUE_DIVIDE_LOOPS))
    return _shipped_result_type(*operands)


def _shipped_promote_types(a: str, b: str) -> str | Refused:
    """``np.promote_types(a, b)`` with ml_dtypes 0.6.0: where exactly one of the two casts safely
    to the other, that one (measured: all 372 such pairs); where both or neither do, the measured
    pair (one of them, a third dtype, or Refused: DTypePromotionError)."""
    if a == b:
        return a
    if a in NUMPY_NATIVE and b in NUMPY_NATIVE:
        return _first_loop([a, b])
    a_to_b, b_to_a = b in SAFE_CASTS[a], a in SAFE_CASTS[b]
    if a_to_b != b_to_a:
        return b if a_to_b else a
    measured = ML_PAIRS[a, b]
    if measured == _NO_COMMON_DTYPE:
        return Refused(Reason.NO_PATH, f"no common DType exists for {a} and {b}", (a, b))
    return measured


def shipped_facts() -> NumpyFacts:
    """The facts measured on NumPy 2.4.6 with ml_dtypes 0.6.0, tabulated from the data above."""
    dtypes = [name for name in DTYPES if name in SAFE_CASTS]
    operand_pairs = [(a, b) for a, b in itertools.product([*dtypes, *WEAK_NODE_KIND], repeat=2)
                     if a in SAFE_CASTS or b in SAFE_CASTS]  # fmt: skip

    def cell(result: Result | str) -> str:
        if isinstance(result, Refused):
            return NO_RESULT
        return result if isinstance(result, str) else result.dtype

    return NumpyFacts(
        "2.4.6", "0.6.0", SAFE_CASTS, LOOPS,
        {(a, b): cell(_shipped_result_type(_table_operand(a), _table_operand(b))) for a, b in operand_pairs},
        {(a, b): _divided(cell(_shipped_true_divide_type(_table_operand(a), _table_operand(b))))
         for a, b in operand_pairs},
        {(a, b): cell(_shipped_promote_types(a, b)) for a, b in itertools.product(dtypes, repeat=2)},
        ML_WITH_PYTHON, False, {}, {"round": "float16", "conj": "int8", "conjugate": "int8"}, SHIPPED,
    )  # fmt: skip


def _divided(promoted: str) -> str:
    """The dtype NumPy's own integers (and bools) divide in, once promoted: float64."""
    return "float64" if promoted in NUMPY_NATIVE and DTYPES[promoted].kind in "biu" else promoted


class NumpySystem(PromotionSystem):
    name = "numpy"
    description = "NumPy 2 (NEP 50) with ml_dtypes: the dtype of an operator or ufunc on arrays and scalars"
    lattice = None

    def __init__(self, facts: NumpyFacts | None = None):
        """``facts``: the installed NumPy's and ml_dtypes' (cached) where not given."""
        self.facts = facts if facts is not None else installed_facts(shipped_facts)

    def result_type(self, *operands: Operand) -> Result:
        """The dtype of a NumPy ufunc (``a + b``, ``np.add(a, b)``) on ``operands``.

        A weak operand is a Python scalar *value* (``Operand('float64', weak=True)`` is ``1.0``); NumPy
        scalars, 0-d arrays and Python bools are strong.  Only a result of Python scalars alone is weak:
        Python computes it.  On NumPy's own dtypes this is ``np.result_type`` of the same values.

        The operands are combined at once, not pairwise: a chain ``a + b + c`` is two operations, and
        the caller evaluates it pair by pair, which is where NumPy's order dependence shows:
        ``(int8 + uint8) + float16`` is float32, ``int8 + (uint8 + float16)`` is float16.

        With an ml_dtypes operand the result can depend on the operands' order (with ml_dtypes 0.6,
        ``uint1 + float4_e2m1fn`` is uint1, the reverse float4_e2m1fn); there ``np.result_type``
        may disagree with the operators, and is not what this models.  Three operands or more with
        one are combined pairwise, in order.

        Not modelled, as it depends on the value: a Python int out of range of the result's dtype
        raises ``OverflowError: Python integer 1000 out of bounds for int8``; the engine checks literals.
        """
        if not operands:
            raise ValueError("at least one operand is required")
        unsupported = tuple(op.dtype for op in operands if op.dtype not in self.facts.safe_casts)
        if unsupported:
            return Refused(Reason.UNSUPPORTED, f"{', '.join(unsupported)}: not a NumPy dtype", unsupported)
        nodes = [op.node for op in operands]
        strong = [node for node in nodes if node not in WEAK_NODE_KIND]
        if not strong:
            highest = max(nodes, key=list(WEAK_NODE_KIND).index)
            return Promoted(DEFAULT_DTYPE_X64[WEAK_NODE_KIND[highest]], weak=True)
        if len(nodes) == 1:
            return Promoted(nodes[0])
        if len(nodes) > 2 and all(node in NUMPY_NATIVE for node in strong):
            return Promoted(_nep50(nodes, self.facts.safe_casts, self.facts.loops))
        return self._pairwise(self.facts.add, nodes, "add")

    def true_divide_type(self, *operands: Operand) -> Result:
        """``a / b`` (as measured; float64 for NumPy's own integers); more operands as ``result_type``."""
        if len(operands) != 2 or any(op.dtype not in self.facts.safe_casts for op in operands):
            return self.result_type(*operands)
        if all(op.node in WEAK_NODE_KIND for op in operands):
            return self.result_type(*operands)
        return self._pairwise(self.facts.true_divide, [op.node for op in operands], "true_divide")

    def _pairwise(self, table: Mapping[tuple[str, str], str], nodes: list[str], ufunc: str) -> Result:
        result = nodes[0]
        for node in nodes[1:]:
            cell = table[result, node]
            if cell == NO_RESULT:
                return Refused(Reason.NO_PATH, f"ufunc {ufunc!r} has no loop for {result} and {node}", (result, node))
            result = cell
        return Promoted(result)

    def promote_types(self, a: str, b: str) -> str | Refused | None:
        """``np.promote_types(a, b)``, which ``np.result_type`` of two dtypes answers too.  On
        NumPy's own dtypes it is what the ufuncs give; with an ml_dtypes type NumPy asks ml_dtypes'
        own table, which can pick one of the two, a third dtype, or none (Refused:
        DTypePromotionError).  None for a dtype it does not know."""
        cell = self.facts.promote_types.get((a, b))
        if cell == NO_RESULT:
            return Refused(Reason.NO_PATH, f"no common DType exists for {a} and {b}", (a, b))
        return cell

    def ml_result_type_with_python(self, dtype: str, python: str) -> str | None:
        """``np.result_type`` of an ml_dtypes type and a Python value (``python``: int64 for an
        int, float64 for a float, ...): measured with one value of each kind; None for NumPy's
        own dtypes, and where NumPy raises."""
        cell = self.facts.with_python.get((dtype, python))
        return None if cell == NO_RESULT else cell

    def table_nodes(self) -> list[str]:
        return [*self.facts.dtypes, *WEAK_NODE_KIND]

    def table_cell(self, a: str, b: str) -> str:
        """``a + b`` with ``a`` and ``b`` arrays of those dtypes or Python scalars (the weak nodes)."""
        result = self.result_type(_table_operand(a), _table_operand(b))
        if isinstance(result, Refused):
            return "-"
        return WEAK_NODES[DTYPES[result.dtype].kind] if result.weak else result.dtype


def _table_operand(node: str) -> Operand:
    if node in WEAK_NODE_KIND:
        return Operand(DEFAULT_DTYPE_X64[WEAK_NODE_KIND[node]], weak=True)
    return Operand(node)

"""NumPy 1.x's promotion: value-based casting, which NEP 50 replaced in NumPy 2.

In NumPy 1 a *scalar* (a Python scalar, a NumPy scalar or a 0-d array) beside an array of its
kind category or a higher one (bool < integers < inexact: floats and complex share one) counts
as the smallest dtype that holds its *value* (``np.min_scalar_type``): ``int8_array + 200`` is
int16, ``float32_array + np.float64(1)`` float32.  Scalars among scalars, or of a higher
category than every array, count as their own dtype, a Python int as int64 and a Python float
as float64: ``np.float32(3) + 3.0`` is float64, ``np.uint8(1) + 300`` int64.

This is the legacy path of ``PyArray_ResultType`` (``should_use_min_scalar``,
``min_scalar_type_num`` and ``promote_types`` with "small unsigned" values in NumPy 1.26's
``convert_datatype.c``), which the operators and ufuncs use.  It is checked case by case against
NumPy 1.26.4 by ``tests/oracle/test_numpy1_system.py`` (tables measured by
``tests/oracle/numpy1_probe.py``).  Only NumPy's own dtypes: ml_dtypes is not modelled here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from promolint.core.dtypes import DEFAULT_DTYPE_X64, DTYPES, NUMPY_NATIVE, WEAK_NODE_KIND, WEAK_NODES
from promolint.systems.base import Operand, Promoted, PromotionSystem, Reason, Refused, Result
from promolint.systems.numpy import LOOPS, SAFE_CASTS

Number = bool | int | float | complex

# ``dtype_kind_to_simplified_ordering``: floats and complex numbers are one category.
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 2}
# The Python int NumPy 1 converts to an int64 array, beyond that a uint64 one, beyond that an
# object array (not modelled).
_INT64 = (-(2**63), 2**63 - 1)
_UINT64_MAX = 2**64 - 1
_FLOAT16_BELOW = 65000.0  # min_scalar_type's bounds, as NumPy 1 writes them
_FLOAT32_BELOW = 3.4e38
# A value that stands for "a Python scalar" where the table needs one: small enough for every
# dtype of its kind.
_REPRESENTATIVE: dict[str, Number] = {"int64": 1, "float64": 1.0, "complex128": 1j, "bool": True}


@dataclass(frozen=True)
class Input:
    """One operand as NumPy 1 sees it: an array, or a scalar (``scalar``) with its value.

    A Python scalar (``python``) has the dtype NumPy 1 converts it to: bool, int64 (uint64 above
    int64's range), float64 or complex128.  ``value`` is needed wherever value-based casting
    applies; ``None`` there raises ValueError (the caller decides which values to ask about).
    """

    dtype: str
    scalar: bool = False
    value: Number | None = None
    python: bool = False


def python_input(value: Number) -> Input | None:
    """The Python scalar ``value`` as NumPy 1 converts it; None for an int beyond uint64 (an
    object array)."""
    if type(value) is int and not _INT64[0] <= value <= _UINT64_MAX:
        return None
    dtype = "uint64" if type(value) is int and value > _INT64[1] else DEFAULT_DTYPE_X64[_KIND_OF_TYPE[type(value)]]
    return Input(dtype, scalar=True, value=value, python=True)


_KIND_OF_TYPE = {bool: "b", int: "i", float: "f", complex: "c"}


def promote_types(a: str, b: str) -> str:
    """``np.promote_types`` of two of NumPy's own dtypes (the same in NumPy 1 and 2): the first
    ufunc loop both cast to safely."""
    return next(loop for loop in LOOPS if loop in SAFE_CASTS[a] and loop in SAFE_CASTS[b])


def min_scalar_type(dtype: str, value: Number) -> tuple[str, bool]:
    """``np.min_scalar_type`` of a scalar of ``dtype`` holding ``value``, and whether it is a
    "small unsigned" one (a non-negative int that also fits the signed type of its size, which
    then promotes as that signed type: ``int8_array + 1`` stays int8)."""
    kind = DTYPES[dtype].kind
    if kind == "b":
        return "bool", False
    if kind in "iu":
        number = int(value)
        if number >= 0:
            for bits in (8, 16, 32, 64):
                if number < 2**bits:
                    return f"uint{bits}", number < 2 ** (bits - 1)
            return dtype, False
        for bits in (8, 16, 32, 64):
            if number >= -(2 ** (bits - 1)):
                return f"int{bits}", False
        return dtype, False
    if kind == "f":
        number = float(value)
        if dtype == "float16" or -_FLOAT16_BELOW < number < _FLOAT16_BELOW or not math.isfinite(number):
            return "float16", False
        if dtype == "float64" and -_FLOAT32_BELOW < number < _FLOAT32_BELOW:
            return "float32", False
        return dtype, False
    number = complex(value)
    if dtype == "complex128" and all(-_FLOAT32_BELOW < part < _FLOAT32_BELOW for part in (number.real, number.imag)):
        return "complex64", False
    return dtype, False


def _promote_small(a: str, small_a: bool, b: str, small_b: bool) -> str:
    """NumPy 1's ``promote_types`` with small unsigned values: beside a signed int, a float or a
    complex, a small unsigned type counts as the signed type of its size."""
    for small, unsigned, other in ((small_a, a, b), (small_b, b, a)):
        if small:
            if DTYPES[other].kind not in "bu":
                return promote_types(unsigned.replace("uint", "int"), other)
            return promote_types(a, b)
    return promote_types(a, b)


def uses_values(inputs: Sequence[Input]) -> bool:
    """Whether NumPy 1 casts the scalars among ``inputs`` by value (``should_use_min_scalar``):
    there are arrays, and no scalar is of a higher category than every array."""
    arrays = [_CATEGORY[DTYPES[i.dtype].kind] for i in inputs if not i.scalar]
    scalars = [_CATEGORY[DTYPES[i.dtype].kind] for i in inputs if i.scalar]
    return bool(arrays) and bool(scalars) and max(arrays) >= max(scalars)


def resolve(inputs: Sequence[Input]) -> Result:
    """The dtype of a NumPy 1 operator or ufunc on ``inputs`` (before a function's own loops:
    true division of integers is float64 in both NumPy 1 and 2).  Python scalars alone give
    a weak result: Python computes it."""
    if not inputs:
        raise ValueError("at least one operand is required")
    unsupported = tuple(i.dtype for i in inputs if i.dtype not in NUMPY_NATIVE)
    if unsupported:
        return Refused(Reason.UNSUPPORTED, f"{', '.join(unsupported)}: not a dtype of NumPy 1", unsupported)
    if all(i.python for i in inputs):
        kind = max((DTYPES[i.dtype].kind for i in inputs), key="biufc".index)
        return Promoted(DEFAULT_DTYPE_X64[kind], weak=kind != "b")
    by_value = uses_values(inputs)
    result, small = "", False
    for one in inputs:
        dtype, one_small = one.dtype, False
        if by_value and one.scalar:
            if one.value is None:
                raise ValueError(f"NumPy 1 casts this {one.dtype} scalar by its value, which is unknown")
            dtype, one_small = min_scalar_type(one.dtype, one.value)
        if not result:
            result, small = dtype, one_small
        else:
            result, small = _promote_small(dtype, one_small, result, small), one_small and small
    return Promoted(result)


class Numpy1System(PromotionSystem):
    name = "numpy1"
    description = ("NumPy 1.x value-based casting: a scalar beside arrays counts as the smallest dtype holding "
                   "its value; in the table a Python scalar is a small value (1, 1.0, 1j)")
    lattice = None

    def result_type(self, *operands: Operand) -> Result:
        """``operands`` as NumPy 1 operands: a weak one is a Python scalar (of its ``value``, a
        small one when none is given), a strong one with a ``value`` a NumPy scalar, one
        without an array."""
        if not operands:
            raise ValueError("at least one operand is required")
        inputs = []
        for operand in operands:
            if operand.weak:
                value = operand.value if operand.value is not None else _REPRESENTATIVE[operand.dtype]
                one = python_input(value)
                if one is None:
                    return Refused(Reason.UNSUPPORTED, f"Python int {value} becomes an object array in NumPy 1")
            else:
                one = Input(operand.dtype, scalar=operand.value is not None, value=operand.value)
            inputs.append(one)
        return resolve(inputs)

    def table_nodes(self) -> list[str]:
        return [*(name for name in DTYPES if name in NUMPY_NATIVE), *WEAK_NODE_KIND]

    def table_cell(self, a: str, b: str) -> str:
        """``a + b`` for arrays of those dtypes, or small Python scalars (the weak nodes)."""
        result = self.result_type(Operand.parse(a), Operand.parse(b))
        if isinstance(result, Refused):
            return "-"
        return WEAK_NODES[DTYPES[result.dtype].kind] if result.weak else result.dtype

"""The operands an operation promotes together, as the library that computes it sees them: what
the rules about integer signedness, integer-to-float and mixed-precision promotion weigh."""

from __future__ import annotations

from dataclasses import dataclass

from promolint.core.dtypes import DTYPES, narrow_x32
from promolint.engine.model import Operation, OperationKind, is_symbolic, result_library
from promolint.engine.values import Array, Library, Unknown

# Catalog rules whose array parameters are promoted together to one dtype the result keeps
# (``inexact`` converts each argument to the float result directly: no integer promotion).
PROMOTING_RULES = frozenset({"promote", "where", "concatenate", "compare", "contract", "einsum", "multi_dot"})


@dataclass(frozen=True)
class Promoted:
    """The operands, each with the dtypes and strength the computing library gives it (JAX
    narrows NumPy values with x64 off and holds them strong), and that library."""

    operands: tuple[Array, ...]
    library: Library  # JAX, or NUMPY_ARRAY for NumPy (scalar or array)

    def strong(self) -> list[Array]:
        return [v for v in self.operands if v.weak is False]

    def kinds(self) -> set[str]:
        return {DTYPES[d].kind for v in self.operands for d in v.dtypes}


def promoted(operation: Operation) -> Promoted | None:
    """The operands ``operation`` promotes together, or None when it does not promote any (a
    unary operator, a reduction, a conversion, an unknown operand)."""
    if operation.kind in (OperationKind.BINOP, OperationKind.AUGASSIGN, OperationKind.COMPARE):
        values = operation.operands
    elif (operation.kind == OperationKind.CALL and operation.call is not None
          and operation.call.fn.semantics in PROMOTING_RULES):
        if "preferred_element_type" in operation.call.bound:
            return None  # the result's dtype is asked for, not promoted
        if any(is_symbolic(v) or isinstance(v, Unknown) for v in operation.call.array_arguments()):
            return None  # an operand of unknown dtype: what the others promote to says nothing
        values = tuple(operation.call.arrays())
    else:
        return None
    if len(values) < 2 or not all(isinstance(v, Array) and v.dtypes for v in values):
        return None
    if operation.kind == OperationKind.CALL:
        library = Library.JAX if operation.call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    else:
        library = result_library(values)
    if library is Library.PYTHON:
        return None
    if library is Library.JAX:
        values = tuple(_as_jax(v, operation.ctx.x64) for v in values)
    else:
        values = tuple(v if v.library is Library.PYTHON else Array(v.dtypes, v.library, False, ndim=v.ndim)
                       for v in values)  # fmt: skip
    return Promoted(values, Library.JAX if library is Library.JAX else Library.NUMPY_ARRAY)


def _as_jax(value: Array, x64: bool) -> Array:
    if value.library is Library.JAX or value.library is Library.PYTHON:
        return value
    dtypes = value.dtypes if x64 else frozenset(narrow_x32(d) for d in value.dtypes)
    return Array(dtypes, Library.JAX, False, value.literal, ndim=value.rank)

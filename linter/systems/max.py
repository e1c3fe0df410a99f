"""Modular MAX's promotion (``max.graph.type_promotion``): a lattice without weak types.

Built from the prose of MAX's documentation, not from its printed table, which contradicts the
prose in four cells (``lattice check tests/data/max-table.csv`` lists them):

* "We mostly borrow semantics from JAX": bool at the bottom, signed and unsigned integers as in
  JAX, and where JAX puts the weak float ``f*`` (above int64 and uint64) the lowest float.
* ``index`` and ``address`` "behave as uint64" and "we never promote other types to them": they
  sit directly below uint64 with nothing below them.
* "bfloat16 and tensor_float_32 are placed above their higher-precision counterparts": float16
  promotes to bfloat16 (which promotes to float32), float32 to tensor_float32 (to float64).

``index``, ``address`` and ``tensor_float32`` are MAX's own dtypes, not NumPy's, so they stay
local to this module: an operand's dtype is a MAX name here.
"""

from __future__ import annotations

from promolint.systems.lattice import Lattice
from promolint.systems.base import Operand, Promoted, PromotionSystem, Reason, Refused, Result

# Each dtype → the dtypes immediately above it, in the order of MAX's printed table.
EDGES: dict[str, list[str]] = {
    "bool": ["int8", "uint8"],
    "int8": ["int16"],
    "int16": ["int32"],
    "int32": ["int64"],
    "int64": ["float16"],
    "uint8": ["uint16", "int16"],
    "uint16": ["uint32", "int32"],
    "uint32": ["uint64", "int64"],
    "uint64": ["float16"],
    "index": ["uint64"],
    "address": ["uint64"],
    "float16": ["bfloat16"],
    "bfloat16": ["float32"],
    "float32": ["tensor_float32"],
    "tensor_float32": ["float64"],
    "float64": [],
}
LATTICE = Lattice(EDGES)


class MaxSystem(PromotionSystem):
    name = "max"
    description = "Modular MAX graph promotion (implicit_cast_type), from its documented rules"
    lattice = LATTICE

    def result_type(self, *operands: Operand) -> Result:
        """``implicit_cast_type`` folded over ``operands``; every pair of MAX dtypes has a join."""
        if not operands:
            raise ValueError("at least one dtype is required")
        foreign = tuple(dict.fromkeys(op.dtype for op in operands if op.dtype not in EDGES))
        if foreign:
            return Refused(Reason.UNSUPPORTED, f"{', '.join(foreign)}: not a MAX dtype", foreign)
        if any(op.weak for op in operands):
            # MAX has no weak types: a graph constant is created with an explicit dtype.
            return Refused(
                Reason.UNSUPPORTED,
                "MAX promotes dtypes only; give the Python scalar a dtype, e.g. g.scalar[DType.float32](1.0)",
                tuple(op.dtype for op in operands if op.weak),
            )
        return Promoted(LATTICE.join(*dict.fromkeys(op.dtype for op in operands)))  # type: ignore[arg-type]

    def table_nodes(self) -> list[str]:
        return list(EDGES)

    def table_cell(self, a: str, b: str) -> str:
        return LATTICE.join(a, b)  # type: ignore[return-value]  # float64 is above all: never NoJoin

"""The Array API standard's promotion: only what it requires, as array-api-strict 2.6.1 implements it.

The standard's tables (within each kind; signed with unsigned up to 32 bits; real floats with
complex) happen to be the join of a small DAG, so the rules are that DAG.  Every pair it cannot
join is a promotion the standard leaves undefined.  Python scalars are weak nodes below the
arrays of the kinds they may join: ``int`` with any numeric array, ``float`` with floating
arrays (real or complex), ``complex`` with floating arrays too (a real array becomes complex,
as ``float32 * 1j`` is ``complex64`` in array-api-strict).  A Python ``bool`` is ``bool`` strong,
which joins only ``bool``.
"""

from __future__ import annotations

from promolint.core.dtypes import DEFAULT_DTYPE_X64, WEAK_NODE_KIND
from promolint.systems.lattice import Lattice, NoJoin
from promolint.systems.base import Operand, Promoted, PromotionSystem, Reason, Refused, Result

# Each node → the nodes immediately above it, in the order of the printed table.  uint64 has
# nothing above: uint64 ∨ int64 would need a wider integer, and mixing kinds (bool, integer,
# floating) is what the standard leaves undefined.
EDGES: dict[str, list[str]] = {
    "bool": [],
    "uint8": ["uint16", "int16"],
    "uint16": ["uint32", "int32"],
    "uint32": ["uint64", "int64"],
    "uint64": [],
    "int8": ["int16"],
    "int16": ["int32"],
    "int32": ["int64"],
    "int64": [],
    "float32": ["float64", "complex64"],
    "float64": ["complex128"],
    "complex64": ["complex128"],
    "complex128": [],
    "i*": ["uint8", "int8", "f*"],
    "f*": ["float32", "c*"],
    "c*": ["complex64"],
}
LATTICE = Lattice(EDGES)
STANDARD_DTYPES = tuple(n for n in EDGES if n not in WEAK_NODE_KIND)
_SPOKEN = {"i*": "Python int", "f*": "Python float", "c*": "Python complex"}


class ArrayApiSystem(PromotionSystem):
    name = "array-api"
    description = "the Array API standard (2025.12): only the promotions it requires"
    lattice = LATTICE

    def result_type(self, *operands: Operand) -> Result:
        if not operands:
            raise ValueError("at least one array or dtype is required")
        foreign = tuple(dict.fromkeys(op.dtype for op in operands if op.dtype not in STANDARD_DTYPES))
        if foreign:
            return Refused(
                Reason.UNSUPPORTED,
                f"{', '.join(foreign)}: not in the Array API standard",
                foreign,
            )
        nodes = tuple(dict.fromkeys(op.node for op in operands))
        joined = LATTICE.join(*nodes)
        if isinstance(joined, NoJoin):
            listed = " and ".join(_SPOKEN.get(n, n) for n in nodes)
            return Refused(
                Reason.UNDEFINED,
                f"the Array API standard leaves the promotion of {listed} undefined; cast explicitly",
                nodes,
            )
        if joined in WEAK_NODE_KIND:  # only Python scalars: the standard needs an array or dtype
            return Promoted(DEFAULT_DTYPE_X64[WEAK_NODE_KIND[joined]], weak=True)
        return Promoted(joined)

    def table_nodes(self) -> list[str]:
        return list(EDGES)

    def table_cell(self, a: str, b: str) -> str:
        joined = LATTICE.join(a, b)
        return "-" if isinstance(joined, NoJoin) else joined

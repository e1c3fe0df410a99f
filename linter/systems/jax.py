"""JAX's promotion: the lattice of ``jax/_src/dtypes.py`` and ``lattice_result_type``.

Modes: x64 on or off, standard or strict ``jax_numpy_dtype_promotion``, and
``jax_explicit_x64_dtypes`` (warn, error or allow).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from promolint.core.dtypes import (
    CUSTOM_FLOATS,
    DEFAULT_DTYPE_X32,
    DEFAULT_DTYPE_X64,
    DTYPES,
    FLOAT4,
    FLOAT6,
    FLOAT8,
    INTN,
    WEAK_NODE_KIND,
    narrow_x32,
)
from promolint.systems.lattice import Lattice, NoJoin
from promolint.systems.base import Operand, Origin, Promoted, PromotionSystem, Reason, Refused, Result

_SMALL_FLOATS = [n for n in DTYPES if n in FLOAT8 | FLOAT6 | FLOAT4]
_INTS = [n for n in DTYPES if DTYPES[n].kind in "ui"]
_FLOATS = [n for n in DTYPES if DTYPES[n].kind == "f"]
_COMPLEX = ["complex64", "complex128"]
# JAX's own order of ``_jax_types`` followed by the weak nodes: the axes of its table.
NODE_ORDER = ["bool", *[n for n in _INTS if n.startswith("u")], *[n for n in _INTS if n.startswith("i")], *_FLOATS,
              *_COMPLEX, "i*", "f*", "c*"]  # fmt: skip


def standard_edges(x64: bool) -> dict[str, list[str]]:
    return {
        "bool": ["i*"],
        "i*": ["uint8", "uint2", "uint4", "int8", "int2", "int4", "int1", "uint1"],
        "uint8": ["int16", "uint16"],
        "uint16": ["int32", "uint32"],
        # The one edge x64 changes: without it uint32 ∨ int32 would form an int64.
        "uint32": ["int64", "uint64"] if x64 else ["int32", "uint64"],
        "uint64": ["f*"],
        "int8": ["int16"],
        "int16": ["int32"],
        "int32": ["int64"],
        "int64": ["f*"],
        **{n: [] for n in ("uint1", "uint2", "uint4", "int1", "int2", "int4")},
        "f*": [*_SMALL_FLOATS, "bfloat16", "float16", "c*"],
        **{n: [] for n in _SMALL_FLOATS},
        "bfloat16": ["float32"],
        "float16": ["float32"],
        "float32": ["float64", "complex64"],
        "float64": ["complex128"],
        "c*": ["complex64"],
        "complex64": ["complex128"],
        "complex128": [],
    }


def strict_edges() -> dict[str, list[str]]:
    # Only weak-to-strong edges of the same or a higher kind; concrete dtypes join only themselves.
    return {
        "i*": ["f*", *_INTS],
        "f*": ["c*", *_FLOATS],
        "c*": list(_COMPLEX),
        **{n: [] for n in DTYPES},
    }


STANDARD_X64 = Lattice(standard_edges(x64=True))
STANDARD_X32 = Lattice(standard_edges(x64=False))
STRICT = Lattice(strict_edges())


class ExplicitX64(enum.Enum):
    """``jax_explicit_x64_dtypes``: what an explicit 64-bit dtype does with x64 off."""

    WARN = "warn"
    ERROR = "error"
    ALLOW = "allow"


def _node_repr(node: str) -> str:
    # JAX prints Python-type nodes as the type itself.
    return f"<class '{ {'i*': 'int', 'f*': 'float', 'c*': 'complex'}[node] }'>" if node in WEAK_NODE_KIND else node


_REASON_MESSAGES = {
    Reason.STRICT: " when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired output"
    " type, or set jax_numpy_dtype_promotion=standard.",
    **{
        reason: f". To avoid unintended promotion, {bits} floats do not support implicit promotion. If you'd like"
        " your inputs to be promoted to another type, you can do so explicitly using e.g. x.astype('float32')"
        for reason, bits in ((Reason.FLOAT8, "8-bit"), (Reason.FLOAT6, "6-bit"), (Reason.FLOAT4, "4-bit"))
    },
    Reason.INTN: ". To avoid unintended promotion, 1-bit, 2-bit and 4-bit integers do not support implicit"
    " promotion. If you'd like your inputs to be promoted to another type, you can do so explicitly using e.g."
    " x.astype('int32')",
    Reason.NO_PATH: ". Try explicitly casting inputs to the desired output type.",
}


@dataclass(frozen=True)
class JaxSystem(PromotionSystem):
    x64: bool = False
    strict: bool = False
    explicit_x64: ExplicitX64 = ExplicitX64.WARN

    @property
    def name(self) -> str:  # type: ignore[override]
        return "jax-strict" if self.strict else "jax"

    @property
    def description(self) -> str:  # type: ignore[override]
        mode = "strict" if self.strict else "standard"
        return f"JAX, x64 {'on' if self.x64 else 'off'}, {mode} promotion, explicit x64 {self.explicit_x64.value}"

    @property
    def lattice(self) -> Lattice:  # type: ignore[override]
        if self.strict:
            return STRICT
        return STANDARD_X64 if self.x64 else STANDARD_X32

    # --- canonicalization ------------------------------------------------------------------
    def canonical_dtype(self, operand: Operand) -> str:
        """The dtype JAX computes with: narrowed with x64 off, as ``dtypes.dtype`` does."""
        if self.x64 or operand.origin is Origin.ARRAY:
            return operand.dtype
        if operand.origin is Origin.DTYPE and self.explicit_x64 is ExplicitX64.ALLOW:
            return operand.dtype
        return narrow_x32(operand.dtype)

    def default_dtype(self, kind: str) -> str:
        return (DEFAULT_DTYPE_X64 if self.x64 else DEFAULT_DTYPE_X32)[kind]

    def _node_dtype(self, node: str) -> str:
        """``dtypes.dtype(node)``: a weak node becomes its kind's default dtype; a dtype counts as
        explicitly requested, so with x64 off a 64-bit join (of 64-bit arrays) narrows unless
        explicit x64 is 'allow'."""
        if node in WEAK_NODE_KIND:
            return self.default_dtype(WEAK_NODE_KIND[node])
        return self.canonical_dtype(Operand(node, origin=Origin.DTYPE))

    # --- promotion -------------------------------------------------------------------------
    def join(self, *nodes: str) -> str | Refused:
        """``_least_upper_bound``: the join on this mode's lattice, or JAX's refusal."""
        joined = self.lattice.join(*nodes)
        if not isinstance(joined, NoJoin):
            return joined
        reason = self.refusal_reason(nodes)
        listed = tuple(_node_repr(n) for n in nodes)
        message = f"Input dtypes {listed} have no available implicit dtype promotion path{_REASON_MESSAGES[reason]}"
        return Refused(reason, message, tuple(nodes))

    def refusal_reason(self, nodes) -> Reason:
        if self.strict:
            return Reason.STRICT
        for reason, family in ((Reason.FLOAT8, FLOAT8), (Reason.FLOAT6, FLOAT6), (Reason.FLOAT4, FLOAT4)):
            if any(n in family for n in nodes):
                return reason
        return Reason.INTN if any(n in INTN for n in nodes) else Reason.NO_PATH

    def promote_types(self, a: str, b: str) -> str | Refused:
        """``jnp.promote_types``: the raw lattice, no narrowing; weak nodes come out 64-bit."""
        joined = self.join(a, b)
        if isinstance(joined, Refused):
            return joined
        return DEFAULT_DTYPE_X64[WEAK_NODE_KIND[joined]] if joined in WEAK_NODE_KIND else joined

    def result_type(self, *operands: Operand) -> Result:
        """``jax.dtypes.result_type(..., return_weak_type_flag=True)``: the lattice result, a weak
        one given its kind's default dtype."""
        result = self.lattice_result_type(*operands)
        if isinstance(result, Promoted) and result.weak:
            kind = "f" if result.dtype in CUSTOM_FLOATS else DTYPES[result.dtype].kind
            return Promoted(self.default_dtype(kind), True)
        return result

    def lattice_result_type(self, *operands: Operand) -> Result:
        """``dtypes.lattice_result_type``: what jnp operators and functions promote to
        (``promote_dtypes``). A weak result keeps the dtype of its join: weak float32 and weak
        int64 arrays give weak float32 even with x64 on, where ``result_type`` says float64."""
        if not operands:
            raise ValueError("at least one array or dtype is required")
        canonical = [Operand(self.canonical_dtype(op), op.weak, op.origin) for op in operands]
        dtypes = {op.dtype for op in canonical}
        if len(canonical) == 1:
            dtype, weak = canonical[0].dtype, canonical[0].weak
        elif len(dtypes) == 1 and not all(op.weak for op in canonical):
            dtype, weak = canonical[0].dtype, False
        elif all(op.weak for op in canonical) and not self.strict:
            # JAX joins the strong counterparts and marks the result weak.
            joined = self.join(*sorted(dtypes, key=NODE_ORDER.index))
            if isinstance(joined, Refused):
                return joined
            dtype, weak = self._node_dtype(joined), True
        else:
            nodes = dict.fromkeys(op.node for op in canonical)
            joined = self.join(*nodes)
            if isinstance(joined, Refused):
                return joined
            dtype, weak = self._node_dtype(joined), joined in WEAK_NODE_KIND
        return Promoted(dtype, weak and dtype != "bool")

    # --- tables ----------------------------------------------------------------------------
    def table_nodes(self) -> list[str]:
        return list(NODE_ORDER)

    def table_cell(self, a: str, b: str) -> str:
        """As JAX's documentation prints it: ``_lattice_result_type`` of two dtypes or Python
        types, a weak result shown as its weak node."""
        result = self.result_type(_table_operand(a), _table_operand(b))
        if isinstance(result, Refused):
            return "-"
        if result.weak:
            return "i*" if DTYPES[result.dtype].kind in "iu" else f"{DTYPES[result.dtype].kind}*"
        return result.dtype


def _table_operand(node: str) -> Operand:
    if node in WEAK_NODE_KIND:
        return Operand(DEFAULT_DTYPE_X64[WEAK_NODE_KIND[node]], weak=True, origin=Origin.DTYPE)
    return Operand(node, origin=Origin.DTYPE)


# ``dtypes.to_inexact_dtype``: what true division, ``sin``, ``sqrt``, ``mean`` turn integers into.
# Ints up to 32 bits give float32 even with x64 on.
TO_INEXACT: dict[str, str] = {
    "bool": "float32",
    **{n: "float32" for n in ("uint4", "int4", "uint8", "int8", "uint16", "int16", "uint32", "int32")},
    "uint64": "float64",
    "int64": "float64",
}

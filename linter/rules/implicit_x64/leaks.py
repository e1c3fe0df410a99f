"""Where PRM001's 64 bits widen narrower data: a strong 64-bit value with a source meeting strong
narrower operands (or, at every narrower member, an operand of unknown dtype) with a 64-bit
result, or leaving a function whose array inputs were all narrower.  A ``Leak`` gathers every
place one source widens."""

from __future__ import annotations

from dataclasses import dataclass, field

from promolint.core.dtypes import DTYPES, is_64bit
from promolint.engine.model import Operation, OperationKind, Returned, Symbolic
from promolint.engine.values import Array, Items, Library, Refusal, Value, ValueSource
from promolint.rules.base import exact
from promolint.rules.shared.contract import NOT_INPUTS

# Calls whose result combines their array arguments by promotion: where two narrower arrays can
# make 64 bits together.  Reductions, indices and conversions of one array make 64-bit counts,
# sums and indices by design (``mask.sum()``, ``np.argmax``): those stay on the host.
_PROMOTING_CALLS = frozenset({"promote", "jax_power", "where", "concatenate", "scaled"})
# The narrower floats every array input is given alike where an operation depends on too many
# inputs to weigh each combination: "called with float32 arrays, does it compute float64?"
UNIFORM = ("float32", "bfloat16", "float16")


@dataclass(frozen=True)
class Widening:
    """An operation where 64 bits widen narrower data: the operand they widen (``index`` among
    the operation's operands, None when it is not one of them) to ``dtype``; ``every_member``:
    the operand has an unknown dtype and this holds at every narrower member of it."""

    operation: Operation
    narrow: Array
    index: int | None
    dtype: str
    every_member: bool = False


@dataclass
class Leak:
    source: ValueSource
    widens: list[Widening] = field(default_factory=list)
    returns: list[tuple[Returned, Array]] = field(default_factory=list)


def widening_at(operation: Operation, uses_jax: bool) -> tuple[ValueSource, Widening] | None:
    """Where a strong 64-bit value with a source meets strong narrower data and the result is
    64-bit: the source and the narrower operand."""
    if operation.kind not in (OperationKind.BINOP, OperationKind.AUGASSIGN, OperationKind.CALL):
        return None
    if operation.kind == OperationKind.CALL and (operation.call is None
                                                 or operation.call.fn.semantics not in _PROMOTING_CALLS):
        return None
    result = _sourced_64bit(operation.result)
    narrow = [v for v in _arrays(operation) if _narrower_data(v)] if result is not None else []
    if not narrow:  # nothing known to widen: perhaps an operand of unknown dtype, at each member
        return _widening_at_every_member(operation) if uses_jax else None
    if result.source.handle is operation.node and len(narrow) < 2:
        return None  # made here from one narrower operand and a Python scalar: a kind change, not a leak
    if result.source.handle is operation.node and result.library is Library.JAX and _mixed_signedness(narrow):
        return None  # JAX's uint32 with a signed integer: PRM020 reports it, in both x64 modes
    if _integers_only(operation):
        return None  # integers widened by integers keep their values; where they meet floats, that is reported
    index = next((i for i, v in enumerate(operation.operands) if v is narrow[0]), None)
    return result.source, Widening(operation, narrow[0], index, result.dtype)


def _widening_at_every_member(operation: Operation) -> tuple[ValueSource, Widening] | None:
    """Where an operand of unknown dtype (a parameter, what is computed from one) meets a strong
    64-bit value with a source, and at every member where that operand is narrower data the
    result is 64-bit (``x / np.sqrt(n)`` under x64, whatever float32 or narrower ``x`` is): the
    source and the narrower operand at the first such member.  Members where it is not a
    narrower float (a float64 ``x``, a Python scalar) widen nothing and decide nothing; at least one
    must be a JAX array, the data the leak reaches (the caller asks only in modules that use JAX:
    a NumPy module's parameters hold NumPy data)."""
    if operation.members is None:
        return None
    sources = [i for i, v in enumerate(operation.operands) if _sourced_64bit(v) is not None]
    if not sources:
        return None
    instances = operation.members(UNIFORM)
    if not instances:
        return None
    data = _promoted_positions(operation) - _scalar_annotated(operation)
    first = None
    reaches_jax = False
    for operands, result in instances:
        narrow = [(i, v) for i, v in enumerate(operands) if i in data and i not in sources and _narrower_float(v)]
        if not narrow or isinstance(result, Refusal):
            continue
        if not (isinstance(result, Array) and result.exact and not result.weak and is_64bit(result.dtype)):
            return None
        if first is None or _example_rank(narrow[0][1]) < _example_rank(first.narrow):
            first = Widening(operation, narrow[0][1], narrow[0][0], result.dtype, every_member=True)
        reaches_jax = reaches_jax or any(v.library is Library.JAX for _, v in narrow)
    if first is None or not reaches_jax:
        return None
    return operation.operands[sources[0]].source, first


def returned_leaks(returned: Returned) -> list[Array]:
    """The 64-bit values with a source that a function returns while every array input it got
    was narrower data (and it got at least one)."""
    inputs = [value for name, value in returned.inputs if name not in NOT_INPUTS]
    arrays = [v for v in inputs if not (isinstance(v, Array) and v.library is Library.PYTHON)]
    if not arrays or not all(_narrower_data(v) for v in arrays):
        return []
    values = returned.value.items if isinstance(returned.value, Items) else (returned.value,)
    return [v for v in values if isinstance(v, Array) and v.exact and is_64bit(v.dtype) and v.source is not None
            and DTYPES[v.dtype].kind not in "iu"]  # an int64 index or count: exact, as for _integers_only


def _narrower_data(value: Value) -> bool:
    """A strong NumPy or JAX value of a known dtype narrower than 64 bits, not bool."""
    if not (isinstance(value, Array) and value.library is not Library.PYTHON and value.weak is False):
        return False
    return bool(value.dtypes) and all(not is_64bit(d) and DTYPES[d].kind != "b" for d in value.dtypes)


def _narrower_float(value: Value) -> bool:
    """Narrower data of a floating kind: what a leak into a value of unknown dtype costs (an
    integer that meets a 64-bit count is most often a Python int the annotation admits)."""
    return _narrower_data(value) and all(DTYPES[d].kind in "fc" for d in value.dtypes)


def _arrays(operation: Operation) -> list[Value]:
    if operation.kind == OperationKind.CALL and operation.call is not None:
        return list(operation.call.arrays())
    return list(operation.operands)


def _promoted_positions(operation: Operation) -> set[int]:
    """The operands that take part in the promotion: for a call, not those bound to a parameter
    outside its catalog entry's arrays (``jnp.where``'s condition decides no dtype)."""
    positions = set(range(len(operation.operands)))
    if operation.call is None:
        return positions
    call = operation.call
    promoted = {id(call.bound.get(p)) for p in call.fn.arrays}
    other = {id(v) for p, v in call.bound.items() if p not in call.fn.arrays}
    return {i for i in positions if id(operation.operands[i]) in promoted or id(operation.operands[i]) not in other}


def _scalar_annotated(operation: Operation) -> set[int]:
    """The operands computed only from parameters annotated with Python scalar types (``radius:
    float``) or given Python numbers as defaults: the rule takes the author at their word, and a
    Python float widens nothing (on the primer such a parameter held JAX data nowhere: jwave's
    circle geometry)."""
    return {i for i, v in enumerate(operation.symbolic_operands)
            if type(v) is Symbolic and v.variables and all(var.scalar_annotated for var in v.variables)}


def _sourced_64bit(value: Value) -> Array | None:
    """``value`` if it is a strong 64-bit value whose 64 bits have a source."""
    found = exact(value)
    return found if found is not None and found.source is not None and not found.weak and is_64bit(found.dtype) \
        else None  # fmt: skip


def _example_rank(value: Array) -> tuple[bool, bool]:
    """The member a message names: a JAX float32, the commonest narrower data, else any JAX."""
    return value.library is not Library.JAX, value.dtypes != {"float32"}


def _integers_only(operation: Operation) -> bool:
    """Every operand the promotion weighs is an integer (or bool) of a known dtype: an int64 count
    meeting int32 indices (``action + jnp.array((-1, 1))``, ``occupancy / occupancy.sum()`` under
    x64).  Their values are exact in 64 bits, and JAX puts every integer below the floats (int64
    with float32 is float32), so what they widen is no float data; on the primer every such
    finding was an index or a count (docs/primer.md)."""
    operands = [operation.operands[i] for i in _promoted_positions(operation)]
    return bool(operands) and all(
        isinstance(v, Array) and v.dtypes and all(DTYPES[d].kind in "biu" for d in v.dtypes) for v in operands)


def _mixed_signedness(values: list[Array]) -> bool:
    return {DTYPES[d].kind for v in values for d in v.dtypes} == {"u", "i"}


def leaves(value: Value) -> tuple[Value, ...]:
    return tuple(leaf for item in value.items for leaf in leaves(item)) if isinstance(value, Items) else (value,)


def library_of(value: Value) -> Library | None:
    return value.library if isinstance(value, Array) else None


def source_handle(value: Value) -> object:
    return value.source.handle if isinstance(value, Array) and value.source is not None else None

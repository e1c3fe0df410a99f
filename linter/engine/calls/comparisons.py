"""Comparison and predicate semantics: ``jnp.less(x, 1.5)`` is ``x < 1.5``; ``isnan``,
``logical_and`` and the other predicates give bools, weak in JAX where the operands are."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.core.dtypes import DTYPES
from promolint.engine import operations
from promolint.engine.calls.conversions import library_inputs
from promolint.engine.calls.promotion import promote
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Library, Refusal, Unknown, Value, array
from promolint.systems.base import Operand


def _bool(call: Call) -> Value:
    inputs = library_inputs(call)
    promoted = promote(call, inputs) if inputs else UNKNOWN
    if isinstance(promoted, Refusal):
        return promoted
    library = Library.JAX if call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    if library is Library.JAX and call.ctx.strict and len(inputs) > 1 and not (
            isinstance(promoted, Array) and promoted.dtypes):  # fmt: skip
        # jnp.logical_and promotes its operands: of unknown dtypes, strict mode may refuse them
        return Array(frozenset(), library, None)
    # JAX's elementwise predicates of weak values are weak (jnp.isnan(1.5)); the ones it builds
    # from constants or other operations are not (isneginf, isclose; isinf/isnan of integers).
    kinds = call.fn.weak_kinds if library is Library.JAX else ""
    dtypes = promoted.dtypes if isinstance(promoted, Array) else frozenset()
    # An operand that is not an array (jnp.isnan(obj.x)) takes part in the promotion unseen.
    complete = not _unseen(call)
    if not kinds or any(v.weak is False for v in inputs) or (
            complete and any(DTYPES[d].kind not in kinds for d in dtypes)):  # fmt: skip
        weak: bool | None = False
    elif complete and dtypes and all(v.weak is True for v in inputs):
        weak = True
    else:  # an operand of unknown dtype or weak flag, or one unseen
        weak = None
    return array("bool", library, weak)


def _unseen(call: Call) -> list[Value]:
    """The array arguments nothing is known of (dispatch lets these through to semantics whose
    result does not depend on them), not lists nor other values known to be something else."""
    return [call.bound[p] for p in call.fn.arrays if type(call.bound.get(p)) is Unknown]


def _compare(call: Call) -> Value:
    """``jnp.less(x, 1.5)`` is ``x < 1.5``: weak in JAX when the promoted operands are."""
    inputs, unseen = library_inputs(call), _unseen(call)
    if call.fn.library is Library.JAX and unseen and len(inputs) + len(unseen) == 2:
        # an operand nothing is known of (jnp.less(obj.x, 1.5)): a bool, strong where the other
        # operand is, as promotion makes it
        return array("bool", Library.JAX, False if any(v.weak is False for v in inputs) else None)
    if len(inputs) != 2:
        return UNKNOWN
    if call.fn.library is Library.JAX and not any(v.library is Library.JAX for v in inputs):
        # Python scalars only: jnp makes the first an array, keeping it weak.
        first = inputs[0]
        dtypes = frozenset(call.ctx.jax.canonical_dtype(Operand(d)) for d in first.dtypes)
        inputs = [replace(first, library=Library.JAX, dtypes=dtypes, literal=None), inputs[1]]
    if call.fn.library is not Library.JAX and all(v.library is Library.PYTHON for v in inputs):
        return array("bool", Library.NUMPY_ARRAY)  # np.less(1, 2) is np.True_; NumPy orders complex numbers
    return operations.compare(call.fn.operator, inputs[0], inputs[1], call.ctx)


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "bool": _bool,
    "compare": _compare,
}

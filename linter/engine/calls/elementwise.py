"""Elementwise rules and their relatives: the inputs promoted together (``add``, ``where``,
``concatenate``), promoted then made inexact (``sqrt``, ``arctan2``), kept (``reshape``, ``rint``,
``abs`` made real), or promoted with the Python scalar an activation computes with (``relu``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.dtypes import DTYPES, NUMPY_NATIVE
from promolint.engine import operations
from promolint.engine.calls.conversions import REAL_OF, as_dtype, as_numpy, default, library_inputs, requested
from promolint.engine.calls.promotion import promote
from promolint.engine.catalog import NUMPY_INT_TO_FLOAT64, RANK_KEEPING
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Items, Library, Refusal, Value, broadcast_rank, python_scalar


def _rule_promote(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    return promote(call, inputs)


def _rule_inexact(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    python = any(v.library is Library.PYTHON for v in inputs)  # np.copysign(100, bool) is float64
    extension_dtypes = any(d not in NUMPY_NATIVE for v in inputs for d in v.dtypes)  # ml_dtypes loops decide
    if call.fn.library is Library.NUMPY_ARRAY and call.short not in NUMPY_INT_TO_FLOAT64 and not (
            python or extension_dtypes):  # fmt: skip
        # NumPy's float functions run each integer array in the first float loop it casts to
        # safely: np.arctan2(uint8, int8) is float16, where promoting first would give float32.
        inputs = [replace(v, dtypes=frozenset(operations.NUMPY_TO_INEXACT.get(d, d) for d in v.dtypes))
                  for v in inputs]  # fmt: skip
    promoted = promote(call, inputs) if len(inputs) > 1 else promote(call, inputs[:1])
    if not isinstance(promoted, Array):
        return promoted
    if call.fn.default == "strong":
        promoted = replace(promoted, weak=False)
    elif call.fn.default == "weak-as-x1":
        first = inputs[0]
        promoted = replace(promoted, weak=False if first.library.is_numpy or "bool" in first.dtypes else first.weak)
    elif call.fn.default == "all-weak" or (call.fn.default == "all-weak-if-complex"
                                           and any(DTYPES[d].kind == "c" for d in promoted.dtypes)):  # fmt: skip
        weaks = {False if v.library.is_numpy else v.weak for v in inputs}
        promoted = replace(promoted, weak=False if False in weaks else None if None in weaks else promoted.weak)
    if call.fn.library is Library.JAX:
        if "bool" in promoted.dtypes:  # a weak bool made inexact is strong (jnp.sqrt(jnp.isnan(2.0)))
            promoted = replace(promoted, weak=False)
        return operations.to_inexact(promoted, Library.JAX)
    if call.short in NUMPY_INT_TO_FLOAT64:
        return replace(promoted, dtypes=frozenset(operations.NUMPY_TRUE_DIVIDE.get(d, d) for d in promoted.dtypes))
    return operations.to_inexact(promoted, Library.NUMPY_ARRAY)


def _rule_jax_power(call: Call) -> Value:
    inputs = library_inputs(call)
    return operations.jax_power(inputs[0], inputs[1], call.ctx) if len(inputs) == 2 else UNKNOWN


def _rule_same(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    if call.fn.library is Library.PYTHON:
        return inputs[0]
    value = promote(call, inputs[:1])
    if call.fn.shape == "array" and isinstance(value, Array):
        # reshape/ravel/... change the dimensions; transpose/flip/sort/... keep them.
        keeps = call.short in RANK_KEEPING
        value = replace(value, ndim=inputs[0].rank if keeps else 1 if call.short in ("ravel", "flatten") else None)
    return value


def _rule_abs(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    if call.fn.library is Library.PYTHON:  # the builtin: the operand's own __abs__
        value = operations.check_domain("abs(x)", inputs[0].library, inputs[0], "abs")
        value = operations.fallback_loops("absolute", inputs[0].library, value)
    else:
        value = promote(call, inputs[:1])
    if not isinstance(value, Array):
        return value
    if value.library is Library.PYTHON:
        literal = abs(value.literal) if value.literal is not None else None
        kinds = {"complex128": "float", "float64": "float", "int64": "int", "bool": "int"}
        return python_scalar(kinds[value.dtype], literal) if value.dtype in kinds else UNKNOWN
    return replace(value, dtypes=frozenset(REAL_OF.get(d, d) for d in value.dtypes), literal=None)


def _rule_scaled(call: Call) -> Value:
    """Activations computed with a Python scalar (``relu`` is ``maximum(x, 0)``, ``relu6``
    scales by a float, ``softplus`` is ``logaddexp(x, 0)``): the input promotes with it, and
    ``int-inexact`` then makes the result inexact (a bool becomes a weak float)."""
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    scalar = "int" if call.fn.default == "int-inexact" else call.fn.default
    promoted = promote(call, [inputs[0], python_scalar(scalar)])
    if call.fn.default == "int-inexact" and isinstance(promoted, Array):
        return operations.to_inexact(promoted, Library.JAX)
    return promoted


def _rule_float_default(call: Call) -> Value:
    """``jnp.rint`` of integers converts them to the default float (a strong one)."""
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    value = promote(call, inputs[:1])
    if not isinstance(value, Array) or not any(DTYPES[d].kind in "biu" for d in value.dtypes):
        return value
    floating = default("f", call.fn.library, call.ctx, "").dtype
    return replace(value, dtypes=frozenset(floating if DTYPES[d].kind in "biu" else d for d in value.dtypes), weak=False)


def _rule_float_only(call: Call) -> Value:
    """``jax.nn.sigmoid`` and friends go through ``lax.logistic``, which takes inexact dtypes only."""
    inputs = library_inputs(call)
    if not inputs or not inputs[0].dtypes:
        return UNKNOWN
    if all(DTYPES[d].kind in "biu" for d in inputs[0].dtypes):
        return Refusal("TypeError", f"logistic does not accept dtype {'|'.join(sorted(inputs[0].dtypes))}")
    return promote(call, inputs[:1])


def _rule_concatenate(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    sequence = next((call.bound[p] for p in call.fn.arrays if p in call.bound), None)
    if not isinstance(sequence, Items):
        return UNKNOWN
    leaves = [v for v in sequence.items if isinstance(v, Array)]
    if len(leaves) != len(sequence.items) or not leaves:
        return UNKNOWN
    if call.fn.library is not Library.JAX:
        leaves = [as_numpy(v) for v in leaves]
    promoted = promote(call, leaves)
    if isinstance(promoted, Array):
        library = Library.NUMPY_ARRAY if call.fn.library is Library.NUMPY_ARRAY else Library.JAX
        return Array(promoted.dtypes, library, promoted.weak if library is Library.JAX else False)
    return promoted


def _rule_where(call: Call) -> Value:
    inputs = library_inputs(call)
    if len(inputs) != 2:
        return UNKNOWN  # one-argument where gives index arrays
    value = promote(call, inputs)
    condition = call.bound.get("condition")
    if isinstance(value, Array) and isinstance(condition, Array):
        value = replace(value, ndim=broadcast_rank([condition, *inputs]))
    return value


RULES: dict[str, Callable[[Call], Value]] = {
    "promote": _rule_promote,
    "inexact": _rule_inexact,
    "jax_power": _rule_jax_power,
    "same": _rule_same,
    "abs": _rule_abs,
    "scaled": _rule_scaled,
    "float_default": _rule_float_default,
    "float_only": _rule_float_only,
    "concatenate": _rule_concatenate,
    "where": _rule_where,
}

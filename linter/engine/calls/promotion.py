"""A call's inputs promoted by its function's library, then run through the loops the function
has: the exception it raises for a dtype (``promolint.engine.domains``), NumPy's fallback loops
and ml_dtypes' limits.  Shared by the families of semantics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from promolint.core.dtypes import CUSTOM_FLOATS, INTN
from promolint.engine import operations
from promolint.engine.domains import DTYPE_CLASSES
from promolint.engine.calls.binding import display_name
from promolint.engine.catalog import CATALOG_REFUSALS, NUMPY_INT_TO_FLOAT64, NUMPY_METHOD_BOOL_RESULTS
from promolint.engine.records import Call
from promolint.engine.values import Array, Library, Refusal, Value, broadcast_rank


def promote(call: Call, inputs: Sequence[Array]) -> Value:
    """The inputs promoted by the function's library (NumPy results are strong; whether one is
    a scalar or an array is decided afterwards, from the function's shape)."""
    library = Library.JAX if call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    if library is Library.JAX and call.fn.domain_per_operand:
        refused = next((r for v in inputs for r in [check_domain(call, v)] if isinstance(r, Refusal)), None)
        if refused:
            return refused
    true_divide = library is Library.NUMPY_ARRAY and call.short in NUMPY_INT_TO_FLOAT64
    outcome = operations.collect(operations.promote(inputs, library, call.ctx, true_divide), library,
                                 ndim=broadcast_rank(inputs))  # fmt: skip
    if isinstance(outcome, Array) and library is not Library.JAX:
        # a ufunc converts a Python int to the promoted dtype: np.multiply(np.int8(1), 1000) raises
        # (float functions convert it to their float loop instead; np.clip has its own check)
        overflow = operations.literal_overflow(inputs, outcome, library, call.ctx, False)
        if call.short == "clip":
            overflow = _clip_overflow(call, outcome)
        # np.where converts its Python ints as the ufuncs do since NumPy 2.5 (before, it wrapped them)
        if overflow and (call.fn.semantics == "promote" or call.fn.semantics == "where"
                         and call.ctx.numpy.facts.where_checks_python_ints):  # fmt: skip
            return overflow
        outcome = replace(outcome, weak=False)
    elif isinstance(outcome, Array) and len(inputs) == 1 and outcome.dtypes == inputs[0].dtypes:
        # a JAX function of one array that keeps its dtype keeps its weak flag, a weak bool's too
        # (jnp.floor(jnp.isnan(2.0)), x.reshape(-1)), which promoting it alone would drop
        outcome = replace(outcome, weak=inputs[0].weak)
    return _fallback_loops(call, inputs, outcome)


def _clip_overflow(call: Call, outcome: Array) -> Refusal | None:
    """np.clip replaces a Python int bound beyond the dtype's range on its own side (a minimum
    below it, a maximum above it) and raises OverflowError for one beyond the other side
    (measured: np.clip(i8, 1000, 5) raises, np.clip(i8, 0, 1000) runs)."""
    bounds = operations.int_bounds(outcome.dtype or "")
    low, high = (call.bound.get(p) for p in (("min", "max") if "min" in call.fn.params else ("a_min", "a_max")))
    for value, beyond in ((low, lambda v: v > bounds[1]), (high, lambda v: v < bounds[0])):
        if bounds and isinstance(value, Array) and type(value.literal) is int and beyond(value.literal):
            return Refusal("OverflowError", f"Python integer {value.literal} out of bounds for {outcome.dtype}")
    return None


def _fallback_loops(call: Call, inputs: Sequence[Array], outcome: Value) -> Value:
    library = Library.JAX if call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    if call.fn.params[:1] == ("self",) or (library is not Library.JAX and call.short in NUMPY_METHOD_BOOL_RESULTS):
        # a method (ndarray.conjugate() of bools stays bool), or np.round, which calls a.round()
        return _method_loops(call, outcome)
    ufunc = call.fn.shape == "elementwise" or call.short == "matmul"
    outcome = operations.fallback_loops(call.short, library, check_domain(call, outcome), ufunc)
    if library is Library.JAX or not isinstance(outcome, Array):
        return outcome
    custom = [d for v in inputs for d in v.dtypes if d in CUSTOM_FLOATS or d in INTN]
    if custom and call.fn.numpy_result_type and len({d for v in inputs for d in v.dtypes}) > 1:
        # LIMITATION: np.result_type with ml_dtypes' types follows ml_dtypes' own table, which the
        # NumPy promotion system (linter/systems/numpy.py) does not carry: dtype left unknown.
        return Array(frozenset(), outcome.library, None, ndim=outcome.ndim)
    if call.fn.numpy_native_loops_only:
        return operations.native_loop(outcome)
    return outcome


def _method_loops(call: Call, outcome: Value) -> Value:
    """NumPy's array methods on dtypes without a loop of their own: ``round`` of bools computes
    in float16, ``conjugate`` of int4 in int8; the rest keep the dtype."""
    if call.fn.library is Library.JAX or not isinstance(outcome, Array):
        return outcome
    intn_results = call.ctx.numpy.facts.intn_methods  # measured on the installed ml_dtypes
    for dtypes, targets in ((frozenset({"bool"}), NUMPY_METHOD_BOOL_RESULTS), (INTN, intn_results)):
        target = targets.get(call.short)
        if target and outcome.dtypes & dtypes:
            outcome = replace(outcome, dtypes=frozenset(target if d in dtypes else d for d in outcome.dtypes))
    return outcome


def check_domain(call: Call, value: Value) -> Value:
    """``value``, or the exception the function raises for its dtype (promolint.engine.domains,
    then the catalog's own measured refusals)."""
    library = Library.JAX if call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    if library is Library.JAX and call.short in call.ctx.jax_facts.runs:
        return value  # a later JAX runs it where the pinned one refused
    value = operations.check_domain(call.short, library, value, display_name(call.name))
    catalog = CATALOG_REFUSALS["jax" if library is Library.JAX else "numpy"].get(call.short, {})
    refused = {error: frozenset().union(*(DTYPE_CLASSES[c] for c in classes.split()))
               for error, classes in catalog.items()}  # fmt: skip
    if library is not Library.JAX:  # and those measured on the installed NumPy and ml_dtypes
        refused |= call.ctx.numpy.facts.refused.get(call.short, {})
    if not refused or not isinstance(value, Array) or not value.dtypes:
        return value
    errors = {next((error for error, dtypes in refused.items() if d in dtypes), None) for d in value.dtypes}
    if errors == {None}:
        return value
    if len(errors) > 1:
        return Array(frozenset(), value.library, None, ndim=value.ndim)
    kinds = "|".join(sorted(value.dtypes))
    return Refusal(errors.pop(), f"{display_name(call.name)} is not supported for {kinds} operands")

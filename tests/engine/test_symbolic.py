"""Variables and symbolic values (``promolint.engine.symbolic``): a value computed from a variable
is, at each member of the variable's domain, what JAX computes for an array of that member's
dtype; equal values share their evaluations within one analysis's state, and two analyses' states
never mix."""

from __future__ import annotations

import gc
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from promolint.engine import operations
from promolint.engine.context import Context
from promolint.engine.symbolic import (
    EvaluationState,
    Symbolic,
    kept_dtype,
    outcomes,
    rekeyed,
    settled,
    summary,
    variable,
)
from promolint.engine.symbolic.variables import ITSELF
from promolint.engine.values import UNKNOWN, Array, Instance, Items, Library, Refusal, python_scalar

X64_OFF = Context(x64=False)


FLOATS = frozenset({"float16", "bfloat16", "float32"})


def _jax_variable(state: EvaluationState, name: str = "x", dtypes: frozenset[str] | None = None) -> Symbolic:
    """A parameter ``name`` over JAX's values (of ``dtypes`` only, when given), x64 off."""
    return variable(name, (1, name), state.domain((Library.JAX,), X64_OFF, dtypes), state=state)


def _abstract(member: Array) -> jax.ShapeDtypeStruct:
    """What JAX traces for an array of ``member``'s dtype and weak flag."""
    (dtype,) = member.dtypes
    return jax.ShapeDtypeStruct((), dtype, weak_type=bool(member.weak))


def _jax_result(function, *members: Array) -> jax.ShapeDtypeStruct | None:
    """The dtype and weak flag JAX gives ``function`` of arrays like ``members`` (traced, not run:
    the CPU backend runs no fp6 arithmetic), None where JAX refuses."""
    try:
        with jax.enable_x64(False):
            return jax.eval_shape(function, *map(_abstract, members))
    except Exception:  # noqa: BLE001 - JAX refuses the promotion
        return None


def _agrees(found: object, real: jax.ShapeDtypeStruct | None) -> bool:
    if real is None:
        return isinstance(found, Refusal)
    return isinstance(found, Array) and found.dtypes == {str(real.dtype)} and found.weak == real.weak_type


def test_a_variable_is_its_member_at_each_assignment() -> None:
    state = EvaluationState()
    x = _jax_variable(state)
    (var,) = x.variables
    for member in var.domain:
        assert x.at({var: member}) is member
    assert summary(x) is x  # its members differ


def test_a_jax_variable_ranges_over_what_jax_has_with_x64_off() -> None:
    state = EvaluationState()
    members = {(next(iter(m.dtypes)), m.weak) for m in state.domain((Library.JAX,), X64_OFF)}
    assert ("float32", True) in members and ("int32", True) in members and ("float32", False) in members
    assert not any(dtype in ("float64", "int64", "complex128", "uint64") for dtype, _ in members)


def test_an_operation_on_a_variable_gives_at_each_member_what_jax_computes() -> None:
    state = EvaluationState()
    x = _jax_variable(state)
    (var,) = x.variables
    scaled = operations.binary("*", x, python_scalar("float", 2.5), X64_OFF)
    assert type(scaled) is Symbolic
    assert len(var.domain) > 20
    for member in var.domain:
        assert _agrees(scaled.at({var: member}), _jax_result(lambda a: a * 2.5, member)), member


def test_a_comparison_is_bool_at_every_member_weak_where_its_operand_is() -> None:
    state = EvaluationState()
    x = _jax_variable(state, dtypes=FLOATS | {"int8", "int32", "uint8"})
    (var,) = x.variables
    half = operations.binary("*", x, python_scalar("float", 0.5), X64_OFF)
    compared = operations.compare("<", half, python_scalar("int", 1), X64_OFF)
    found = outcomes(compared)
    assert {assignment[var] for assignment, _ in found} == set(var.domain)
    for assignment, value in found:
        assert _agrees(value, _jax_result(lambda a: a * 0.5 < 1, assignment[var])), assignment
    assert settled(compared) is compared  # weak at some members, strong at others: no one value


def test_a_cast_has_one_value_at_every_member() -> None:
    state = EvaluationState()
    x = _jax_variable(state)
    (var,) = x.variables
    float32 = Array(frozenset({"float32"}), Library.JAX, False)
    cast = operations.binary("*", operations.compare("<", x, python_scalar("int", 1), X64_OFF), float32, X64_OFF)
    for member in var.domain:
        assert _agrees(cast.at({var: member}), _jax_result(lambda a: (a < 1) * jnp.ones((), jnp.float32), member))
    assert settled(cast) == float32  # wherever the program goes on (complex members raise)


def test_a_value_that_keeps_its_operand_s_dtype_names_the_variable() -> None:
    state = EvaluationState()
    x = _jax_variable(state, dtypes=FLOATS | {"int8", "int32", "uint8"})
    (var,) = x.variables
    doubled = operations.binary("*", x, python_scalar("int", 2), X64_OFF)
    # A weak int keeps every numeric dtype, and the operand's weak flag.
    assert all(_jax_result(lambda a: a * 2, m).dtype == next(iter(m.dtypes)) for m in var.domain)
    assert all(_jax_result(lambda a: a * 2, m).weak_type == m.weak for m in var.domain)
    assert kept_dtype(doubled) == (var, None, None)


def test_values_built_alike_are_equal_and_share_their_evaluations() -> None:
    state = EvaluationState()
    x = _jax_variable(state)
    (var,) = x.variables
    one = operations.binary("+", x, python_scalar("int", 1), X64_OFF)
    again = operations.binary("+", x, python_scalar("int", 1), X64_OFF)
    other = operations.binary("+", x, python_scalar("float", 1.0), X64_OFF)
    assert one is not again and one == again and hash(one) == hash(again)
    assert one != other
    member = var.domain[0]
    first = one.at({var: member})
    evaluations = len(state.memo)
    assert again.at({var: member}) is first  # the same number in the memo: no new evaluation
    assert len(state.memo) == evaluations


def test_outcomes_give_one_value_per_assignment() -> None:
    state = EvaluationState()
    x, y = _jax_variable(state, "x", FLOATS), _jax_variable(state, "y", FLOATS | {"int32"})
    total = operations.binary("+", x, y, X64_OFF)
    found = outcomes(total)
    (var_x,), (var_y,) = x.variables, y.variables
    assert len(found) == len(var_x.domain) * len(var_y.domain)
    for assignment, value in found:
        assert _agrees(value, _jax_result(lambda a, b: a + b, assignment[var_x], assignment[var_y])), assignment


def test_two_analyses_keep_their_evaluations_apart() -> None:
    first, second = EvaluationState(), EvaluationState()
    x = _jax_variable(first)
    y = _jax_variable(second)  # the same parameter, in another analysis
    assert x == y  # equal values: one structure
    in_first = operations.binary("*", x, python_scalar("int", 2), X64_OFF)
    in_second = operations.binary("*", y, python_scalar("int", 2), X64_OFF)
    (var,) = in_first.variables
    member = var.domain[0]
    in_first.at({var: member})
    assert first.memo and not second.memo
    in_second.at({next(iter(in_second.variables)): second.domain((Library.JAX,), X64_OFF)[0]})
    assert in_first.state is first and in_second.state is second
    assert in_first.at({var: member}) == in_second.at({next(iter(in_second.variables)): member})


def test_a_state_is_freed_with_its_values_without_the_cyclic_collector() -> None:
    state = EvaluationState()
    x = _jax_variable(state)
    scaled = operations.binary("*", x, python_scalar("float", 2.5), X64_OFF)
    outcomes(scaled)
    alive = weakref.ref(state)
    gc.disable()
    try:
        del state, x, scaled
        assert alive() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("x64", [False, True])
def test_domains_are_one_tuple_per_analysis(x64: bool) -> None:
    state = EvaluationState()
    ctx = Context(x64=x64)
    assert state.domain((Library.JAX,), ctx) is state.domain((Library.JAX,), ctx)
    has_64 = any("float64" in m.dtypes for m in state.domain((Library.JAX,), ctx))
    with jax.enable_x64(x64):
        assert has_64 == (jnp.asarray(1.0).dtype == np.float64)


def test_a_value_read_for_another_parameters_object_is_keyed_by_it_and_keeps_its_other_variables() -> None:
    """A memoized method's result, computed for one method's ``self``, read for another's
    (``promolint.engine.flow.functions``): what the first ``self`` holds is what this one holds,
    the method's other variables (its caller's ``obs``) stay, and each member evaluates as
    before.  Re-keying only the renamed variables left ``obs`` out of the evaluation (KeyError
    on rejax's networks)."""
    state = EvaluationState()
    weights = variable("self._w", (5, "self._w"), state.domain((Library.JAX,), X64_OFF, FLOATS), state=state)
    obs = variable("obs", (5, "obs"), state.domain((Library.JAX,), X64_OFF, FLOATS), state=state)
    product = operations.binary("*", weights, obs, X64_OFF)
    held = Items((product, Instance(0, receiver=(5, "self._net")), Instance(1, receiver=(5, "self"))), is_tuple=True)
    read = rekeyed(held, {(5, "self"): (9, "self")}, state)
    moved, net, itself = read.items
    assert {(var.name, var.key) for var in moved.variables} == {("self._w", (9, "self._w")), ("obs", (5, "obs"))}
    assert (net.receiver, itself.receiver) == ((9, "self._net"), (9, "self"))  # `return self` too
    by_key = {var.key: var for var in moved.variables}
    for w in FLOATS:
        for o in FLOATS:
            before = product.at({weights.variable: _member(weights, w), obs.variable: _member(obs, o)})
            after = moved.at({by_key[(9, "self._w")]: _member(weights, w), by_key[(5, "obs")]: _member(obs, o)})
            assert after == before, (w, o)


def _member(value: Symbolic, dtype: str) -> Array:
    return next(m for m in value.variable.domain if m.dtypes == frozenset({dtype}))


def test_a_value_over_many_variables_whose_members_differ_is_settled_without_weighing_them() -> None:
    """Two members of different kinds show that ``x + y + z + w`` has no one value: its outcomes
    (too many assignments to weigh, then cut down) are not computed to find that out."""
    state = EvaluationState()
    dtypes = FLOATS | {"int8", "int32", "uint8"}
    names = "xyzw"
    variables = [_jax_variable(state, name, dtypes) for name in names]
    total = variables[0]
    for other in variables[1:]:
        total = operations.binary("+", total, other, X64_OFF)
    assert total.assignments() is None
    assert settled(total) is total
    assert total._outcomes is ITSELF  # not weighed
    members = [next(iter(v.variables)).domain for v in variables]
    first = [domain[0] for domain in members]
    other = [next(m for m in domain if m.dtypes != domain[0].dtypes) for domain in members]
    assert _jax_result(_add4, *first).dtype != _jax_result(_add4, *other).dtype


def test_a_value_over_many_variables_of_one_dtype_wherever_it_goes_on_settles_on_it() -> None:
    """``(x < 1) * f32 + ...`` over four variables is float32 at every member where it runs (a
    complex member raises at `<`), as JAX says at each member tried."""
    state = EvaluationState()
    float32 = Array(frozenset({"float32"}), Library.JAX, False)
    variables = [_jax_variable(state, name, FLOATS | {"int8", "int32", "complex64"}) for name in "xyzw"]
    terms = [operations.binary("*", operations.compare("<", v, python_scalar("int", 1), X64_OFF), float32, X64_OFF)
             for v in variables]  # fmt: skip
    total = terms[0]
    for term in terms[1:]:
        total = operations.binary("+", total, term, X64_OFF)
    assert total.assignments() is None
    assert settled(total) == float32
    for member in next(iter(variables[0].variables)).domain:
        others = [next(iter(v.variables)).domain[0] for v in variables[1:]]
        assert _agrees(total.at({next(iter(v.variables)): m for v, m in zip(variables, [member, *others])}),
                       _jax_result(_mask_sum, member, *others))  # fmt: skip


def _add4(a, b, c, d):
    return a + b + c + d


def _mask_sum(a, b, c, d):
    return sum((v < 1) * jnp.ones((), jnp.float32) for v in (a, b, c, d))


def test_a_value_unknown_at_some_members_keeps_what_holds_with_its_variables_unknown() -> None:
    """The engine may know less with every variable given than with some left unknown (a merge
    of a branch that raises at a member with one that does not; jaxmarl 0.2.0's maze observation
    lost its strict PRM004 so): an unknown at a member shows no difference between members, and
    the refusal stays what rules read."""
    state = EvaluationState()
    variables = [_jax_variable(state, name, FLOATS | {"int8", "int32", "uint8"}) for name in "xyzw"]
    refusal = Refusal("TypePromotionError", "Input dtypes ('uint8', <class 'float'>)")

    def divided(*members):
        return refusal if all(m is UNKNOWN for m in members) else UNKNOWN

    value = Symbolic("divided", divided, tuple(variables))
    assert value.assignments() is None
    assert settled(value) == refusal

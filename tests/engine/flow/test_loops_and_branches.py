"""lax's loops and branches as the flow runs them (``promolint.engine.flow.control``), with bodies
written as the engine's own operations: the carry a loop settles on and the refusals it makes are
what JAX traces for the same bodies (``jax.eval_shape``: traced, not run)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
import pytest

from promolint.engine import operations
from promolint.engine.context import Context
from promolint.engine.flow import control
from promolint.engine.flow.carries import BRANCHES, CARRY
from promolint.engine.values import UNKNOWN, Array, Items, Library, Reference, Refusal, Value, python_scalar

X64_OFF = Context(x64=False)
FLOAT32 = Array(frozenset({"float32"}), Library.JAX, False)
FLOAT16 = Array(frozenset({"float16"}), Library.JAX, False)
INT32 = Array(frozenset({"int32"}), Library.JAX, False)


Invoke = Callable[[Value, Sequence[Value]], Value]


def _functions(**bodies: Callable[..., Value]) -> tuple[dict[str, Reference], Invoke]:
    """Function values named after ``bodies``, and what calls them (the flow's ``invoke``)."""
    references = {name: Reference(f"test.{name}") for name in bodies}

    def invoke(function: Value, args: Sequence[Value]) -> Value:
        return bodies[function.qualname.removeprefix("test.")](*args)

    return references, invoke


def _fori_loop(body: Callable[[Value, Value], Value], init: Value) -> Value:
    functions, invoke = _functions(body=body)
    args = [python_scalar("int", 0), python_scalar("int", 3), functions["body"], init]
    _, result = control.run("jax.lax.fori_loop", invoke, invoke, args, {}, X64_OFF)
    return result


def _jax(function, *args) -> jax.ShapeDtypeStruct | None:
    try:
        with jax.enable_x64(False):
            return jax.eval_shape(function, *args)
    except TypeError:
        return None


def _is(value: Value, real: jax.ShapeDtypeStruct) -> bool:
    return isinstance(value, Array) and value.dtypes == {str(real.dtype)} and value.weak == real.weak_type


def test_a_loop_whose_body_keeps_the_carry_s_dtype_settles_on_it() -> None:
    result = _fori_loop(lambda i, c: operations.binary("*", c, python_scalar("int", 2), X64_OFF), FLOAT32)
    real = _jax(lambda c: jax.lax.fori_loop(0, 3, lambda i, c: c * 2, c), jax.ShapeDtypeStruct((), jnp.float32))
    assert _is(result, real)


def test_a_loop_whose_body_changes_a_strong_carry_s_dtype_raises_as_jax_does() -> None:
    result = _fori_loop(lambda i, c: operations.binary("+", c, python_scalar("float", 1.5), X64_OFF), INT32)
    assert _jax(lambda c: jax.lax.fori_loop(0, 3, lambda i, c: c + 1.5, c), jax.ShapeDtypeStruct((), jnp.int32)) \
        is None  # fmt: skip
    assert isinstance(result, Refusal) and result.error == "TypeError" and result.reason == CARRY


def test_a_weak_carry_the_body_promotes_is_traced_again_as_the_promoted_dtype() -> None:
    result = _fori_loop(lambda i, c: operations.binary("+", c, FLOAT16, X64_OFF), python_scalar("float", 0.0))
    real = _jax(lambda: jax.lax.fori_loop(0, 3, lambda i, c: c + jnp.ones((), jnp.float16), 0.0))
    assert real is not None and _is(result, real)


def test_the_loop_index_is_what_jax_makes_of_python_bounds() -> None:
    result = _fori_loop(lambda i, c: i, python_scalar("int", 0))
    real = _jax(lambda: jax.lax.fori_loop(0, 3, lambda i, c: i, 0))
    assert _is(result, real)


@pytest.mark.parametrize(("first", "second"), [(FLOAT32, FLOAT32), (FLOAT32, FLOAT16), (INT32, FLOAT32)])
def test_branches_must_return_one_dtype(first: Array, second: Array) -> None:
    functions, invoke = _functions(false_fun=lambda x: first, true_fun=lambda x: second)
    args = [Array(frozenset({"bool"}), Library.JAX, False), functions["true_fun"], functions["false_fun"], FLOAT32]
    _, result = control.run("jax.lax.cond", invoke, invoke, args, {}, X64_OFF)
    (a,), (b,) = first.dtypes, second.dtypes
    real = _jax(lambda p: jax.lax.cond(p, lambda: jnp.zeros((), b), lambda: jnp.zeros((), a)),
                jax.ShapeDtypeStruct((), jnp.bool_))  # fmt: skip
    if real is None:
        assert isinstance(result, Refusal) and result.reason == BRANCHES
    else:
        assert _is(result, real)


def test_a_carry_leaf_that_changes_dtype_raises_whatever_an_unknown_leaf_beside_it_is() -> None:
    def body(i: Value, carry: Value) -> Value:
        unknown, x = carry.items
        return Items((unknown, operations.binary("*", x, python_scalar("complex", 1j), X64_OFF)), True)

    result = _fori_loop(body, Items((UNKNOWN, FLOAT32), True))
    for unknown in (jax.ShapeDtypeStruct((2,), jnp.uint32), (jax.ShapeDtypeStruct((), jnp.float16),) * 2):
        real = _jax(lambda k, x: jax.lax.fori_loop(0, 3, lambda i, c: (c[0], c[1] * 1j), (k, x)),
                    unknown, jax.ShapeDtypeStruct((), jnp.float32))  # fmt: skip
        assert real is None
    assert isinstance(result, Refusal) and result.reason == CARRY

"""PRM025 carry-dtype-mismatch: lax loops whose body changes the carry's dtype, and branches of
lax.cond/switch that return different dtypes."""

from __future__ import annotations

from promolint.engine.model import BRANCHES, CARRY, PREDICATE, OperationKind
from promolint.engine.values import Refusal
from promolint.rules.base import Example, Rule
from promolint.rules.shared.through_calls import reported_with_calls, settled

_ADVICE = {
    CARRY: "Cast what the body returns to the carry's dtype (`.astype(carry.dtype)`), or start from a value of the "
           "dtype the body computes.",
    BRANCHES: "Give every branch the same dtype, e.g. with `.astype(...)` or `jnp.zeros_like(x)`.",
    PREDICATE: "",
}  # fmt: skip


class CarryDtypeMismatch(Rule):
    summary = (
        "Flags `lax.scan`, `lax.fori_loop` and `lax.while_loop` whose body returns its carry with "
        "another dtype than it received, `lax.cond` and `lax.switch` whose branches return different "
        "dtypes, and loop predicates and switch indices of the wrong kind."
    )
    why = """
        JAX traces a loop's body once and requires it to return the carry with the dtypes it got,
        and a conditional's branches to agree; otherwise it raises TypeError at trace time ("scan
        body function carry input and carry output must have equal types"). The usual causes are
        a carry started in one precision and updated in another (a bfloat16 state meeting
        float32 weights), a NumPy float64 constant or a Python float that widens a float32 carry
        once x64 is on, and a branch that returns a Python `0` where the other returns a float.
        A carry started from a Python scalar is forgiving: JAX converts it to what the body
        returns and traces again.
    """
    invalid = (
        Example("""
            import jax
            import jax.numpy as jnp
            weights = jnp.ones((4, 4), jnp.float32)
            def step(h, x):
                h = jnp.tanh(h @ weights + x)
                return h, h
            h0 = jnp.zeros(4, jnp.bfloat16)
            h, hs = jax.lax.scan(step, h0, jnp.ones((8, 4), jnp.bfloat16))
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32)
            y = jax.lax.cond(True, lambda v: v.sum(), lambda v: 0, x)
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            import numpy as np
            decay = np.exp(-0.1)
            y = jax.lax.fori_loop(0, 10, lambda i, v: v * decay, jnp.ones(3, jnp.float32))
        """, x64="on"),
        # Whatever dtype the parameter has, the body returns a pair for one carry.
        Example("""
            import jax
            def paired(x):
                return jax.lax.fori_loop(0, 3, lambda i, c: (c, c), x)
        """),
        # The carry comes from the caller: `jnp.zeros(3)` is float64 under x64, and the body
        # casts to float32; reported at the call, which raises.
        Example("""
            import jax
            import jax.numpy as jnp
            def smooth(x0, steps):
                def body(i, x):
                    return (x * 0.5).astype(jnp.float32)
                return jax.lax.fori_loop(0, steps, body, x0)
            def run():
                return smooth(jnp.zeros(3), 4)
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            weights = jnp.ones((4, 4), jnp.float32)
            def step(h, x):
                h = jnp.tanh(h @ weights + x)
                return h, h
            h0 = jnp.zeros(4, jnp.float32)
            h, hs = jax.lax.scan(step, h0, jnp.ones((8, 4), jnp.bfloat16))
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32)
            y = jax.lax.cond(True, lambda v: v.sum(), lambda v: jnp.zeros((), v.dtype), x)
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            total = jax.lax.fori_loop(0, 10, lambda i, acc: acc + jnp.float32(i), 0.0)
        """),
        # A parameter of unknown dtype: an integer one would raise, a float one does not.
        Example("""
            import jax
            def scaled(x):
                return jax.lax.fori_loop(0, 3, lambda i, c: c * 2.0, x)
            def doubled(x):
                return jax.lax.cond(x.shape[0] > 1, lambda v: v * 2.0, lambda v: v, x)
        """),
        # What the caller's ``fun`` returns may be a tuple: the structures may agree.
        Example("""
            import jax
            def search(fun, stepsize, params, pred):
                return jax.lax.cond(pred, lambda t: fun(t), lambda t: (stepsize, params), (stepsize, params))
        """),
        # A NamedTuple carry is traced field by field: its Python int index is a JAX array in the
        # loop, and `~` of a comparison of it a boolean (jumanji's maze generation).
        Example("""
            from typing import NamedTuple
            import jax
            import jax.numpy as jnp
            class Stack(NamedTuple):
                data: jax.Array
                insertion_index: int
            def remaining(stack):
                return ~(stack.insertion_index == 0)
            def pop(stack):
                return Stack(stack.data, stack.insertion_index - 1)
            final = jax.lax.while_loop(remaining, pop, Stack(jnp.zeros(3), 3))
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            def smooth(x0, steps):
                def body(i, x):
                    return (x * 0.5).astype(jnp.float32)
                return jax.lax.fori_loop(0, steps, body, x0)
            def run():
                return smooth(jnp.zeros(3, jnp.float32), 4)
        """, x64="on"),
    )

    def check(self, operation):
        if _mismatched(operation):
            yield self.finding(operation, _explained(operation))

    def check_module(self, module):
        """Each loop or conditional that raises, then each call of the program's own functions
        whose body has one raise for the arguments the call passes (a carry started with the
        caller's float64)."""
        return reported_with_calls(self, module, _mismatched, _told)


def _mismatched(operation) -> bool:
    result = settled(operation.result)
    return operation.kind == OperationKind.CONTROL and isinstance(result, Refusal) and result.reason in _ADVICE


def _explained(operation) -> str:
    result = settled(operation.result)
    return f"{result.message} {_ADVICE[result.reason]}".strip()


def _told(operation) -> tuple[str, str]:
    return settled(operation.result).error, _explained(operation)

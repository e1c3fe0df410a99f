"""PRM008 lax-dtype-mismatch: jax.lax operations on different dtypes."""

from __future__ import annotations

from promolint.engine.model import JNP_EQUIVALENTS, SHAPE, OperationKind
from promolint.engine.values import Refusal
from promolint.rules.base import Example, Rule
from promolint.rules.shared.through_calls import reported_with_calls, settled

_JVP = "jax.jvp"  # which, like lax, never promotes: its tangents must have their primals' dtypes


class LaxDtypeMismatch(Rule):
    summary = (
        "Flags `jax.lax` operations whose operands differ in dtype (lax never promotes): the "
        "elementwise operations, `select`, `select_n`, `clamp`, `concatenate`, `pad`, "
        "`dynamic_slice`, `dynamic_update_slice`, the scatters, the convolutions, and start indices "
        "of mixed integer types; and `jax.jvp` whose tangents differ in dtype from their primals."
    )
    why = """
        `jax.lax.add(x, y)` requires one dtype, Python scalars included (`lax.add(int8_array, 1)`
        fails: the literal is int32); so do `lax.select`, `lax.clamp`, `lax.concatenate`,
        `lax.pad` (with its padding value), `lax.dynamic_update_slice` (the update) and the
        scatters (the updates). It raises TypeError at trace time. A Python float or a NumPy
        float64 matches a float32 array only while x64 is off: `lax.clamp(0.0, x, 1.0)` and
        `lax.pad(x, 0.0, config)` on float32 `x` raise once x64 is on, and so does
        `lax.dynamic_slice(x, (i, 0), sizes)` with an int32 `i`, whose `0` becomes int64.
        `jax.jvp(f, (x,), (t,))` never promotes either: the tangent must have the primal's dtype
        (sparsejac issue 11: a float32 basis vector beside a float64 `x` under x64).
    """
    invalid = (
        Example("""
            import jax
            import jax.numpy as jnp
            z = jax.lax.add(jnp.ones(3, jnp.int8), 1)
        """),
        # pgx's chess (x64 on): a Python int piece code is a weak int64 that lax.select does not
        # promote to the board's int32; the state's fields come from its NamedTuple defaults.
        Example("""
            from typing import NamedTuple
            import jax
            import jax.numpy as jnp
            EMPTY, PAWN = tuple(range(2))
            class GameState(NamedTuple):
                board: jax.Array = jnp.int32([1, 0, -1])
            def remove(state: GameState, captured, position):
                return jax.lax.select(captured, EMPTY, state.board[position])
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            buffer = jnp.zeros((4, 3), jnp.float32)
            row = jnp.ones((1, 3), jnp.bfloat16)
            buffer = jax.lax.dynamic_update_slice(buffer, row, (0, 0))
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32)
            y = jax.lax.clamp(0.0, x, 1.0)
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.ones((4, 3), jnp.float32)
            i = jnp.argmax(jnp.ones(4, jnp.float32)).astype(jnp.int32)
            row = jax.lax.dynamic_slice(x, (i, 0), (1, 3))
        """, x64="on"),
        # gymnax's Freeway (x64 on): reset passes `jnp.zeros(..., dtype=int)`, int64, where the
        # helper selects between it and its own int32 cars; reported at the call.
        Example("""
            import jax
            import jax.numpy as jnp
            def randomize(old: jax.Array, initialize: bool) -> jax.Array:
                new = jnp.zeros((8, 4), dtype=jnp.int32)
                return jax.lax.select(initialize, new, old)
            def reset():
                return randomize(jnp.zeros((8, 4), dtype=int), True)
        """, x64="on"),
        # The same where the other arguments depend on the caller's own parameters (a PRNG key):
        # the call raises whatever they are.
        Example("""
            import jax
            import jax.numpy as jnp
            def randomize(speeds: jax.Array, old: jax.Array, initialize: bool) -> jax.Array:
                new = jnp.zeros((8, 4), dtype=jnp.int32).at[:, 2].set(speeds)
                return jax.lax.select(initialize, new, old)
            def reset(key):
                speeds = jax.random.randint(key, (8,), 1, 6)
                return randomize(speeds, jnp.zeros((8, 4), dtype=int), True)
        """, x64="on"),
        # jaxmarl's SMAX observations (x64 on): the Python float 0.0 is a weak float64 beside a
        # float32 whatever the three parameters are (too many dtypes to weigh together: the
        # engine weighs the fewest it needs, here none).
        Example("""
            import jax
            import jax.numpy as jnp
            def observe(prev: jax.Array, i: jax.Array, j_idx: jax.Array):
                team_i = (i >= 3).astype(jnp.int32)
                team_j = (j_idx >= 3).astype(jnp.int32)
                most = jax.lax.cond(j_idx < 3, lambda: float(2), lambda: float(4))
                return jax.lax.select(team_i == team_j, prev[j_idx].astype(jnp.float32) / most, 0.0)
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.linspace(0.0, 1.0, 3)
            basis = jnp.eye(x.size)[0].astype(jnp.float32)
            y, dy = jax.jvp(jnp.sin, (x,), (basis,))
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.linspace(0.0, 1.0, 3)
            basis = jnp.eye(x.size, dtype=x.dtype)[0]
            y, dy = jax.jvp(jnp.sin, (x,), (basis,))
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            z = jax.lax.add(jnp.ones(3, jnp.int8), jnp.int8(1))
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32)
            y = jax.lax.clamp(jnp.float32(0), x, jnp.float32(1))
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            buffer = jnp.zeros((4, 3), jnp.float32)
            row = jnp.ones((1, 3), jnp.bfloat16)
            buffer = jax.lax.dynamic_update_slice(buffer, row.astype(buffer.dtype), (0, 0))
        """),
        # A state field annotated `int` is traced under jit: an int32 array in gymnax's Catch,
        # where the Python-int annotation would have claimed a weak int64 and a TypeError.
        Example("""
            import jax
            import jax.numpy as jnp
            from flax import struct
            @struct.dataclass
            class EnvState:
                paddle_y: int
            def step(state: EnvState, done, paddle_y):
                return jax.lax.select(done, jnp.int32(paddle_y), state.paddle_y)
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            def randomize(old: jax.Array, initialize: bool) -> jax.Array:
                new = jnp.zeros((8, 4), dtype=jnp.int32)
                return jax.lax.select(initialize, new, old)
            def reset():
                return randomize(jnp.zeros((8, 4), dtype=jnp.int32), True)
        """, x64="on"),
    )

    def check(self, operation):
        if _mismatched(operation):
            yield self.finding(operation, _explained(operation))

    def check_module(self, module):
        """Each lax operation that raises, then each call of the program's own functions whose
        body raises at one for the arguments the call passes (``promolint.rules.shared.through_calls``)."""
        return reported_with_calls(self, module, _mismatched, _told)


def _mismatched(operation) -> bool:
    result = settled(operation.result)
    return (operation.kind == OperationKind.CALL and isinstance(result, Refusal) and result.error == "TypeError"
            and result.reason != SHAPE and (operation.op.startswith("jax.lax.") or operation.op == _JVP))  # fmt: skip


def _explained(operation) -> str:
    """JAX's words, and the way out."""
    result = settled(operation.result)
    equivalent = JNP_EQUIVALENTS.get(operation.op.removeprefix("jax.lax."))
    if result.message.startswith("index arguments"):
        advice = "Cast the indices to one integer type."
    elif operation.op == _JVP:
        advice = "Give each tangent its primal's dtype (`jnp.ones_like(x)`, `t.astype(x.dtype)`)."
    elif equivalent:
        advice = f"Use jnp.{equivalent}, which promotes, or cast the operands to one dtype."
    else:
        advice = "Cast the operands to one dtype."
    said = result.message if result.message.endswith(".") else f"{result.message}."
    return f"{said} {advice}"


def _told(operation) -> tuple[str, str]:
    return "TypeError", _explained(operation)

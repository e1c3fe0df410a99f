"""PRM027 lax-literal-x64: a jax.lax operation that runs only while its array has x64's default dtype."""

from __future__ import annotations

from collections.abc import Sequence

from promolint.engine.model import (BRANCHES, CARRY, JNP_EQUIVALENTS, Operation, OperationKind, variables_in,
                                    with_arrays_of)
from promolint.engine.values import Array, Library, Refusal
from promolint.rules.base import Example, Rule
from promolint.rules.shared.contract import NARROW, branches_bound_to_the_default, defaults_in_bodies

# What JAX requires of a conditional's branches and a loop's body, which it never promotes.
_DISAGREE = {BRANCHES: "its branches must return equal dtypes", CARRY: "its body must return the carry's dtype"}


class LaxLiteralX64(Rule):
    summary = (
        "Flags `jax.lax` operations that mix a Python scalar with an array of unknown dtype and, "
        "with x64 on, raise TypeError for every int32 (or float32) array: they run only while the "
        "array has the default dtype of the mode. Conditionals whose branches (and loops whose "
        "body) return such a scalar, or JAX's 64-bit default, beside the array are flagged alike."
    )
    why = """
        `jax.lax` never promotes, and a Python scalar is no weak value to it: with x64 on, the `4`
        of `lax.select(mask, action, 4)` is an int64, so the call raises TypeError for an int32
        `action`, and with x64 off for an int64 one. Code written and tested with x64 off
        works for the int32 arrays it makes; once a user switches x64 on, every int32 array that
        reaches it (an action from the environment's own int32 action spec, a field made with
        `dtype=jnp.int32`) breaks it. jumanji 1.1.2's `Maze.step` raises so for an int32 action
        with x64 on; so do gymnax's, pgx's and jaxmarl's environments where the array is known
        (PRM008 reports those).

        A conditional's branches are never promoted either: `lax.cond(ok, lambda: action,
        lambda: 0)` raises for an int32 `action` with x64 on (jumanji's RobotWarehouse step), and
        so does a branch that returns JAX's 64-bit default beside it (matrax's
        `jnp.zeros(n, int)`); a loop's body likewise returns its carry's dtype or raises.

        The finding is about the function's contract, not a value seen: the array is a parameter
        or comes from one, and the rule reports where no int32 (or float32) array can pass.
    """
    fix_safety = """
        No automatic fix is offered. Give the scalar the array's dtype
        (`lax.select(mask, action, jnp.asarray(4, action.dtype))`), or use the `jnp` function,
        which promotes weakly (`jnp.where(mask, action, 4)` keeps `action`'s dtype in both modes).
    """
    invalid = (
        # jumanji's Maze.step: the action an agent picks from the int32 action spec.
        Example("""
            import jax
            def step(action_mask, action: jax.Array):
                return jax.lax.select(action_mask[action], action, 4)
        """, x64="on"),
        Example("""
            import jax
            def clip(x: jax.Array):
                return jax.lax.clamp(0.0, x, 1.0)
        """, x64="on"),
        # jumanji 1.1.2's RobotWarehouse: a branch returns the int32 action, the other a Python 0.
        Example("""
            import jax
            def get_valid_action(action_mask, action):
                return jax.lax.cond(action_mask[action], lambda: action, lambda: 0)
        """, x64="on"),
        # craftax 1.6.1's renderer: a field of the state passed (int32 where world_gen makes it).
        Example("""
            import jax
            def facing(state):
                return jax.lax.select(state.is_sleeping, 4, state.player_direction - 1)
        """, x64="on"),
        # craftax 1.6.1's mobs: a scan carries the state, its body replaces it; an object is
        # not promoted, so the body's second trace reads the field too (int32 zombie cooldowns
        # raise so at game_logic.py:836, run with a flax struct state).
        Example("""
            import jax
            import jax.numpy as jnp
            def update(rng, state, count):
                def move(rng_and_state, i):
                    rng, state = rng_and_state
                    zombies = state.zombies
                    cooldown = jax.lax.select(zombies.mask[i], 5, zombies.cooldown[i] - 1)
                    zombies = zombies.replace(cooldown=zombies.cooldown.at[i].set(cooldown))
                    return (rng, state.replace(zombies=zombies)), None
                (rng, state), _ = jax.lax.scan(move, (rng, state), jnp.arange(count))
                return state
        """, x64="on"),
        # The same where the body makes a new object in the carried one's place (run with an
        # int32 cooldown: TypeError).
        Example("""
            from typing import NamedTuple
            import jax
            import jax.numpy as jnp
            class Mobs(NamedTuple):
                cooldown: jax.Array
            def update(rng, mobs, count):
                def move(carry, i):
                    rng, mobs = carry
                    cooldown = jax.lax.select(mobs.cooldown[i] > 0, mobs.cooldown[i] - 1, 5)
                    return (rng, Mobs(mobs.cooldown.at[i].set(cooldown))), None
                (rng, mobs), _ = jax.lax.scan(move, (rng, mobs), jnp.arange(count))
                return mobs
        """, x64="on"),
        # craftax 1.6.1's skeleton scan carries the state the zombie scan gave back, which keeps
        # the fields its body did not replace (run with flax struct mobs, int32 cooldowns, x64
        # on: TypeError in the second scan).
        Example("""
            import jax
            import jax.numpy as jnp
            def update(rng, state, count):
                def move_zombie(rng_and_state, i):
                    rng, state = rng_and_state
                    zombies = state.zombies
                    zombies = zombies.replace(cooldown=zombies.cooldown.at[i].set(zombies.cooldown[i] - 1))
                    return (rng, state.replace(zombies=zombies)), None
                (rng, state), _ = jax.lax.scan(move_zombie, (rng, state), jnp.arange(count))
                def move_skeleton(rng_and_state, i):
                    rng, state = rng_and_state
                    skeletons = state.skeletons
                    cooldown = jax.lax.select(skeletons.health[i] > 0, 4, skeletons.cooldown[i] - 1)
                    skeletons = skeletons.replace(cooldown=skeletons.cooldown.at[i].set(cooldown))
                    return (rng, state.replace(skeletons=skeletons)), None
                (rng, state), _ = jax.lax.scan(move_skeleton, (rng, state), jnp.arange(count))
                return state
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            def step(action_mask, action: jax.Array):
                return jax.lax.select(action_mask[action], action, jnp.asarray(4, action.dtype))
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            def step(action_mask, action: jax.Array):
                return jnp.where(action_mask[action], action, 4)
        """, x64="on"),
        # With x64 off the 4 is int32, which the int32 arrays code makes match.
        Example("""
            import jax
            def step(action_mask, action: jax.Array):
                return jax.lax.select(action_mask[action], action, 4)
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            def get_valid_action(action_mask, action):
                return jax.lax.cond(action_mask[action], lambda: action, lambda: jnp.zeros_like(action))
        """, x64="on"),
        # An integer array makes the float branch differ whatever its width: no contract of x64.
        Example("""
            import jax
            def doubled(x):
                return jax.lax.cond(x.shape[0] > 1, lambda v: v * 2.0, lambda v: v, x)
        """, x64="on"),
        # A parameter annotated with a Python scalar type is taken at its word: both are scalars.
        Example("""
            import jax
            def pick(flag, a: int):
                return jax.lax.select(flag, a, 4)
        """, x64="on"),
        # A length the code counts with (`arange`'s stop) is an int, as if annotated: cr-nimble
        # 0.4.0's `werner_sorrows(n=512)` raises only for an int32 JAX array `n`.
        Example("""
            import jax
            import jax.numpy as jnp
            def ramp(n):
                t = jnp.arange(1, n + 1) / n
                def update(j, y):
                    return y + jnp.array([4.0, 5.0])[j] * t
                return jax.lax.fori_loop(0, 2, update, t)
        """, x64="on"),
    )

    def check(self, operation, operations: Sequence[Operation] = ()):
        """``operations``: the module's, among which the bodies of a lax loop or conditional are."""
        found = _bound_to_the_default(operation)
        if found is not None:
            yield self.finding(operation, _message(operation, *found))
        found = branches_bound_to_the_default(operation)
        if found is not None:
            defaults = defaults_in_bodies(operation, operations)
            yield self.finding(operation, _branches_message(operation, *found, defaults))

    def check_module(self, module):
        for operation in module.operations:
            yield from self.check(operation, module.operations)


def _bound_to_the_default(operation: Operation) -> tuple[str, str, tuple[str, ...]] | None:
    """With x64 on, a lax call whose Python scalar meets arrays of unknown dtype and that raises
    where those arrays are strong int32 (float32) JAX arrays but runs where they are int64
    (float64): the scalar's text kind, the narrow dtype, and the names of the variables."""
    if (operation.kind != OperationKind.CALL or not operation.op.startswith("jax.lax.") or not operation.ctx.x64
            or operation.symbolic_result is None or operation.call is None):  # fmt: skip
        return None
    positions = _promoted(operation)
    scalars = {operation.operands[i].dtype for i in positions
               if isinstance(operation.operands[i], Array) and operation.operands[i].library is Library.PYTHON
               and operation.operands[i].exact} & NARROW.keys()  # fmt: skip
    arrays = [variables_in(operation.symbolic_operands[i]) for i in positions]
    # a parameter annotated with a Python scalar type (or counted with) is taken at its word
    variables = frozenset(x for v in arrays for x in v if not x.scalar_annotated)
    if len(scalars) != 1 or not variables:
        return None
    wide = scalars.pop()
    kind, narrow = NARROW[wide]
    raised = with_arrays_of(operation.symbolic_result, variables, narrow)
    ran = with_arrays_of(operation.symbolic_result, variables, wide)
    if not (isinstance(raised, Refusal) and raised.error == "TypeError" and isinstance(ran, Array)):
        return None
    return kind, narrow, tuple(sorted(v.name for v in variables))


def _promoted(operation: Operation) -> list[int]:
    """The positions of the operands (a lax call's positional arguments) bound to the parameters
    whose dtypes must agree (``lax.select``'s `on_true` and `on_false`, not its `pred`); a last
    starred parameter (``select_n``'s `*cases`) takes the rest."""
    params = operation.call.fn.params
    arrays = operation.call.fn.arrays
    starred = params[-1].lstrip("*") if params and params[-1].startswith("*") else None
    return [i for i in range(len(operation.symbolic_operands))
            if (params[i] if i < len(params) - (starred is not None) else starred) in arrays]


def _branches_message(operation: Operation, reason: str, kind: str, narrow: str, names: tuple[str, ...],
                      defaults: list[str]) -> str:  # fmt: skip
    name = operation.op.removeprefix("jax.")
    which = _which(names)
    made = (f"{', '.join(defaults)} is 64-bit whatever {which} is" if defaults
            else f"one is 64-bit whatever {which} is (a Python {kind}, or JAX's default dtype)")  # fmt: skip
    return (f"With x64 on, `{name}` raises TypeError for {_a(narrow)} {which} and runs only for 64-bit ones: "
            f"{_DISAGREE[reason]}, and {made}. "
            f"Give it the array's dtype (`jnp.asarray(c, x.dtype)`, `jnp.zeros_like(x)`).")


def _message(operation: Operation, kind: str, narrow: str, names: tuple[str, ...]) -> str:
    name = operation.op.removeprefix("jax.")
    which = _which(names)
    equivalent = JNP_EQUIVALENTS.get(operation.op.removeprefix("jax.lax."))
    instead = f"use jnp.{equivalent}, which promotes weakly, or " if equivalent else ""
    return (f"With x64 on, the Python {kind} in `{name}` is 64-bit and lax does not promote: this raises "
            f"TypeError for {_a(narrow)} {which} and runs only for 64-bit ones. To accept both, "
            f"{instead}give the scalar the array's dtype (`jnp.asarray(c, x.dtype)`).")


def _which(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names) or "the array"


def _a(dtype: str) -> str:
    return f"an {dtype}" if dtype.startswith("int") else f"a {dtype}"

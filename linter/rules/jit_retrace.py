"""PRM026 jit-retrace: a jitted function called in a loop whose arguments change dtype or weak
type after the loop's first pass, so that JAX traces and compiles it again."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.engine.model import LoopCall, Module, sorted_entries
from promolint.engine.values import Array, Instance, Items, Keyed, Value, is_none
from promolint.rules.base import Example, Finding, Related, Rule, exact

_LONGEST_CALL = 60  # characters of the call's code quoted in the message


class JitRetrace(Rule):
    summary = (
        "Opt-in (select `PRM026`): flags a call of a jitted function in a `for` or `while` loop whose "
        "arguments have another dtype or weak type on the loop's later passes than on its first, mostly "
        "because the loop carries the function's own result back into it: a weak Python scalar or "
        "`jnp.asarray(0.0)` goes in first, a strong array comes back, and JAX traces and compiles the "
        "function again."
    )
    why = """
        `jax.jit` caches what it compiled by the dtype, weak type and shape of every argument
        leaf. A value the loop starts from a Python scalar (`x = 0`, `x = 0.0`) or from
        `jnp.asarray(0.0)` is weakly typed; what the jitted function returns is strong as soon
        as its body mixes it with a strong array. The second call then misses the cache: the
        function is traced and compiled twice, once for `weak int32` and once for `int32`
        (jax issues 3163 and 4274). For a large training step that is seconds to minutes at
        start-up: optax users measured about 8 s lost to one `avg_value=jnp.asarray(0.0)` in the
        optimizer state (optax issue 1440). With x64 on a Python float starts as `weak float64`
        and the second call may differ in dtype too.

        The rule compares the arguments the call gets on the loop's first pass with those on the
        second, leaf by leaf through tuples, lists, dicts and NamedTuples, and fires only where
        both are known exactly and differ. JAX compiles the function for each (where another
        call compiled one of them before, that one is served from the cache). A loop that runs
        once, or a call that a branch of the body skips on the first passes, may compile once
        only: the rule assumes a loop repeats its body. Weak types that stay weak (`x + i` of two
        Python ints returns a weak int32), calls outside loops, and functions JAX calls itself
        (a `lax.scan` body) are not reported. It is opt-in until the real-code primer has
        findings to measure its precision on: none of its projects calls a jitted function of
        its own in a loop with arguments the analysis knows.
    """
    fix_safety = """
        No automatic fix is offered: the value the loop starts from is often set far from the
        loop (in an `init` function), and a strong initial value changes what the first call
        computes where the weak one let the other operands decide its dtype. Give the initial
        value the strong dtype the function returns, `jnp.asarray(0, jnp.int32)` or
        `jnp.int32(0)` for `0`, `jnp.asarray(0.0, jnp.float32)` for `0.0`, or cast the
        argument where the loop starts.
    """
    invalid = (
        # jax issue 3163, with the index an int32 array element: `x + i` is strong from the
        # second call on.
        Example("""
            import jax
            import jax.numpy as jnp

            @jax.jit
            def my_fn(x, y):
                return x + y

            x = 0
            for i in jnp.arange(10, dtype=jnp.int32):
                x = my_fn(x, i)
        """),
        # jax issue 4274, in a training loop.
        Example("""
            import jax
            import numpy as np

            f = jax.jit(lambda x: x + np.float32(0.))
            x = 0.
            for _ in range(100):
                x = f(x)
        """),
        # optax issue 1440: reduce_on_plateau's state starts avg_value at jnp.asarray(0.0).
        Example("""
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp

            class PlateauState(NamedTuple):
                count: jax.Array
                avg_value: jax.Array

            @jax.jit
            def update(state, value):
                new_count = state.count + 1
                new_avg_value = (state.count * state.avg_value + value.astype(state.avg_value.dtype)) / new_count
                return state._replace(avg_value=new_avg_value, count=new_count)

            state = PlateauState(count=jnp.asarray(0, jnp.int32), avg_value=jnp.asarray(0.0))
            for loss in jnp.linspace(1.0, 0.1, 10):
                state = update(state, loss)
        """),
        # With x64 on a Python float starts as a weak float64: dtype and weak type change.
        Example("""
            import jax
            import jax.numpy as jnp

            weights = jnp.ones(3, jnp.float32)

            @jax.jit
            def accumulate(total, w):
                return total + jnp.sum(w)

            total = 0.0
            step = 0
            while step < 5:
                total = accumulate(total, weights)
                step += 1
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp

            @jax.jit
            def my_fn(x, y):
                return x + y

            x = jnp.asarray(0, jnp.int32)
            for i in jnp.arange(10, dtype=jnp.int32):
                x = my_fn(x, i)
        """),
        # jax issue 3163 as reported: weak plus weak stays weak, the function compiles once.
        Example("""
            import jax

            @jax.jit
            def my_fn(x, y):
                return x + y

            x = 0
            for i in range(10):
                x = my_fn(x, i)
        """),
        Example("""
            import jax
            import numpy as np

            f = jax.jit(lambda x: x + np.float32(0.))
            x = np.float32(0.)
            for _ in range(100):
                x = f(x)
        """),
        Example("""
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp

            class PlateauState(NamedTuple):
                count: jax.Array
                avg_value: jax.Array

            @jax.jit
            def update(state, value):
                new_count = state.count + 1
                new_avg_value = (state.count * state.avg_value + value.astype(state.avg_value.dtype)) / new_count
                return state._replace(avg_value=new_avg_value, count=new_count)

            state = PlateauState(count=jnp.asarray(0, jnp.int32), avg_value=jnp.asarray(0.0, jnp.float32))
            for loss in jnp.linspace(1.0, 0.1, 10):
                state = update(state, loss)
        """),
        # A static argument is part of the cache key by value, not by type.
        Example("""
            from functools import partial

            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=1)
            def scale(x, factor):
                return x * factor

            x = jnp.ones(3, jnp.float32)
            for _ in range(3):
                x = scale(x, 2)
        """),
    )

    def check_module(self, module: Module) -> Iterator[Finding]:
        reported: set[int] = set()
        for call in module.loop_calls:
            if id(call.node) in reported:
                continue  # analysed again in another mode, or on another pass of an outer loop
            finding = self._check_call(call)
            if finding is not None:
                reported.add(id(call.node))
                yield finding

    def _check_call(self, call: LoopCall) -> Finding | None:
        second = dict(call.second)
        for param, first_value in call.first:
            if param not in second:
                continue
            difference = _first_difference(first_value, second[param])
            if difference is not None:
                return self._finding(call, param, *difference)
        return None

    def _finding(self, call: LoopCall, param: str, path: str, first: Array, later: Array) -> Finding:
        syntax = call.syntax
        code = syntax.text(call.node) if syntax else ""
        shown = f"`{code}`" if code and len(code) <= _LONGEST_CALL and "\n" not in code else "This call"
        carried = dict(call.carried).get(param)
        argument = f"`{carried.name if carried else param}{path}`"
        if carried is not None and carried.name != param:
            argument += f" (parameter `{param}`)"
        message = (f"{shown} passes {argument} as {first.describe()} on the loop's first pass and as "
                   f"{later.describe()} on the next: JAX traces and compiles the jitted function for each.")
        related: tuple[Related, ...] = ()
        if later.weak:
            advice = "Give every call the same weak type: make the function return a strong value."
        else:
            cast = f"the strong dtype {later.dtype} (`jnp.asarray(..., jnp.{later.dtype})` or `jnp.{later.dtype}(...)`)"
            if carried is None:
                advice = f"Give the first call's argument {cast}."
            else:
                leaf = f"`{carried.name}{path}`" if path else "it"
                start = ""
                if carried.bound_at is not None and syntax:
                    start = f", starting from the value set at line {syntax.line(carried.bound_at)}"
                    related = (Related(carried.bound_at, f"`{carried.name}{path}` starts here as {first.describe()}"),)
                advice = f"The loop carries `{carried.name}` from pass to pass{start}: give {leaf} {cast}."
        return Finding(self.code, f"{message} {advice}", call.node, related=related)


def _first_difference(first: Value, later: Value) -> tuple[str, Array, Array] | None:
    """The first leaf (its path, and its two values) whose dtype or weak type surely differs
    between the two arguments: a pytree leaf known exactly in both; None where there is none."""
    later_leaves = dict(_leaves(later))
    for path, a in _leaves(first):
        a, b = exact(a), exact(later_leaves.get(path))
        if a is not None and b is not None and (a.dtype, a.weak) != (b.dtype, b.weak):
            return path, a, b
    return None


def _leaves(value: Value, path: str = "") -> list[tuple[str, Value]]:
    """A pytree's leaves with their paths (``[0]``, ``['w']``, ``.avg_value``): where it is known,
    its structure says where each leaf is, whatever the unknown parts hold."""
    if isinstance(value, Items):
        members = [(f"{path}[{index}]", item) for index, item in enumerate(value.items)]
    elif isinstance(value, Keyed) and sorted_entries(value) is not None:
        members = [(f"{path}[{key!r}]", item) for key, item in sorted_entries(value) or ()]
    elif isinstance(value, Instance):
        members = [(f"{path}.{name}", item) for name, item in value.fields]
    elif is_none(value):
        return []
    else:
        return [(path, value)]
    return [leaf for member_path, member in members for leaf in _leaves(member, member_path)]

"""PRM010 x64-dependent-dtype: an expression whose dtype changes with ``jax_enable_x64``."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.engine.model import Operation
from promolint.engine.values import Array, DTypeRef, Refusal, Value
from promolint.rules.base import Example, Finding, Rule


class X64Portability(Rule):
    """Reads a pair of analyses of one file, x64 off and x64 on, through ``check_pair``."""

    summary = (
        "With `--x64-portability` (or `x64-portability = true`, or selecting `PRM010`), analyzes each "
        "file with x64 off and with x64 on and flags the expressions where a dtype starts to depend "
        "on `jax_enable_x64`: their operands agree in both modes, their results do not. Expressions "
        "that only inherit such a dtype are not flagged again."
    )
    why = """
        Code tested with one x64 setting runs with the other elsewhere: a library imported by a
        program that enables x64, a test suite that turns it on to compare against NumPy. Every
        JAX default dtype (`jnp.zeros(n)`, `jnp.arange(n)`, `jnp.asarray(1.0)`,
        `jax.random.normal(key, shape)`) doubles its width with x64 on, and with it memory,
        bandwidth and, on GPUs and TPUs, the speed of every operation downstream; explicit
        64-bit requests are narrowed with x64 off. This report lists where each difference
        enters, so a code base can pin its dtypes before depending on either mode.
    """
    fix_safety = """
        No automatic fix is offered: whether 32 or 64 bits were meant is for the author to say.
        Write the dtype explicitly (`dtype=jnp.float32`), or convert once where data enters.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            weights = jnp.zeros(3)
        """),
        Example("""
            import jax.numpy as jnp
            steps = jnp.arange(10) * 2
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            weights = jnp.zeros(3, dtype=jnp.float32)
        """),
        Example("""
            import numpy as np
            weights = np.zeros(3)
        """),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        return iter(())  # one analysis cannot tell: check_pair compares two

    def check_pair(self, x32: Operation, x64: Operation) -> Iterator[Finding]:
        """``x32`` and ``x64`` are the same operation analyzed with x64 off and on."""
        if not (_known(x32.result) and _known(x64.result)) or _signature(x32.result) == _signature(x64.result):
            return
        if any(_signature(a) != _signature(b) for a, b in zip(x32.operands, x64.operands)):
            return  # inherited from an operand: reported where it entered
        yield self.finding(x32, f"dtype depends on jax_enable_x64: {_describe(x32.result)} with x64 off, "
                           f"{_describe(x64.result)} with x64 on. Write the dtype explicitly if the code "
                           "must behave alike in both modes.")  # fmt: skip


def _known(value: Value) -> bool:
    """Only exact results are compared: a candidate set or an unknown is never reported."""
    return isinstance(value, Refusal) or (isinstance(value, Array) and value.exact)


def _signature(value: Value) -> tuple:
    """What must agree between the modes."""
    if isinstance(value, Array):
        return (value.dtypes, value.weak, value.library)
    if isinstance(value, Refusal):
        return (value.error,)
    if isinstance(value, DTypeRef):
        return (value.name,)
    return ("other",)


def _describe(value: Value) -> str:
    if isinstance(value, Refusal):
        return f"{value.error}"
    assert isinstance(value, Array)
    return f"{value.describe()} [{value.library.value}]"

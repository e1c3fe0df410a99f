"""PRM007 x64-truncation: an explicit 64-bit dtype JAX silently narrows with x64 off."""

from __future__ import annotations

from linter.dtypes import is_64bit, narrow_x32
from linter.engine.values import Library
from linter.rules.base import Example, Rule


class X64Truncation(Rule):
    code = "PRM007"
    name = "x64-truncation"
    summary = (
        "Flags explicit 64-bit dtype requests in JAX while x64 is off (`dtype=jnp.float64`, "
        "`jnp.float64(1)`, `.astype(jnp.float64)`): JAX warns and gives the 32-bit dtype."
    )
    why = """
        With `jax_enable_x64` off, JAX truncates every explicitly requested 64-bit dtype to 32 bits
        (a UserWarning by default, a ValueError with `jax_explicit_x64_dtypes='error'`). The code
        reads as float64 but computes in float32.
    """
    fix_safety = """
        `promolint check --fix` writes the dtype JAX really uses (`jnp.float32`) with a comment; if
        64 bits were meant, enable x64 instead.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float64)
        """),
        Example("""
            import jax.numpy as jnp
            z = jnp.float64(1)
        """),
        Example("""
            import jax.numpy as jnp
            z = jnp.ones(3).astype("float64")
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float32)
        """),
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float64)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            z = jnp.array(1.0, dtype=float)
        """),
        Example("""
            import numpy as np
            z = np.zeros(3, dtype=np.float64)
        """),
    )

    def check(self, operation):
        call = operation.call
        if call is None or operation.ctx.x64 or operation.ctx.explicit_x64 == "allow":
            return
        if call.fn.library is not Library.JAX:
            return
        ref = call.requested_dtype()
        if ref is None or ref.builtin or not is_64bit(ref.name):
            return
        yield self.finding(operation, f"{ref.name} requested while x64 is off: JAX truncates it to "
                           f"{narrow_x32(ref.name)} (with a UserWarning). Write {narrow_x32(ref.name)}, or enable "
                           "jax_enable_x64 if 64 bits are needed.")  # fmt: skip

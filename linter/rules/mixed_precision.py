"""PRM023 mixed-precision: half-precision JAX data promoted by a wider float (opt-in)."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.core.dtypes import DTYPES
from promolint.engine.model import Operation, OperationKind
from promolint.engine.values import Library
from promolint.rules.base import Example, Finding, Rule, exact
from promolint.rules.shared.promoted import promoted

_HALF = frozenset({"bfloat16", "float16"})


class MixedPrecision(Rule):
    summary = (
        "Opt-in, for mixed-precision code: flags JAX operations where bfloat16 or float16 data meets a "
        "strong wider float (float32 parameters, a NumPy float32 constant) and the result is the wider "
        "float."
    )
    why = """
        Mixed-precision training keeps activations in bfloat16 or float16 to halve memory and
        bandwidth. One float32 operand undoes it: `bf16_activations @ f32_weights` and
        `bf16_x * np.float32(0.5)` are float32, and so is everything computed from them (jax
        issue 7368), silently, since standard promotion accepts it. bfloat16 with float16 is
        float32 too. Python scalars are weak and keep the half-precision dtype.
    """
    fix_safety = """
        No automatic fix is offered: which precision the operation should run in is a design
        choice. Cast the wider operand down (`w.astype(jnp.bfloat16)`), or cast the
        half-precision one up explicitly where float32 is wanted.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            activations = jnp.ones((4, 8), jnp.bfloat16)
            weights = jnp.ones((8, 2), jnp.float32)
            out = activations @ weights
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            scaled = jnp.ones(8, jnp.bfloat16) * np.float32(0.5)
        """),
        Example("""
            import jax.numpy as jnp
            mixed = jnp.ones(8, jnp.bfloat16) + jnp.ones(8, jnp.float16)
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            activations = jnp.ones((4, 8), jnp.bfloat16)
            weights = jnp.ones((8, 2), jnp.float32)
            out = activations @ weights.astype(jnp.bfloat16)
        """),
        Example("""
            import jax.numpy as jnp
            scaled = jnp.ones(8, jnp.bfloat16) * 0.5
        """),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        inputs = promoted(operation)
        result = exact(operation.result)
        if (inputs is None or inputs.library is not Library.JAX or result is None
                or operation.kind == OperationKind.COMPARE):
            return
        if DTYPES[result.dtype].kind != "f" or result.dtype in _HALF:
            return
        strong = inputs.strong()
        half = next((v for v in strong if v.dtypes and v.dtypes <= _HALF), None)
        wider = next((v for v in strong if v is not half and v.dtypes and all(DTYPES[d].kind == "f" for d in v.dtypes)),
                     None)  # fmt: skip
        if half is None or wider is None:
            return
        yield self.finding(operation, f"{half.describe()} data meets {wider.describe()} here and becomes "
                           f"{result.dtype}: this and what is computed from it run in {result.dtype}. Cast the "
                           f"{wider.describe()} operand to {half.describe()} if the half precision is meant.")  # fmt: skip

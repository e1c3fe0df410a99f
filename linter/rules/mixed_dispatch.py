"""PRM002 mixed-dispatch: NumPy/JAX/Python chains whose dtype depends on their association."""

from __future__ import annotations

from promolint.engine.context import X64_BY_USER
from promolint.engine.values import Library, Value
from promolint.rules.base import Edit, Example, Fix, OtherMode
from promolint.rules.shared.chains import ChainRule, bracketings, chain_nodes
from promolint.rules.shared.rewrites import JNP_IMPORT, jax_asarray, same_dtype


class MixedDispatch(ChainRule):
    cause = "NumPy promotes its own operands first, JAX the rest. Convert NumPy values with jnp.asarray first."
    summary = (
        "Flags chains of NumPy, JAX and Python operands whose dtype or weak flag depends on how the "
        "chain is associated, because NumPy evaluates the NumPy-only part with NumPy's rules and JAX "
        "the rest with its own."
    )
    fix_safety = """
        `promolint check --fix` converts the NumPy operands once, up front, with
        `jnp.asarray(...)`, when every order of the converted chain then gives one dtype. The fix
        is safe when that dtype and weak flag are the ones of the chain as written
        (`jnp.bfloat16(1) + np.uint8(1) + 1.0` stays bfloat16). Otherwise it is unsafe, applied
        only with `--unsafe-fixes`, and its title says how the result changes:
        `np.uint8(1) + 1.0 + jnp.bfloat16(1)` becomes bfloat16 instead of float32.
    """
    why = """
        `np.uint8(1) + 1.0 + jnp.bfloat16(1)` is float32 but `np.uint8(1) + (1.0 + jnp.bfloat16(1))` is
        bfloat16: NumPy first turns `np.uint8(1) + 1.0` into a strong float64, which JAX then promotes
        with bfloat16. A refactoring that reorders terms changes the dtype of the result.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = np.uint8(1) + 1.0 + jnp.bfloat16(1)
        """, expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            c = jnp.asarray(np.uint8(1)) + 1.0 + jnp.bfloat16(1)
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = np.int8(1) + 1.0 + jnp.float16(1)
        """, expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            c = jnp.asarray(np.int8(1)) + 1.0 + jnp.float16(1)
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = jnp.asarray(np.uint8(1)) + 1.0 + jnp.bfloat16(1)
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = np.int16(1) + 1 + jnp.int16(1)
        """),
    )

    def applies(self, libraries):
        return Library.JAX in libraries and len(libraries) > 1

    def fix(self, operation):
        nodes = chain_nodes(operation) if operation.syntax else ()
        if len(nodes) != len(operation.chain):
            return None
        fixed = _converted(operation)
        if fixed is None:
            return None
        written = operation.result
        title = "Convert the NumPy operands with jnp.asarray first"  # what an unsafe one changes: lint._weighed
        safe = same_dtype(fixed, written)
        converted = tuple(i for i, value in enumerate(operation.chain) if value.library.is_numpy)
        edits = tuple(Edit(nodes[i], "jnp.asarray({0})", (nodes[i],)) for i in converted)
        other_mode = None
        if safe and operation.ctx.x64_by != X64_BY_USER:  # NumPy's and JAX's defaults follow x64 apart
            other_mode = OtherMode(not operation.ctx.x64, lambda other: _keeps(other, converted))
        return Fix(title, edits, safe=safe, imports=(JNP_IMPORT,), other_mode=other_mode)


def _converted(operation) -> Value | None:
    """The chain's result once its NumPy operands are converted up front, when every order of
    it then gives one dtype; else None."""
    leaves = tuple(jax_asarray(v, operation.ctx) if v.library.is_numpy else v for v in operation.chain)
    outcomes = [value for _, value in bracketings(operation.op, leaves, operation.chain_text, operation.ctx)]
    return outcomes[0] if all(same_dtype(value, outcomes[0]) for value in outcomes) else None


def _keeps(other, converted: tuple[int, ...]) -> bool:
    """Whether converting the same operands keeps the chain's dtype in ``other``, the chain as
    the analysis in the other x64 mode sees it."""
    if other is None or not other.chain:
        return False
    if tuple(i for i, value in enumerate(other.chain) if value.library.is_numpy) != converted:
        return False
    fixed = _converted(other)
    return fixed is not None and same_dtype(fixed, other.result)

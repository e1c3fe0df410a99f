"""PRM100 unused-noqa: the checker's own report of `# noqa` directives that suppress nothing."""

from __future__ import annotations

from promolint.rules.base import Example, Rule


class UnusedNoqa(Rule):
    """Reported by the checker, not from operations."""

    summary = (
        "With `--report-unused-noqa` (or `report-unused-noqa = true`), flags `# noqa` directives that "
        "suppress nothing on their line. The message lists the codes: unused (the rule is enabled and "
        "did not fire there), non-enabled (the rule is not enabled for the file) and unknown."
    )
    why = """
        A `# noqa` outlives the finding it was written for: once the code is fixed, the stale
        directive silently hides the next real finding on that line. A `# noqa` for a rule that is
        not enabled cannot be judged by this run; it is reported as non-enabled, not as unused.
    """
    fix_safety = """
        Remove the codes the message lists, or the whole directive when it lists them all.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32) + 1  # noqa: PRM006
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006
        """),
    )

    def check(self, operation):
        return iter(())

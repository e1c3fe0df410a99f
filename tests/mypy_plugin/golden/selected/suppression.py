# promolint mypy plugin golden output -- mypy 2.4.1, config selected: {"ignore": ["PRM006", "PRM007"], "select": ["PRM00"]}
# mypy: disable-error-code="promolint-x64-truncation"
"""Suppression: mypy's own ``# type: ignore[...]`` and error-code switches, and promolint's ``# noqa``."""
import jax.numpy as jnp

x = jnp.ones(3, jnp.int8)
ignored = x + 1000  # type: ignore[promolint-literal-overflow]
wrong_code = x + 1000  # type: ignore[misc]
blanket = x + 1000  # type: ignore
noqa = x + 1000  # noqa: PRM006
other_noqa = x + 1000  # noqa: PRM001
disabled = jnp.zeros(3, dtype=jnp.float64)

# promolint mypy plugin golden output -- mypy 2.4.1, config x64-on: {"extend-select": ["PRM001"], "x64": "on"}
# mypy: disable-error-code="promolint-x64-truncation"
"""Suppression: mypy's own ``# type: ignore[...]`` and error-code switches, and promolint's ``# noqa``."""
import jax.numpy as jnp

x = jnp.ones(3, jnp.int8)
ignored = x + 1000  # type: ignore[promolint-literal-overflow]
wrong_code = x + 1000  # type: ignore[misc]
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
# MYPY: note: Error code "promolint-literal-overflow" not covered by "type: ignore[misc]" comment
blanket = x + 1000  # type: ignore
noqa = x + 1000  # noqa: PRM006
other_noqa = x + 1000  # noqa: PRM001
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
disabled = jnp.zeros(3, dtype=jnp.float64)

"""Which files cannot produce a finding, decided from their bytes without analyzing them.

Every rule needs a NumPy or JAX value, and the engine makes those only from names rooted in the
modules below (imports, annotations such as ``chex.Array``).  A file whose text never mentions
any of them can only yield a parse error, so it is parsed and not analyzed.
"""

from __future__ import annotations

import re

# Every module the engine's catalog and annotations resolve names from.
ARRAY_MODULES = ("numpy", "jax", "jaxlib", "ml_dtypes", "jaxtyping", "chex")
_MENTIONS = re.compile("|".join(ARRAY_MODULES).encode())


def may_have_findings(data: bytes) -> bool:
    return _MENTIONS.search(data) is not None


def may_switch_x64(data: bytes) -> bool:
    """Whether a file may set JAX's x64 mode (the option's or its environment variable's name
    appears): only such files feed the project pre-scan (``promolint.driver.project``)."""
    return b"jax_enable_x64" in data or b"JAX_ENABLE_X64" in data


def parses(data: bytes, python: tuple[int, int] | None = None) -> bool:
    """True when the file parses with the grammar of ``python`` (the target version; None for
    the running Python's): False means the analysis reports why it does not."""
    from promolint.engine.walker.source import ParseFailure, parse_bytes  # loads the engine: a cached run needs none

    return not isinstance(parse_bytes(data, python), ParseFailure)

"""Which files cannot produce a finding, decided from their bytes without the libcst parse.

Every rule needs a NumPy or JAX value, and the engine makes those only from names rooted in the
modules below (imports, annotations such as ``chex.Array``).  A file whose text never mentions
any of them can only yield a parse error, which ``ast`` finds ten times faster than libcst.
"""

from __future__ import annotations

import ast
import re
import warnings

# Every module the engine's catalog and annotations resolve names from.
ARRAY_MODULES = ("numpy", "jax", "jaxlib", "ml_dtypes", "jaxtyping", "chex")
_MENTIONS = re.compile("|".join(ARRAY_MODULES).encode())


def may_have_findings(data: bytes) -> bool:
    return _MENTIONS.search(data) is not None


def parses_with_ast(data: bytes) -> bool:
    """True when Python's own parser accepts the file; False means libcst must decide (it
    accepts newer syntax than the running Python)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like
            ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True

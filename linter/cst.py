"""promolint's findings and fixes on libcst trees, at the path users' codemod commands name
(``python -m libcst.tool codemod -x promolint.cst.StrictCasts PATH``).

The code lives in ``promolint.integrations.cst``; this module keeps the path users configure.
"""

from promolint.integrations.cst import CSTFinding, StrictCasts, findings, smallest_change

__all__ = ["CSTFinding", "StrictCasts", "findings", "smallest_change"]

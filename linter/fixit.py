"""promolint's rules as Fixit rules, at the path ``[tool.fixit] enable = ["promolint.fixit"]`` names.

The rules live in ``promolint.integrations.fixit``; this module keeps the path users configure.
"""

from promolint.integrations.fixit import *  # noqa: F403
from promolint.integrations.fixit import __all__  # noqa: F401

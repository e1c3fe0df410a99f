# ruff: noqa: F841
"""promolint check on this file alone cannot know the dtypes: the plugin (and check on the package) can."""
import numpy as np

from crossmod import helpers
from crossmod.helpers import REBOUND, WEIGHTS, WRAPPED, counts, quantized

wrapped = WEIGHTS + 1000
via_module = helpers.WEIGHTS + 1000
after_report = WRAPPED + 1000
promoted = counts() + np.ones(3, np.float32)
rebound = REBOUND + 1000
unknown = quantized() + 1000


def inside() -> None:
    in_function = WEIGHTS + 1000

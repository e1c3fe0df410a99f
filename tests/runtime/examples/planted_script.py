"""Plants a disagreement: every float16 value counts as a disagreement, as if the engine
had predicted something else.  `promolint run --mode raise` must stop at the first one."""

import numpy as np

from promolint.runtime import units

units.judge = lambda predicted, observed: "disagree" if observed["dtype"] == "float16" else "agree"

ok = np.float32(1) + 1
half = np.float16(1) + 1  # the first float16 value
print("not reached")

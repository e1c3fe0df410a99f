"""Static coverage (promolint.driver.reveal.coverage): which of reveal's records count, and as known."""

from __future__ import annotations

import textwrap

from promolint.engine.walker.analysis import Settings
from promolint.driver.reveal import concrete_share, coverage, reveal_records, symbolic_share

SNIPPET = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp
    import numpy as np


    def f(x: jax.Array, flag, thing):
        a = jnp.ones(3)
        b = x + 1
        c = 2.0 * 3
        d = np.float32(1) if flag else np.float64(1)
        e = thing.compute(a)
        return a, b, c, d, e
""")


def test_coverage_counts_numpy_and_jax_expressions_known_exactly_or_as_candidates() -> None:
    records = reveal_records(SNIPPET.encode(), Settings("auto", "auto"))
    counted = {(r["line"], r["column"], r["text"]): r["dtype"] is not None for r in records
               if not r["target"] and r["library"] in ("jax", "numpy-array", "numpy-scalar")}  # fmt: skip
    assert counted == {
        (7, 9, "jnp.ones(3)"): True,
        (8, 9, "x"): True,  # a JAX array (annotated) of unknown dtype: known as the dtype of x
        (8, 9, "x + 1"): False,  # the dtype of x, but a bool x gives int32: a table, not a claim here
        (10, 9, "np.float32(1)"): True,
        (10, 9, "np.float32(1) if flag else np.float64(1)"): True,  # float32|float64: a candidate set
        (10, 36, "np.float64(1)"): True,
        (11, 23, "a"): True,
        (12, 12, "a"): True,
        (12, 15, "b"): False,
        (12, 21, "d"): True,
    }
    # Not sites: Python scalars (`2.0 * 3`), values of no known library (`thing.compute(a)`),
    # assignment targets and parameters.
    assert coverage(records) == (8, 10)
    assert symbolic_share(records) == 1
    # One concrete dtype: not `x` (the dtype of x), not the float32|float64 join nor `d`, which holds it.
    assert concrete_share(records) == 5


def test_coverage_of_records_as_reveal_json_gives_them() -> None:
    records = [
        {"target": False, "library": "jax", "dtype": "float32"},
        {"target": False, "library": "numpy-scalar", "dtype": "float32|float64"},
        {"target": False, "library": "numpy-array", "dtype": None},
        {"target": True, "library": "jax", "dtype": "float32"},
        {"target": False, "library": "python", "dtype": "float"},
        {"target": False, "library": None, "dtype": None},  # unknown, or a refusal
    ]
    assert coverage(records) == (2, 3)
    assert concrete_share(records) == 1
    assert coverage([]) == (0, 0)

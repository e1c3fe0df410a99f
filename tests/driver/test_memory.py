"""A worker's memory does not grow with the number of files it lints: nothing of one file's
analysis outlives it (bench.py reports the peaks; this pins the cause of growth, retention)."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest

from promolint.driver.jobs import LintJob, check_job, fix_job, reveal_job
from promolint.driver.lint import lint_source
from promolint.engine.walker.analysis import Analysis, Settings
from promolint.rules import RULES

FIXTURES = Path(__file__).parents[2] / "fixtures"
_ALLOWED_GROWTH = 256 * 1024  # bytes over 35 files: a leak of one analysis per file is ~1 MB each


def test_linting_more_files_retains_nothing() -> None:
    codes = frozenset(rule.code for rule in RULES)
    every_rule = b"".join(path.read_bytes() for path in sorted(FIXTURES.glob("PRM*.py")))
    # Distinct files, so that nothing is served from a cache keyed by content.
    files = [every_rule + f"\nvalue_{i} = jnp.ones({i}, jnp.float32) * {i}.5 + np.float64({i})\n".encode()
             for i in range(100)]  # fmt: skip
    for data in files[:20]:  # settle what the first files load and memoize
        lint_source(data, "module.py", Settings(), codes)
    tracemalloc.start()
    try:
        for data in files[20:30]:
            assert lint_source(data, "module.py", Settings(), codes)
        growths = []
        for window in (files[30:65], files[65:]):
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            for data in window:
                lint_source(data, "module.py", Settings(), codes)
            gc.collect()
            growths.append(tracemalloc.get_traced_memory()[0] - before)
    finally:
        tracemalloc.stop()
    # What each file retains grows in both windows alike; a one-off allocation of the process in
    # one of them (a 3.8 MB block of the parser, seen once under xdist after other tests) does not.
    assert min(growths) < _ALLOWED_GROWTH


def test_an_analysis_is_freed_without_the_cyclic_collector() -> None:
    """Reference counting frees a file's analysis as soon as it has been read: the collector,
    which would traverse each of its objects to find it unreachable, finds nothing."""
    codes = frozenset(rule.code for rule in RULES)
    every_rule = b"".join(path.read_bytes() for path in sorted(FIXTURES.glob("PRM*.py")))
    lint_source(every_rule, "module.py", Settings(), codes)  # what the first file loads and memoizes
    gc.collect()
    gc.disable()
    try:
        assert lint_source(every_rule, "module.py", Settings(), codes)
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("job", [check_job, fix_job, reveal_job], ids=["check", "fix", "reveal"])
def test_every_job_analyzes_without_the_cyclic_collector(job, monkeypatch) -> None:
    """A file's syntax tree and analysis are hundreds of thousands of young objects: a job runs
    the analysis with the collector off (else it traverses them again and again, a quarter of
    the run) and turns it on again after, collecting only the youngest generation."""
    enabled_during = []
    run = Analysis.run

    def watched(analysis):
        enabled_during.append(gc.isenabled())
        return run(analysis)

    monkeypatch.setattr(Analysis, "run", watched)
    codes = frozenset(rule.code for rule in RULES)
    data = b"import jax.numpy as jnp\nx = jnp.ones(3, jnp.float32) + 2.5\n"
    assert gc.isenabled()
    job(LintJob("module.py", data, Settings(), codes))
    assert enabled_during and not any(enabled_during)
    assert gc.isenabled()

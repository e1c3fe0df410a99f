"""The primer's summary and diff (tests/primer/_report.py) state static coverage three ways: known
(one dtype, candidates or the dtype of a parameter), of one concrete dtype, and unknown; a base
run older than the concrete count shows a dash, not a zero."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import diff, summary  # noqa: E402


def _project(name: str, coverage: dict) -> dict:
    return {"name": name, "version": "1.0", "error": None, "files": 2, "lines": 100, "coverage": coverage,
            "modes": {"default": {"wall_s": 1.0, "crash": None, "findings": [], "internal_errors": [],
                                  "unparsable": []}}}  # fmt: skip


def _run(revision: str, *projects: dict) -> dict:
    return {"revision": revision, "modes": ["default"], "jobs": 1, "wall_s": 2.0, "projects": list(projects)}


HEAD = _run("head", _project("a", {"known": 6, "sites": 10, "concrete": 4, "wall_s": 1.0, "failures": []}),
            _project("b", {"known": 2, "sites": 10, "concrete": 1, "wall_s": 1.0, "failures": []}))  # fmt: skip
OLD = _run("base", _project("a", {"known": 5, "sites": 10, "wall_s": 1.0, "failures": []}))


def test_summary_gives_known_concrete_and_unknown_shares() -> None:
    text = summary(HEAD, {}, {})
    assert ("40.0% (8/20) of NumPy/JAX value sites are known, 25.0% (5/20) of one concrete dtype (not candidates, "
            "not the dtype of a parameter), 60.0% (12/20) unknown.") in text
    assert "| a 1.0 | 2 | 100 | 60.0% (6/10) | 40.0% (4/10) |" in text
    assert "| **total** | 4 | 200 | 40.0% (8/20) | 25.0% (5/20) |" in text


def test_diff_shows_concrete_coverage_and_a_dash_where_the_base_did_not_count_it() -> None:
    text = diff(HEAD, OLD, {}, {})
    assert "| a | 50.0% (5/10) | 60.0% (6/10) | — | 40.0% (4/10) |" in text

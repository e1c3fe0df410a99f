"""The run-time primer's suites file and what it makes of its runs (no download, no suite run:
the primer itself is a benchmark, ``python tests/primer/runtime.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

PRIMER = Path(__file__).resolve().parent.parent / "primer" / "runtime.py"


@pytest.fixture(scope="module")
def primer():
    spec = importlib.util.spec_from_file_location("promolint_runtime_primer", PRIMER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name)


def test_every_suite_is_pinned(primer):
    distributions, projects = primer.load_suites()
    assert len(projects) >= 3
    for distribution in distributions.values():
        assert all(c in "0123456789abcdef" for c in distribution.sha256), distribution.name
        assert distribution.file.endswith(".whl" if distribution.kind == "wheel" else ".tar.gz")
    for project in projects.values():
        assert project.tests and project.package and project.tests_in in project.install


def test_a_suite_naming_an_unpinned_distribution_is_refused(primer, tmp_path):
    suites = tmp_path / "suites.toml"
    suites.write_text('[project.p]\npackage = "p"\ninstall = ["p"]\ntests_in = "p"\ncwd = "p"\ntests = ["t.py"]\n')
    with pytest.raises(ValueError, match=r"unpinned distributions \['p'\]"):
        primer.load_suites(suites)


def _run(primer, variant, tests, report=None):
    return primer.Run("demo", "off", variant, seconds=1.0, status=0, tests=tests, report=report)


def _report(agree, disagree, array_sites, predicted_sites, mismatches=()):
    counts = {"agree": agree, "disagree": disagree, "unknown": 3, "unchecked": 2, "evaluations": 50,
              "shim_errors": 0}  # fmt: skip
    return {"counts": counts, "coverage": {"array_sites": array_sites, "predicted_sites": predicted_sites},
            "mismatches": list(mismatches), "shim_errors": []}  # fmt: skip


def test_summary_gives_coverage_from_the_code_run_and_the_tests_the_shim_changed(primer):
    mismatch = {"path": "/v/lib/python3.11/site-packages/demo/ops.py", "line": 4, "column": 12, "text": "a**n",
                "observed": {"dtype": "float32", "weak": False, "library": "jax"},
                "predicted": {"dtype": "float32", "weak": True, "library": "jax"},
                "jax_mode": "x64 off, standard promotion", "arguments": ""}  # fmt: skip
    runs = [
        _run(primer, "baseline", {"t::a": "passed", "t::b": "passed", "t::c": "failed"}),
        _run(primer, "arguments", {"t::a": "passed", "t::b": "passed", "t::c": "failed"},
             _report(9, 1, 10, 10, [mismatch])),  # fmt: skip
        _run(primer, "code", {"t::a": "passed", "t::b": "failed", "t::c": "failed"}, _report(5, 0, 10, 4)),
    ]
    summary = primer.summarize(runs)
    entry = summary["projects"]["demo"]["x64 off"]
    assert entry["runtime_coverage"] == 0.4
    assert entry["arguments"]["disagreements"] == [
        "demo/ops.py:4:12: `a**n` observed float32 [jax], predicted weak float32 [jax] (x64 off, standard promotion)"
    ]
    assert entry["arguments"]["changed_tests"] == []
    assert entry["code"]["changed_tests"] == ["t::b: passed without the shim, failed with it"]
    table = primer.markdown(summary)
    assert "| demo | off | 2/1/0 | 10 | 4 | 40.0% | 9 / 1 / 3 / 2 | 5 / 0 / 3 / 2 | 0 / 0 | 1 |" in table
    assert "t::b: passed without the shim, failed with it" in table


def test_a_run_that_timed_out_changes_no_test_and_says_so(primer):
    runs = [_run(primer, "baseline", {"t::a": "passed"}), _run(primer, "code", {})]
    runs[1].status = None  # what run_suite leaves when the suite ran past --timeout
    entry = primer.summarize(runs)["projects"]["demo"]["x64 off"]
    assert entry["code"]["timed_out"] and entry["code"]["changed_tests"] == []
    assert "| timed out |" in primer.markdown(primer.summarize(runs))


def test_a_run_without_the_baseline_shows_no_tests_and_no_changed_tests(primer):
    """--no-baseline runs no suite without the shim: the table has no tests to show or compare,
    not 0/0/0 and 0 changed."""
    summary = primer.summarize([_run(primer, "code", {"t::a": "passed"}, _report(5, 0, 10, 4))])
    assert "| demo | off | - | 10 | 4 | 40.0% | no report | 5 / 0 / 3 / 2 | - / 0 | - |" in primer.markdown(summary)

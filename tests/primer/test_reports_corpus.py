"""The corpus of reported promotion surprises (tests/primer/reports.toml): it parses, every
entry names its report, mode, problem line and recorded outcome, and ``promolint check`` reads every
snippet, with the default rules and with every rule, without an internal error.

Whether promolint finds each problem is measured by tests/primer/reports.py, not asserted here (the
figures move as the engine improves); rerunning the snippets under JAX is its ``--verify``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PRIMER = Path(__file__).resolve().parent
sys.path.insert(0, str(PRIMER))
from reports import KINDS, RULE_SETS, CorpusError, lint, load  # noqa: E402

META, REPORTS = load()


def test_the_corpus_names_its_versions_and_holds_at_least_thirty_distinct_reports() -> None:
    assert META["jax"] and META["numpy"]
    assert len(REPORTS) >= 30
    assert len({report.url for report in REPORTS}) == len(REPORTS)


@pytest.mark.parametrize("report", REPORTS, ids=lambda report: report.id)
def test_each_entry_is_complete(report) -> None:
    assert report.url.startswith("https://github.com/") and report.repository in report.url
    assert report.title and report.pattern and report.outcome
    assert report.kind in KINDS
    assert report.reported[:2] in ("19", "20")
    lines = report.snippet.splitlines()
    assert all(lines[line - 1].strip() for line in report.lines), "a problem line is blank"
    compile(report.snippet, report.id, "exec")


CORPUS_ENTRY = """[[report]]
id = "x"
url = "https://github.com/a/b/issues/1"
title = "t"
repository = "a/b"
reported = "2025-01-01"
pattern = "p"
kind = "raises"
x64 = "on"
promotion = "standard"
line = 1
outcome = "TypeError"
snippet = "out = 1"
"""


def test_a_malformed_entry_is_named(tmp_path) -> None:
    corpus = tmp_path / "reports.toml"
    corpus.write_text('[[report]]\nid = "x"\nurl = "https://github.com/a/b/issues/1"\n')
    with pytest.raises(CorpusError, match=r"report #1 \(x\): missing title"):
        load(corpus)
    corpus.write_text(CORPUS_ENTRY.replace('id = "x"', 'id = "x"\nseverity = "high"'))
    with pytest.raises(CorpusError, match=r"report #1 \(x\): unknown field severity"):
        load(corpus)


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_promolint_reads_every_snippet_without_an_internal_error(rule_set) -> None:
    result = lint(REPORTS, RULE_SETS[rule_set])
    assert result.crashes == {}
    assert set(result.codes) == {report.id for report in REPORTS}


def test_an_internal_error_or_a_syntax_error_is_reported_as_a_crash() -> None:
    broken = REPORTS[0].__class__(**{**vars(REPORTS[0]), "id": "broken", "snippet": "def f(:\n    pass\n"})
    assert "broken" in lint([broken], RULE_SETS["default"]).crashes

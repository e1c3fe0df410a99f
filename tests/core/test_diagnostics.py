"""A finding as reporters see it (``promolint.core.diagnostics``): where it is written as ruff writes
it, in what order findings are listed, and what makes two findings the same one."""

from __future__ import annotations

from promolint.core.diagnostics import Diagnostic, FixSummary, RelatedLocation


def test_a_finding_is_located_by_path_line_and_column_and_in_a_notebook_by_cell_first() -> None:
    assert Diagnostic("pkg/m.py", 2, 5, "PRM006", "m").location == "pkg/m.py:2:5"
    assert Diagnostic("nb.ipynb", 2, 5, "PRM006", "m", cell=3).location == "nb.ipynb:cell 3:2:5"


def test_findings_are_listed_by_path_then_cell_then_line_then_column() -> None:
    findings = [
        Diagnostic("b.py", 1, 1, "PRM006", "m"),
        Diagnostic("nb.ipynb", 1, 9, "PRM006", "m", cell=4),
        Diagnostic("a.py", 10, 1, "PRM006", "m"),
        Diagnostic("nb.ipynb", 7, 1, "PRM006", "m", cell=2),
        Diagnostic("a.py", 2, 8, "PRM001", "m"),
        Diagnostic("a.py", 2, 3, "PRM007", "m"),
    ]
    assert [d.location for d in sorted(findings)] == [
        "a.py:2:3", "a.py:2:8", "a.py:10:1", "b.py:1:1", "nb.ipynb:cell 2:7:1", "nb.ipynb:cell 4:1:9"]


def test_a_findings_fix_related_places_and_file_line_do_not_make_it_another_finding() -> None:
    plain = Diagnostic("a.py", 2, 5, "PRM007", "m", 2, 9)
    decorated = Diagnostic("a.py", 2, 5, "PRM007", "m", 2, 9, fix=FixSummary("Write float32", True), file_line=7,
                           related=(RelatedLocation(3, 1, 3, 4, "widens here"),))  # fmt: skip
    assert plain == decorated and len({plain, decorated}) == 1
    assert plain != Diagnostic("a.py", 2, 5, "PRM007", "another message", 2, 9)

"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request's diff,
and each place it concerns besides (where a 64-bit leak widens data) a notice.

https://docs.github.com/actions/reference/workflow-commands-for-github-actions#setting-an-error-message"""

from __future__ import annotations

from collections.abc import Sequence

from promolint.core.diagnostics import Diagnostic
from promolint.report.location import relative_path


def render(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(f"{line}\n" for d in diagnostics for line in (_annotation(d), *_related(d)))


def _related(d: Diagnostic) -> list[str]:
    """An annotation holds one place: each related place (where a 64-bit leak widens data)
    becomes a notice of its own, titled after the finding it belongs to."""
    notices = []
    for r in d.related:
        title = f"promolint ({d.code}) related to line {d.line}"
        properties = ({"file": relative_path(d.path), "line": r.file_line, "title": f"{title} cell {r.cell}:{r.line}"}
                      if r.cell else {"file": relative_path(d.path), "line": r.line, "col": r.column,
                                      "endLine": r.end_line, "endColumn": r.end_column, "title": title})  # fmt: skip
        listed = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
        notices.append(f"::notice {listed}::{_escape_data(r.message)}")
    return notices


def _annotation(d: Diagnostic) -> str:
    """In a notebook the annotation marks the line of the ``.ipynb`` file that holds the flagged
    line (GitHub counts the file's lines); the title gives the cell, line and column."""
    if d.cell:
        properties = {"file": relative_path(d.path), "line": d.file_line, "title": f"promolint ({d.code}) cell "
                      f"{d.cell}:{d.line}:{d.column}"}  # fmt: skip
    else:
        properties = {"file": relative_path(d.path), "line": d.line, "col": d.column}
        if d.end_line:
            properties |= {"endLine": d.end_line, "endColumn": d.end_column}
        properties["title"] = f"promolint ({d.code})"
    listed = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
    return f"::error {listed}::{_escape_data(d.message)}"


# The escapes of GitHub's own toolkit (@actions/core): a raw newline would end the command, and
# ':' or ',' inside a property would end the property.
def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")

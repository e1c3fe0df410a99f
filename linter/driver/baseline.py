"""``--baseline FILE``: adopt promolint on a large code base by recording today's findings and
reporting only new ones (ruff issue 1149's request).

A finding is keyed by its file (relative to the project root), its code, and the source text it
flags with whitespace collapsed, never by line numbers: lines moving above a finding do not bring
it back.  Equal keys are counted, so a second copy of a recorded finding in the same file is
new.  Messages are not part of the key, so a reworded message in a new version does not either.
"""

from __future__ import annotations

import io
import json
import os
import tokenize
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from promolint.core.diagnostics import Diagnostic
from promolint.core.files import write_atomically
from promolint.driver.notebook import Notebook, NotebookError, is_notebook

_FORMAT = 1
Key = tuple[str, str, str]  # path, code, flagged text


class BaselineError(Exception):
    """A baseline file that cannot be read or written: exit status 2, one line."""


def load(path: Path) -> Counter[Key]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read the baseline {path}: {error.strerror}") from None
    except ValueError as error:
        raise BaselineError(f"{path} is not a promolint baseline: {error}") from None
    if not isinstance(document, dict) or document.get("promolint-baseline") != _FORMAT:
        raise BaselineError(f"{path} is not a promolint baseline (no \"promolint-baseline\": {_FORMAT})")
    try:
        return Counter({(e["path"], e["code"], e["text"]): int(e["count"]) for e in document["findings"]})
    except (KeyError, TypeError, ValueError):
        raise BaselineError(f"{path}: a finding without path, code, text and count") from None


def write(path: Path, diagnostics: Iterable[Diagnostic], root: Path, read: Callable[[str], bytes]) -> int:
    """Record ``diagnostics`` in ``path``; the number recorded.  Sorted, one finding per line
    group, so that the file diffs well under version control."""
    counts = Counter(keys(diagnostics, root, read))
    findings = [{"path": p, "code": c, "text": t, "count": n} for (p, c, t), n in sorted(counts.items())]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps({"promolint-baseline": _FORMAT, "findings": findings}, indent=1,
                                          ensure_ascii=False) + "\n")  # fmt: skip
    except OSError as error:
        raise BaselineError(f"cannot write the baseline {path}: {error.strerror}") from None
    return sum(counts.values())


def apply(baseline: Counter[Key], diagnostics: list[Diagnostic], root: Path,
          read: Callable[[str], bytes]) -> list[Diagnostic]:  # fmt: skip
    """The diagnostics not covered by ``baseline``: of equal keys, the first ``count`` are."""
    left = Counter(baseline)
    reported = []
    for diagnostic, key in zip(diagnostics, keys(diagnostics, root, read)):
        if left[key] > 0:
            left[key] -= 1
        else:
            reported.append(diagnostic)
    return reported


def keys(diagnostics: Iterable[Diagnostic], root: Path, read: Callable[[str], bytes]) -> list[Key]:
    texts: dict[str, _Texts] = {}
    found = []
    for d in diagnostics:
        if d.path not in texts:
            texts[d.path] = _Texts(d.path, read)
        found.append((_relative(d.path, root), d.code, texts[d.path].flagged(d)))
    return found


class _Texts:
    """The lines of one file (of each cell, in a notebook), read once."""

    def __init__(self, path: str, read: Callable[[str], bytes]):
        self.notebook: Notebook | None = None
        self.lines: list[str] = []
        try:
            data = read(path)
        except OSError:
            return
        if is_notebook(path):
            try:
                self.notebook = Notebook(data)
            except NotebookError:
                pass
            return
        try:
            encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
            self.lines = data.decode(encoding).removeprefix("\ufeff").splitlines()
        except (SyntaxError, UnicodeDecodeError, LookupError):
            self.lines = data.decode("utf-8", "replace").splitlines()

    def flagged(self, d: Diagnostic) -> str:
        lines = self.notebook.cell_lines(d.cell) if self.notebook else self.lines
        if not 0 < d.line <= len(lines):
            return ""
        if not d.end_line or d.end_line < d.line or d.end_line > len(lines):
            text = lines[d.line - 1]
        elif d.end_line == d.line:
            text = lines[d.line - 1][d.column - 1 : d.end_column - 1]
        else:
            text = "\n".join([lines[d.line - 1][d.column - 1 :], *lines[d.line : d.end_line - 1],
                              lines[d.end_line - 1][: d.end_column - 1]])  # fmt: skip
        return " ".join(text.split())


def _relative(path: str, root: Path) -> str:
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return Path(path).resolve().as_posix() if relative.startswith("..") else relative.replace(os.sep, "/")

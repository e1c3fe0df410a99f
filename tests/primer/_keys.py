"""Stable keys for findings: (project, file, rule, normalized expression, occurrence), never lines.

The expression is the reported node's code as ``ast.unparse`` writes it, so reformatting,
comments and quote styles do not change a key.  When a file holds the same expression more than
once, ``occurrence`` numbers it among every node of that text in the file (1 for the first), not
among the findings, so a rule that starts or stops firing elsewhere leaves the key alone.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

MAX_EXPR = 120  # longer expressions keep their head and a digest of the whole


@dataclass(frozen=True, order=True)
class Key:
    project: str
    file: str  # path inside the project, with /
    rule: str
    expr: str
    occurrence: int = 1

    def label(self) -> str:
        nth = f" (#{self.occurrence})" if self.occurrence > 1 else ""
        return f"{self.project} {self.file} {self.rule} `{self.expr}`{nth}"


def _shorten(text: str) -> str:
    if len(text) <= MAX_EXPR:
        return text
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return f"{text[:MAX_EXPR - 20]}… {digest}"


class _FileNodes:
    """A file's syntax nodes by span, with their normalized text computed on demand."""

    def __init__(self, source: str) -> None:
        self.lines = source.splitlines()
        self.by_span: dict[tuple[int, int, int, int], ast.AST] = {}
        self.by_type: dict[type, list[ast.AST]] = defaultdict(list)
        self._texts: dict[int, str] = {}
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return
        for node in ast.walk(tree):  # outer nodes first: an expression wins over its statement
            if not isinstance(node, (ast.expr, ast.stmt)) or node.end_lineno is None:
                continue
            span = (node.lineno, self._column(node.lineno, node.col_offset),
                    node.end_lineno, self._column(node.end_lineno, node.end_col_offset))  # fmt: skip
            if span not in self.by_span or isinstance(node, ast.expr) and not isinstance(self.by_span[span], ast.expr):
                self.by_span[span] = node
            self.by_type[type(node)].append(node)

    def _column(self, line: int, offset: int) -> int:
        """ast's UTF-8 byte offset as the 1-based character column the linter prints."""
        text = self.lines[line - 1] if line <= len(self.lines) else ""
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace")) + 1

    def text(self, node: ast.AST) -> str:
        if id(node) not in self._texts:
            self._texts[id(node)] = ast.unparse(node)
        return self._texts[id(node)]

    def sliced(self, line: int, column: int, end_line: int, end_column: int) -> str:
        """The source between two 1-based positions, whitespace collapsed (a span with no node)."""
        rows = self.lines[line - 1:end_line]
        if not rows:
            return ""
        if len(rows) == 1:
            rows = [rows[0][column - 1:end_column - 1]]
        else:
            rows = [rows[0][column - 1:], *rows[1:-1], rows[-1][:end_column - 1]]
        return re.sub(r"\s+", " ", " ".join(rows)).strip()


def keyed(project: str, files: dict[str, str], findings: Iterable[dict]) -> list[tuple[Key, dict]]:
    """Each finding (as ``promolint check --format json`` gives it, ``path`` inside the project)
    with its key; ``files`` maps those paths to their source text."""
    by_file: dict[str, list[dict]] = defaultdict(list)
    for finding in findings:
        by_file[finding["path"]].append(finding)
    out = []
    for path, found in sorted(by_file.items()):
        nodes = _FileNodes(files.get(path, ""))
        fallback_order: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
        pending = []
        for finding in found:
            span = (finding["line"], finding["column"], finding.get("end_line", finding["line"]),
                    finding.get("end_column", finding["column"]))  # fmt: skip
            node = nodes.by_span.get(span)
            if node is not None:
                text = nodes.text(node)
                start = (node.lineno, node.col_offset)
                earlier = [other for other in nodes.by_type[type(node)] if (other.lineno, other.col_offset) < start]
                occurrence = 1 + sum(1 for other in earlier if nodes.text(other) == text)
                out.append((Key(project, path, finding["code"], _shorten(text), occurrence), finding))
            else:
                text = nodes.sliced(*span)
                fallback_order[(finding["code"], text)].append(span[:2])
                pending.append((finding, text, span[:2]))
        for finding, text, start in pending:  # numbered among the findings of that text
            occurrence = 1 + sorted(set(fallback_order[(finding["code"], text)])).index(start)
            out.append((Key(project, path, finding["code"], _shorten(text), occurrence), finding))
    return out

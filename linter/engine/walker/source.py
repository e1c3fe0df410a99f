"""Reading and parsing a file: every failure becomes one message, never a traceback.

Analysis reads Python's own ``ast``, which parses ten times faster than libcst (the libcst tree
is built only to apply fixes).  Like flake8 and mypy, it therefore reads the grammar of the
Python that runs promolint, or of an older target version (``python``); a construct of a later
Python is reported as needing it (``promolint.engine.walker.newer_syntax``)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass, field

from promolint.engine.records import Span
from promolint.engine.walker.deep import deeply
from promolint.engine.walker.newer_syntax import RUNNING, syntax_error_message

_NEWLINE = re.compile(r"\r\n|\r|\n")  # what the tokenizer counts as a line break, and nothing else


@dataclass(frozen=True)
class ParseFailure:
    message: str
    line: int = 1
    column: int = 1


@dataclass
class Source:
    """A parsed file: its text, its ``ast`` tree, and the positions of nodes as linters print
    them (1-based columns counted in characters; ``ast`` counts UTF-8 bytes)."""

    text: str
    tree: ast.Module
    _lines: list[str] | None = field(default=None, repr=False)

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _NEWLINE.split(self.text)
        return self._lines

    def span(self, node: ast.AST) -> Span:
        line, end_line = node.lineno, node.end_lineno
        column = self._column(line, node.col_offset)
        if type(node) is ast.arg:  # a parameter's site is its name, not its annotation too
            return Span(line, column + 1, line, column + 1 + len(node.arg))
        return Span(line, column + 1, end_line, self._column(end_line, node.end_col_offset) + 1)

    def code(self, node: ast.AST) -> str:
        """The source text of ``node`` (without the parentheses around it)."""
        span = self.span(node)
        lines = self.lines[span.line - 1 : span.end_line]
        if len(lines) == 1:
            return lines[0][span.column - 1 : span.end_column - 1]
        return "\n".join([lines[0][span.column - 1 :], *lines[1:-1], lines[-1][: span.end_column - 1]])

    def _column(self, line: int, offset: int) -> int:
        text = self.lines[line - 1]
        if text.isascii():
            return offset
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace"))


def parse_bytes(data: bytes, python: tuple[int, int] | None = None) -> Source | ParseFailure:
    """``data`` decoded and parsed with the grammar of Python ``python`` (the target version;
    None for the running Python's)."""
    if b"\x00" in data:
        return ParseFailure("file contains NUL bytes; not Python source")
    try:
        text = data.decode(_declared_encoding(data))
    except UnicodeDecodeError as error:  # at the byte's line and column, not the file's start
        line_start = data.rfind(b"\n", 0, error.start) + 1
        column = len(data[line_start : error.start].decode(error.encoding, "replace")) + 1
        return ParseFailure(f"cannot decode the file: {_first_line(error)}", data.count(b"\n", 0, error.start) + 1,
                            column)  # fmt: skip
    except (SyntaxError, LookupError) as error:
        return ParseFailure(f"cannot decode the file: {_first_line(error)}")
    return parse_text(text.removeprefix("\ufeff"), python)


def parse_text(text: str, python: tuple[int, int] | None = None) -> Source | ParseFailure:
    grammar = python if python is not None and python < RUNNING else None  # a later one's is not at hand
    try:
        try:
            return Source(text, _parse(text, grammar))
        except RecursionError:  # nested deeper than the default limit allows: as deep as CPython compiles
            return Source(text, deeply(lambda: _parse(text, grammar)))
    except SyntaxError as error:
        return ParseFailure(syntax_error_message(text, error, python), error.lineno or 1, error.offset or 1)
    except (ValueError, RecursionError, MemoryError) as error:
        return ParseFailure(f"cannot parse the file: {_first_line(error)}")


def _parse(text: str, grammar: tuple[int, int] | None) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences and the like: not ours to report
        return ast.parse(text, feature_version=grammar)


def _declared_encoding(data: bytes) -> str:
    try:
        return tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:
        data.decode("utf-8")  # a line that does not decode says more than "invalid declaration"
        raise


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__

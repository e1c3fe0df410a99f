"""Positions and edits as the Language Server Protocol counts them: 0-based lines split at
``\\n``, ``\\r\\n`` and ``\\r`` only, and columns in the code units the client and server agreed on
(UTF-16 unless the client offers another), where promolint counts 1-based lines and columns in
characters.  No LSP library here: plain tuples, so the conversions are tested on their own."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # a line with its break; the last may have none
_BREAK = re.compile(r"(?:\r\n|\r|\n)$")


@dataclass(frozen=True)
class Position:
    line: int  # 0-based
    character: int  # in the encoding's code units


@dataclass(frozen=True)
class TextEdit:
    start: Position
    end: Position
    new_text: str


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its line break, as LSP numbers them (a form feed or
    U+2028 inside a line does not end it, unlike ``str.splitlines``)."""
    return _LINE.findall(text)


def units(text: str, encoding: str = "utf-16") -> int:
    """How many code units ``text`` takes in the position encoding."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)  # astral characters are surrogate pairs


class PositionMap:
    """One document's text, converting between promolint's positions and the client's."""

    def __init__(self, text: str, encoding: str = "utf-16"):
        self.lines = split_lines(text)
        self.encoding = encoding

    def content(self, line: int) -> str:
        """0-based ``line`` without its line break ('' past the end)."""
        return _BREAK.sub("", self.lines[line]) if 0 <= line < len(self.lines) else ""

    def to_client(self, line: int, column: int) -> Position:
        """1-based ``line`` and character ``column`` as an LSP position, clamped to the line."""
        text = self.content(line - 1)
        return Position(max(line - 1, 0), units(text[: max(column - 1, 0)], self.encoding))

    def line_end(self, line: int) -> Position:
        """The end of 1-based ``line``'s content."""
        return Position(max(line - 1, 0), units(self.content(line - 1), self.encoding))

    def from_client(self, position: Position) -> tuple[int, int]:
        """An LSP position as promolint's 1-based line and character column; a position inside a
        surrogate pair or past the line's end lands on the next character or the end."""
        text = self.content(position.line)
        counted = 0
        for index, char in enumerate(text):
            if counted >= position.character:
                return position.line + 1, index + 1
            counted += units(char, self.encoding)
        return position.line + 1, len(text) + 1

    def end(self) -> Position:
        if not self.lines or _BREAK.search(self.lines[-1]):
            return Position(len(self.lines), 0)
        return Position(len(self.lines) - 1, units(self.lines[-1], self.encoding))

    def edits_to(self, new_text: str) -> list[TextEdit]:
        """Whole-line edits that turn this text into ``new_text``: only the lines that differ, so
        a fix and its added import are two small edits, not the file."""
        new_lines = split_lines(new_text)
        matcher = difflib.SequenceMatcher(None, self.lines, new_lines, autojunk=False)
        edits = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                edits.append(TextEdit(self._line_start(i1), self._line_start(i2), "".join(new_lines[j1:j2])))
        return edits

    def _line_start(self, line: int) -> Position:
        return Position(line, 0) if line < len(self.lines) else self.end()

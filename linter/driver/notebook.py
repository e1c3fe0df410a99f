"""Jupyter notebooks (``.ipynb``): their code cells as one Python module, positions in that module
mapped back to cells, and fixed code written back into the cells.

A notebook is JSON, read here as data: nothing in it is executed.  The code cells are joined in
execution order (their ``execution_count``, when every code cell has one; else their order in the
file) with a separator line between cells.  IPython syntax that is not Python (``%magic``,
``%%cell magic``, ``!shell``, ``x = !ls``, ``obj?``) is replaced line for line by a placeholder
statement, so every other line keeps its number and column; writing back restores those lines as
they were.  A cell that still does not parse stands in the module as placeholders, line for
line, so that the other cells are analysed; ``broken`` names it for its one syntax error.  Cells
are numbered as ruff numbers them: 1-based, counting every cell of the file (Markdown cells too).
"""

from __future__ import annotations

import ast
import codecs
import io
import json
import json.decoder
import json.scanner
import re
import tokenize
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

NOTEBOOK_SUFFIX = ".ipynb"  # also in promolint.driver.discovery, which must not load this module
_SEPARATOR = "# %% (promolint: cell boundary)"
_PLACEHOLDER = "pass  # promolint-ipython-{}"
_PLACEHOLDER_LINE = re.compile(r"^[ \t]*pass  # promolint-ipython-(\d+)$")
# IPython's own syntax, line by line: `%line magic`, `!shell`, `?help`, `obj?`, `x = %magic`, `x = !shell`.
_IPYTHON_LINE = re.compile(r"[ \t]*(?:[%!?]|[\w.]+[ \t]*\?\??[ \t]*$|[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*=[ \t]*[%!])")
# Cell magics whose body is Python run as such: only their first line is IPython's.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "python", "python3"})


class NotebookError(Exception):
    """A file that is not a notebook promolint can read (one diagnostic, never a traceback)."""


def is_notebook(path: str) -> bool:
    return path.endswith(NOTEBOOK_SUFFIX)


@dataclass
class _Cell:
    index: int  # 1-based among all cells of the file
    lines: list[str]  # its code, IPython lines replaced by placeholders
    trailing_newline: bool


class Notebook:
    """One notebook: ``python`` is its code as a module; ``locate`` maps that module's lines back."""

    def __init__(self, data: bytes):
        self._bom = data.startswith(codecs.BOM_UTF8)
        try:
            self.text = data.decode("utf-8-sig")
            self.document = json.loads(self.text)
        except (UnicodeDecodeError, ValueError) as error:
            raise NotebookError(f"not a readable notebook: {_first_line(error)}") from None
        cells = self.document.get("cells") if isinstance(self.document, dict) else None
        if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
            raise NotebookError("not a notebook: no list of cells (nbformat 4 is read)")
        self.cells = cells
        self._ipython_lines: dict[int, str] = {}  # placeholder number -> the line it stands for
        self._code = [self._code_cell(i) for i in self._execution_order()]
        # (module line the cell starts at, its code) of each cell that does not parse
        self.broken: list[tuple[int, str]] = []
        lines: list[str] = []
        self._rows: list[tuple[int, int]] = []  # module line - 1 -> (cell, line in cell)
        for number, cell in enumerate(self._code):
            if number:
                lines.append(_SEPARATOR)
                self._rows.append(self._rows[-1])
            if not _parses("\n".join(cell.lines)):
                self.broken.append((len(lines) + 1, "\n".join(cell.lines)))
                self._stand_in(cell)
            lines += cell.lines
            self._rows += [(cell.index, line) for line in range(1, len(cell.lines) + 1)]
        self.python = ("\n".join(lines) + "\n").encode("utf-8") if lines else b""
        self._file_lines: dict[tuple[int, int], int] | None = None

    @property
    def is_python(self) -> bool:
        """False for a notebook of another kernel's language (R, Julia): nothing to lint."""
        metadata = self.document.get("metadata") or {}
        info, kernel = metadata.get("language_info") or {}, metadata.get("kernelspec") or {}
        language = info.get("name") or kernel.get("language")
        return not isinstance(language, str) or language.lower() in ("python", "python3", "ipython", "ipython3")

    def locate(self, line: int) -> tuple[int, int]:
        """The cell and the line within it of the module's ``line`` (1-based)."""
        if not self._rows:
            return 1, 1
        return self._rows[min(max(line, 1), len(self._rows)) - 1]

    def file_line(self, cell: int, line: int) -> int:
        """The line of the ``.ipynb`` file that holds ``line`` of ``cell``'s source: where tools
        that count a file's lines (SARIF, GitHub annotations) should point."""
        if self._file_lines is None:
            self._file_lines = _source_file_lines(self.text)
        return self._file_lines.get((cell, line)) or self._file_lines.get((cell, 1)) or 1

    def cell_lines(self, cell: int) -> list[str]:
        """The lines of ``cell`` (1-based) as written, IPython syntax included."""
        source = self.cells[cell - 1].get("source", "") if 0 < cell <= len(self.cells) else ""
        text = "".join(source) if isinstance(source, list) else source
        return text.split("\n") if isinstance(text, str) else []

    # --- reading ---------------------------------------------------------------------------
    def _execution_order(self) -> list[int]:
        code = [i for i, c in enumerate(self.cells) if c.get("cell_type") == "code"]
        counts = [self.cells[i].get("execution_count") for i in code]
        if code and all(isinstance(n, int) for n in counts):
            return [i for _, i in sorted(zip(counts, code))]
        return code

    def _code_cell(self, position: int) -> _Cell:
        source = self.cells[position].get("source", "")
        text = "".join(source) if isinstance(source, list) else source
        if not isinstance(text, str):
            raise NotebookError(f"cell {position + 1}: its source is not text")
        trailing = text.endswith("\n")
        cell = _Cell(position + 1, (text[:-1] if trailing else text).split("\n"), trailing)
        numbers, whole_cell = _ipython_lines(cell.lines)
        for number in numbers:
            line, placeholder = cell.lines[number], len(self._ipython_lines)
            self._ipython_lines[placeholder] = line
            indentation = "" if whole_cell else line[: len(line) - len(line.lstrip(" \t"))]
            cell.lines[number] = indentation + _PLACEHOLDER.format(placeholder)
        return cell

    def _stand_in(self, cell: _Cell) -> None:
        """``cell``'s lines replaced by placeholders, which writing back restores."""
        for number, line in enumerate(cell.lines):
            placeholder = len(self._ipython_lines)
            self._ipython_lines[placeholder] = self._restored(line)
            cell.lines[number] = _PLACEHOLDER.format(placeholder)

    # --- writing ---------------------------------------------------------------------------
    def with_python(self, fixed: bytes) -> bytes:
        """The notebook's bytes with its code cells taken from ``fixed`` (the ``python`` module
        after fixes): only the changed cells' ``source`` changes; outputs, metadata, key order,
        indentation and the final newline stay as they were."""
        groups = _split_cells(fixed.decode("utf-8"))
        if len(groups) != len(self._code):
            raise NotebookError("the fixes moved a cell boundary; the notebook was left as it was")
        style = _json_style(self.text, self.document)
        document = json.loads(self.text)  # a copy to change: this notebook stays as it was read
        changed = False
        for cell, lines in zip(self._code, groups):
            restored = [self._restored(line) for line in lines]
            if restored == [self._restored(line) for line in cell.lines]:
                continue
            text = "\n".join(restored) + ("\n" if cell.trailing_newline else "")
            written = document["cells"][cell.index - 1]
            as_list = isinstance(written.get("source"), list)  # the cell's own form: lines, or one string
            written["source"] = text.splitlines(keepends=True) if as_list else text
            changed = True
        text = _dump(document, style) if changed else self.text
        return (codecs.BOM_UTF8 if self._bom else b"") + text.encode("utf-8")

    def _restored(self, line: str) -> str:
        match = _PLACEHOLDER_LINE.match(line)
        return self._ipython_lines[int(match.group(1))] if match else line


def _parses(text: str) -> bool:
    """Whether a cell's code parses (one nested too deeply for ``ast`` here counts: the module's
    own parse handles it)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    except (RecursionError, MemoryError):
        pass
    return True


def _ipython_lines(lines: list[str]) -> tuple[list[int], bool]:
    """The indices of the lines that are IPython syntax rather than Python (none when the cell
    parses as it is; never a line inside a string), and whether that is the whole cell."""
    text = "\n".join(lines)
    if _parses(text):
        return [], False
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        magic = lines[first].lstrip()[2:].split(maxsplit=1)
        if not magic or magic[0] not in _PYTHON_CELL_MAGICS:
            return list(range(len(lines))), True  # %%bash, %%html, %%writefile: the whole cell is not Python
    in_strings = _lines_inside_strings(text)
    return [i for i, line in enumerate(lines) if i + 1 not in in_strings and _IPYTHON_LINE.match(line)], False


def _lines_inside_strings(text: str) -> set[int]:
    """Lines (1-based) that continue a string begun on an earlier line."""
    inside: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return inside


def _split_cells(text: str) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for line in text.removesuffix("\n").split("\n"):
        if line == _SEPARATOR:
            groups.append([])
        else:
            groups[-1].append(line)
    return groups


# --- JSON as the file wrote it -----------------------------------------------------------------
@dataclass(frozen=True)
class _Style:
    indent: int | str | None
    separators: tuple[str, str]
    ensure_ascii: bool
    final_newline: str


def _dump(document: object, style: _Style) -> str:
    return json.dumps(document, indent=style.indent, separators=style.separators,
                      ensure_ascii=style.ensure_ascii) + style.final_newline  # fmt: skip


def _json_style(text: str, document: object) -> _Style:
    """The ``json.dumps`` arguments that write ``document`` back exactly as ``text`` (nbformat
    writes indent 1, ensure_ascii False; other tools other styles)."""
    second = text.split("\n", 2)[1] if text.count("\n") >= 2 else ""
    indentation = second[: len(second) - len(second.lstrip(" \t"))]
    if indentation:
        indents: list[int | str | None] = [len(indentation) if set(indentation) == {" "} else indentation]
    else:  # one line (no indent), or lines without indentation (indent 0)
        indents = [0, None] if second else [None]
    final = text[len(text.rstrip("\r\n")) :]
    for indent in indents:
        for separators in ((",", ": "), (", ", ": "), (",", ":")):
            for ensure_ascii in (False, True):
                style = _Style(indent, separators, ensure_ascii, final)
                if _dump(document, style) == text:
                    return style
    raise NotebookError("its JSON is formatted in a way promolint cannot reproduce; the fixes were not written")


def _source_file_lines(text: str) -> dict[tuple[int, int], int]:
    """(cell, line in cell) -> line of the file, for every cell's source: the JSON is decoded
    again with the pure-Python scanner, which records where each string value starts."""
    starts: list[int] = []

    def parse_string(string: str, end: int, strict: bool) -> tuple[str, int]:
        starts.append(end - 1)
        return json.decoder.py_scanstring(string, end, strict)

    decoder = json.JSONDecoder()
    decoder.parse_string = parse_string  # type: ignore[assignment]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        document = decoder.decode(text)
    except ValueError:
        return {}
    found: dict[tuple[int, int], int] = {}
    counted, file_line = 0, 1  # the line at offset ``counted``: strings come in the text's order
    for (path, value), start in zip(_string_values(document, ()), starts):
        file_line, counted = file_line + text.count("\n", counted, start), start
        if len(path) >= 3 and path[0] == "cells" and path[2] == "source":
            cell = path[1] + 1
            before = document["cells"][path[1]]["source"][: path[3]] if len(path) == 4 else []  # a list's earlier lines
            first = sum(s.count("\n") for s in before) + 1
            for line in range(first, first + max(value.count("\n") + (not value.endswith("\n")), 1)):
                found.setdefault((cell, line), file_line)
    return found


def _string_values(value: object, path: tuple) -> Iterator[tuple[tuple, str]]:
    """Every string value of a decoded JSON document with its path, in the order of the text
    (object keys are not values: the scanner does not record them)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _string_values(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _string_values(item, (*path, index))


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__

"""Positions as the Language Server Protocol counts them (``promolint.core.positions``): lines
split where LSP splits them, columns in UTF-16 code units converted both ways, and the edits that
turn one text into another touching only the lines that differ."""

from __future__ import annotations

from promolint.core.positions import Position, PositionMap, split_lines


def test_lines_break_where_lsp_breaks_them() -> None:
    assert split_lines("a\r\nb\rc\nd\x0ce\u2028f") == ["a\r\n", "b\r", "c\n", "d\x0ce\u2028f"]
    positions = PositionMap("x = 1\r\ny = '😀' + z\n")
    assert positions.to_client(2, 12) == Position(1, 12)  # `z`: after a surrogate pair
    assert positions.from_client(Position(1, 12)) == (2, 12)
    assert positions.from_client(Position(1, 6)) == (2, 7)  # inside the pair: the next character
    assert positions.line_end(1) == Position(0, 5)


def test_edits_touch_only_the_lines_that_differ() -> None:
    old = "import jax\nx = np.sqrt(n)\ny = 1"
    new = "import jax\nimport math\nx = math.sqrt(n)\ny = 1"
    edits = PositionMap(old).edits_to(new)
    assert [(e.start, e.end, e.new_text) for e in edits] == [
        (Position(1, 0), Position(2, 0), "import math\nx = math.sqrt(n)\n")]
    (append,) = PositionMap(old).edits_to(old + "\nz = 2\n")
    assert (append.start, append.end, append.new_text) == (Position(2, 0), Position(2, 5), "y = 1\nz = 2\n")

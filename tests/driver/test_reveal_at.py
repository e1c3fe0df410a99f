"""``reveal_at``, what the language server's hover shows: the record ``reveal`` gives the
innermost expression at a position, read from the analysis the diagnostics came from."""

from __future__ import annotations

from pathlib import Path

import pytest

from promolint.driver.reveal import reveal_at, reveal_records
from promolint.engine.walker.analysis import Settings, analyze
from promolint.engine.walker.source import parse_bytes

ROOT = Path(__file__).resolve().parents[2]
SHOWN = ("line", "column", "end_line", "end_column", "text", "target", "dtype", "weak", "library", "error")


@pytest.mark.parametrize("x64", ["off", "on"])
def test_every_position_shows_the_innermost_record_of_reveal(x64: str) -> None:
    data = (ROOT / "fixtures" / "readme_example.py").read_bytes()
    settings = Settings(x64=x64)
    records = reveal_records(data, settings)
    analysis = analyze(parse_bytes(data), settings)
    lines = data.decode().splitlines()
    checked = 0
    for line, text in enumerate(lines, 1):
        for column in range(1, len(text) + 1):
            inside = [r for r in records
                      if (r["line"], r["column"]) <= (line, column) < (r["end_line"], r["end_column"])]  # fmt: skip
            expected = max(inside, key=lambda r: (r["line"], r["column"], -r["end_line"], -r["end_column"]),
                           default=None)  # fmt: skip
            found = reveal_at(analysis, line, column)
            if expected is None:
                assert found is None, (line, column)
                continue
            assert {k: found[k] for k in SHOWN} == {k: expected[k] for k in SHOWN}, (line, column)
            checked += 1
    assert checked > 300  # the positions inside some expression


def test_a_name_says_where_its_value_was_computed() -> None:
    data = b"import numpy as np\nn = 3\ny = np.sqrt(n)\nz = y + 1\n"
    analysis = analyze(parse_bytes(data), Settings())
    assert reveal_at(analysis, 4, 5)["origin"] == "np.sqrt(n)"
    assert reveal_at(analysis, 1, 1) is None

"""``promolint reveal``: every expression's inferred dtype, weak flag and library."""

from __future__ import annotations

from collections.abc import Sequence

from promolint.engine.values import Array, Refusal, Unknown, describe
from promolint.frontend.analysis import Analysis, Settings
from promolint.frontend.source import ParseFailure, Source, parse_bytes
from promolint.notebook import Notebook, NotebookError, is_notebook


def reveal_file(data: bytes, path: str, settings: Settings) -> list[dict] | str:
    """``reveal_records`` of a Python file or a notebook (by ``path``'s suffix); a notebook's
    records carry their ``cell`` and count lines within it.  A file that does not parse gives
    ``line:column: message`` (``cell 3:2:5: message`` in a notebook)."""
    if not is_notebook(path):
        records = reveal_records(data, settings)
        return f"{records.line}:{records.column}: {records.message}" if isinstance(records, ParseFailure) else records
    try:
        notebook = Notebook(data)
    except NotebookError as error:
        return f"1:1: {error}"
    records = reveal_records(notebook.python, settings) if notebook.is_python else []
    if isinstance(records, ParseFailure):
        cell, line = notebook.locate(records.line)
        return f"cell {cell}:{line}:{records.column}: {records.message}"
    for record in records:
        cell, record["line"] = notebook.locate(record["line"])
        record["end_line"] = notebook.locate(record["end_line"])[1]
        record["cell"] = cell
    records.sort(key=lambda r: (r["cell"], r["line"], r["column"], r["end_line"], r["end_column"], r["target"]))
    return records


def reveal_records(data: bytes, settings: Settings) -> list[dict] | ParseFailure:
    records = reveal_records_many(data, [settings])
    return records if isinstance(records, ParseFailure) else records[0]


def reveal_records_many(data: bytes, settings: Sequence[Settings]) -> list[list[dict]] | ParseFailure:
    """``reveal_records`` under several settings at once: the file is parsed once (the oracle
    tests reveal every snippet in three modes)."""
    source = parse_bytes(data)
    if isinstance(source, ParseFailure):
        return source
    analyses = [Analysis(source, one).run() for one in settings]
    return [_records(source, [s for s in a.sites.values() if isinstance(s.value, (Array, Refusal, Unknown))])
            for a in analyses]  # fmt: skip


def _records(source: Source, sites) -> list[dict]:
    records = []
    for site in sites:
        span = source.span(site.node)
        records.append({
            "line": span.line,
            "column": span.column,
            "end_line": span.end_line,
            "end_column": span.end_column,
            "text": source.code(site.node),
            "target": site.target,
            **describe(site.value),
        })  # fmt: skip
    records.sort(key=lambda r: (r["line"], r["column"], r["end_line"], r["end_column"], r["target"]))
    return records


def format_text(path: str, records: list[dict]) -> str:
    lines = []
    for r in records:
        if r["error"]:
            what = f"{r['error']}: {r['message']}"
        elif r["dtype"] is None:
            what = f"unknown ({r['library']})" if r["library"] else "unknown"
        else:
            what = f"{'weak ' if r['weak'] else ''}{r['dtype']} [{r['library']}]"
            if r.get("provenance"):
                what += f"  ({r['provenance']})"
        text = r["text"] if len(r["text"]) <= 60 else r["text"][:57] + "..."
        cell = f"cell {r['cell']}:" if "cell" in r else ""
        lines.append(f"{path}:{cell}{r['line']}:{r['column']}: {text!s}: {what}")
    return "\n".join(lines) + ("\n" if lines else "")

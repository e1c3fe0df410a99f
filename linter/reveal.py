"""``promolint reveal``: every expression's inferred dtype, weak flag and library."""

from __future__ import annotations

from collections.abc import Sequence

from promolint.engine.values import Array, Refusal, Unknown, describe
from promolint.frontend.analysis import Settings, analyze
from promolint.frontend.source import ParseFailure, Source, parse_bytes


def reveal_records(data: bytes, settings: Settings) -> list[dict] | ParseFailure:
    records = reveal_records_many(data, [settings])
    return records if isinstance(records, ParseFailure) else records[0]


def reveal_records_many(data: bytes, settings: Sequence[Settings]) -> list[list[dict]] | ParseFailure:
    """``reveal_records`` under several settings at once: the file is parsed once (the oracle
    tests reveal every snippet in three modes)."""
    source = parse_bytes(data)
    if isinstance(source, ParseFailure):
        return source
    analyses = [analyze(source, one) for one in settings]
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
        lines.append(f"{path}:{r['line']}:{r['column']}: {text!s}: {what}")
    return "\n".join(lines) + ("\n" if lines else "")

"""``promolint reveal``: every expression's inferred dtype, weak flag and library."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence

from promolint.engine.records import Site
from promolint.engine.describe import describe
from promolint.engine.symbolic import Symbolic
from promolint.engine.values import Array, Refusal, Unknown
from promolint.engine.walker.analysis import Analysis, Settings, analyze
from promolint.engine.walker.source import ParseFailure, Source, parse_bytes
from promolint.driver.notebook import Notebook, NotebookError, is_notebook


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
    source = parse_bytes(data, settings[0].python if settings else None)
    if isinstance(source, ParseFailure):
        return source
    return [_records(source, _revealed(analyze(source, one))) for one in settings]


# The libraries of the values static coverage counts: NumPy's and JAX's, not Python scalars.
COVERAGE_LIBRARIES = frozenset({"numpy-array", "numpy-scalar", "jax"})


def coverage(records: Iterable[Mapping]) -> tuple[int, int]:
    """Static coverage over reveal's records: (known, sites).

    A site is a record of an expression (not an assignment target) whose value the engine knows
    to be a NumPy or JAX value: library ``numpy-array``, ``numpy-scalar`` or ``jax``.  It is
    known when its dtype is: one dtype, a set of candidates, or the dtype of a variable (a
    parameter of unknown dtype, ``x * 2`` for a float ``x``: checked at run time against the
    parameter's own dtype).  Python scalars, values of no known library (attributes, results of
    unknown functions, expressions of variables that range over several libraries) and refusals
    (no value) are not sites.  docs/primer.md explains the figure; ``symbolic_share`` says how
    many known sites are the dtype of a variable."""
    sites = _sites(records)
    return sum(1 for r in sites if r["dtype"] is not None), len(sites)


def symbolic_share(records: Iterable[Mapping]) -> int:
    """How many of the known sites ``coverage`` counts are known as the dtype of a variable."""
    return sum(1 for r in _sites(records) if r.get("variable"))


def concrete_share(records: Iterable[Mapping]) -> int:
    """How many of the sites ``coverage`` counts have one concrete dtype: not a set of
    candidates (``float32|float64``), not the dtype of a variable (``the dtype of x``)."""
    return sum(1 for r in _sites(records) if r["dtype"] is not None and "|" not in r["dtype"] and not r.get("variable"))


def _sites(records: Iterable[Mapping]) -> list[Mapping]:
    """The records ``coverage`` counts as sites: expressions, not targets, of NumPy or JAX."""
    return [r for r in records if not r["target"] and r["library"] in COVERAGE_LIBRARIES]


def reveal_at(analysis: Analysis, line: int, column: int) -> dict | None:
    """The ``reveal`` record of the innermost expression of an analyzed file at (``line``,
    ``column``), None where there is none; where a name holds a value computed elsewhere
    (``y = np.sqrt(n)``, then ``y``), with that code under "origin".  Only that expression is
    described: what an editor's hover asks after every edit, where describing every site takes
    most of ``reveal``'s time."""
    source, revealed = analysis.source, _revealed(analysis)
    inside = []
    for site in revealed:
        if not site.node.lineno <= line <= site.node.end_lineno:
            continue
        span = source.span(site.node)
        if (span.line, span.column) <= (line, column) < (span.end_line, span.end_column):
            inside.append(((span.line, span.column, -span.end_line, -span.end_column, not site.target), site))
    if not inside:
        return None
    innermost = max(inside, key=lambda found: found[0])[1]
    return _records(source, [innermost], _origins(source, revealed))[0]


def _revealed(analysis: Analysis) -> list[Site]:
    return [s for s in analysis.sites.values() if isinstance(s.value, (Array, Refusal, Unknown, Symbolic))]


def _origins(source: Source, sites: Iterable[Site]) -> dict[int, str]:
    """For each name (read or assigned), the code of the expression whose very value it holds:
    the nearest one before a read, the nearest one after an assignment's target."""
    computed: dict[int, list[tuple[tuple[int, int], ast.AST]]] = {}
    names = []
    for site in sites:
        if isinstance(site.value, Unknown):  # one shared object: identity says nothing
            continue
        if isinstance(site.node, ast.Name):
            names.append(site)
        elif not site.target:
            computed.setdefault(id(site.value), []).append(((site.node.lineno, site.node.col_offset), site.node))
    origins = {}
    for site in names:
        at = (site.node.lineno, site.node.col_offset)
        candidates = computed.get(id(site.value), [])
        if site.target:
            after = [c for c in candidates if c[0] > at]
            chosen = min(after, key=lambda c: c[0], default=None)
        else:
            before = [c for c in candidates if c[0] < at]
            chosen = max(before, key=lambda c: c[0], default=None)
        if chosen is not None:
            origins[id(site.node)] = source.code(chosen[1])
    return origins


def _records(source: Source, sites, origins: dict[int, str] | None = None) -> list[dict]:
    records = []
    # By the value's identity (a name's reads share its value), a symbolic value's by its
    # structure: each pass of a loop, each copy of a body builds its own, equal ones.
    described: dict[object, dict] = {}
    for site in sites:
        span = source.span(site.node)
        key = site.value if type(site.value) is Symbolic else id(site.value)
        description = described.get(key)
        if description is None:
            description = described[key] = describe(site.value)
        records.append({
            "line": span.line,
            "column": span.column,
            "end_line": span.end_line,
            "end_column": span.end_column,
            "text": source.code(site.node),
            "target": site.target,
            **description,
            **({"origin": origins[id(site.node)]} if origins and id(site.node) in origins else {}),
        })  # fmt: skip
    records.sort(key=lambda r: (r["line"], r["column"], r["end_line"], r["end_column"], r["target"]))
    _number_variables(records)
    return records


def _number_variables(records: list[dict]) -> None:
    """Each variable's key as its number in the file, in the order its records come: the
    engine's key names the function by its definition's identity in memory, which differs
    from run to run, where reveal's output must not."""
    numbers: dict[str, str] = {}
    for record in records:
        key = record.get("variable_key")
        if key is not None:
            record["variable_key"] = numbers.setdefault(key, str(len(numbers) + 1))


def format_text(path: str, records: list[dict]) -> str:
    """One line per record.  A refusal's text (JAX's message, often 200 characters) is printed
    in full where it first appears; the lines after it that repeat it refer to that line."""
    lines = []
    first_told: dict[tuple[str, str], str] = {}  # (error, message) -> where it was printed in full
    for r in records:
        depends = ", ".join(r.get("depends", ()))
        if r["error"]:
            told = first_told.get((r["error"], r["message"]))
            what = f"{r['error']} (refused: see {told})" if told else f"{r['error']}: {r['message']}"
            first_told.setdefault((r["error"], r["message"]), _where(r))
            what += f" (whatever {depends} is)" if depends else ""
        elif r.get("variable") and r["weak"] is None:
            what = f"the dtype of {r['variable']} (as {r['variable']} is)"
        elif r.get("variable"):  # its dtype, with a flag of its own (np.asarray(x): strong)
            what = f"the dtype of {r['variable']}, {'weak' if r['weak'] else 'strong'} [{r['library'] or 'any library'}]"
        elif r["dtype"] is None:
            what = f"unknown ({r['library']})" if r["library"] else "unknown"
            what += f"; depends on {depends}" if depends else ""
        else:
            weak = "weak " if r["weak"] else "weak or strong " if r["weak"] is None else ""
            what = f"{weak}{r['dtype']} [{r['library'] or 'any library'}]"
            if depends:
                what += f" (whatever {depends} is)" if "|" not in r["dtype"] else f" (by {depends})"
            if r.get("provenance"):
                what += f"  ({r['provenance']})"
        text = r["text"] if len(r["text"]) <= 60 else r["text"][:57] + "..."
        cell = f"cell {r['cell']}:" if "cell" in r else ""
        lines.append(f"{path}:{cell}{r['line']}:{r['column']}: {text!s}: {what}")
    return "\n".join(lines) + ("\n" if lines else "")


def _where(record: dict) -> str:
    """A record's position as a later line refers to it: ``line 4``, ``cell 2 line 4``."""
    cell = f"cell {record['cell']} " if "cell" in record else ""
    return f"{cell}line {record['line']}"

"""Lattice files, loaded and checked: a DAG of edges (TOML) or a printed promotion table (CSV, TOML).

A DAG file::

    weak = ["i*"]            # optional: nodes drawn as weak
    [edges]
    bool = ["i*"]            # node = [nodes immediately above it]
    "i*" = ["int8", "uint8"]

A table file is CSV (first row: a corner cell, then column labels; each row: its label, then its
cells) or TOML (``[table]`` with ``"a,b" = "c"`` keys, or ``[table.a]`` with ``b = "c"``).  A cell
``-`` means the table gives no result.  A table is the join of a partial order only if it is the
join of the one order it implies: a ≤ b exactly where a ∨ b = b ∨ a = b.  Checking a table against
that order shows which cells are wrong, not only that some are.
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from promolint.systems.lattice import CycleError, Lattice, NoJoin, OperationReport, check_operation

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

NO_RESULT = "-"


class LatticeFileError(Exception):
    """A file that is not a lattice file: missing, unparsable, ragged, unknown labels, a cycle."""


class FileLattice(Lattice):
    """A lattice read from a file, with the nodes the file calls weak (``draw`` marks them), or
    None where it does not say."""

    def __init__(self, edges: Mapping[str, Iterable[str]], weak: Iterable[str] | None = None):
        super().__init__(edges)
        self.weak = None if weak is None else frozenset(weak)


@dataclass(frozen=True)
class PromotionTable:
    labels: tuple[str, ...]
    cells: Mapping[tuple[str, str], str]

    def result(self, a: str, b: str) -> str | None:
        cell = self.cells[a, b]
        return None if cell == NO_RESULT else cell


# --- loading -----------------------------------------------------------------------------
def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(_read_text(path))
    except tomllib.TOMLDecodeError as error:
        raise LatticeFileError(f"{path}: invalid TOML: {error}") from None


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LatticeFileError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None


def load(path: str | Path) -> FileLattice | PromotionTable:
    """The DAG or the table in ``path``."""
    path = Path(path)
    if path.suffix == ".csv":
        return _table_from_csv(path)
    if path.suffix != ".toml":
        raise LatticeFileError(f"{path}: expected a .toml (DAG or table) or .csv (table) file")
    document = _read_toml(path)
    if ("edges" in document) == ("table" in document):
        raise LatticeFileError(f"{path}: expected either an [edges] table (a DAG) or a [table] table")
    if "table" in document:
        return _table_from_toml(path, document["table"])
    return _dag_from_toml(path, document)


def load_lattice(path: str | Path) -> FileLattice:
    """A DAG file's lattice, or the order a table file implies (its covering edges, to draw)."""
    loaded = load(path)
    if isinstance(loaded, FileLattice):
        return loaded
    try:
        order = implied_order(loaded)
    except CycleError as error:
        raise LatticeFileError(f"{path}: the order the table implies has a {error}") from None
    return FileLattice(_covers(order))


def _dag_from_toml(path: Path, document: dict) -> FileLattice:
    edges, weak = document["edges"], document.get("weak")
    if not isinstance(edges, dict) or not all(_is_names(up) for up in edges.values()):
        raise LatticeFileError(f"{path}: [edges] must map each node to a list of node names")
    if weak is not None and not _is_names(weak):
        raise LatticeFileError(f"{path}: weak must be a list of node names")
    try:
        lattice = FileLattice(edges, weak)
    except CycleError as error:
        raise LatticeFileError(f"{path}: {error}") from None
    unknown = sorted((lattice.weak or set()) - set(lattice.nodes))
    if unknown:
        raise LatticeFileError(f"{path}: weak names unknown nodes: {', '.join(unknown)}")
    return lattice


def _is_names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _table_from_csv(path: Path) -> PromotionTable:
    try:
        rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(_read_text(path))) if row]
    except csv.Error as error:
        raise LatticeFileError(f"{path}: invalid CSV: {error}") from None
    if not rows:
        raise LatticeFileError(f"{path}: empty table")
    columns = rows[0][1:]
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(rows[0]):
            raise LatticeFileError(f"{path}: row {number} has {len(row)} cells, the header {len(rows[0])}")
    row_labels = [row[0] for row in rows[1:]]
    if sorted(row_labels) != sorted(columns):
        raise LatticeFileError(f"{path}: not square: the row labels are not the column labels")
    cells = {(row[0], b): cell for row in rows[1:] for b, cell in zip(columns, row[1:])}
    return _checked_table(path, columns, cells)


def _table_from_toml(path: Path, table: object) -> PromotionTable:
    if not isinstance(table, dict):
        raise LatticeFileError(f"{path}: [table] must be a table")
    cells: dict[tuple[str, str], object] = {}
    for key, value in table.items():
        if isinstance(value, dict):  # [table.a] b = "c"
            cells.update({(key, b): c for b, c in value.items()})
        elif key.count(",") == 1:  # "a,b" = "c"
            a, b = (label.strip() for label in key.split(","))
            cells[a, b] = value
        else:
            raise LatticeFileError(f"{path}: table key {key!r} is neither 'a,b' nor a [table.{key}] section")
    labels = list(dict.fromkeys(label for pair in cells for label in pair))
    missing = [f"{a},{b}" for a in labels for b in labels if (a, b) not in cells]
    if missing:
        raise LatticeFileError(f"{path}: not square: no cell for {', '.join(missing[:5])}{' ...' * (len(missing) > 5)}")
    if not all(isinstance(c, str) for c in cells.values()):
        raise LatticeFileError(f"{path}: every cell must be a string (a label or '-')")
    return _checked_table(path, labels, cells)  # type: ignore[arg-type]


def _checked_table(path: Path, labels: list[str], cells: dict[tuple[str, str], str]) -> PromotionTable:
    if len(set(labels)) != len(labels):
        raise LatticeFileError(f"{path}: a label appears twice")
    unknown = next(((pair, c) for pair, c in cells.items() if c != NO_RESULT and c not in labels), None)
    if unknown:
        (a, b), cell = unknown
        raise LatticeFileError(f"{path}: cell {a},{b} is {cell!r}: not a label of the table (nor '-')")
    return PromotionTable(tuple(labels), cells)


# --- checking ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TableReport:
    operation: OperationReport
    order: Lattice | None  # the order the table implies; None when it has a cycle
    cycle: str = ""
    # (a, b, the printed cell, the least upper bound in ``order``): every cell no order explains
    not_least: tuple[tuple[str, str, str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return self.order is not None and not self.not_least and self.operation.is_lattice


def implied_order(table: PromotionTable) -> Lattice:
    """a ≤ b where a ∨ b = b ∨ a = b: the only order whose join the table can be."""
    return Lattice(
        {a: [b for b in table.labels if b != a and table.cells[a, b] == table.cells[b, a] == b] for a in table.labels}
    )


def check_table(table: PromotionTable) -> TableReport:
    operation = check_operation(table.labels, table.result)
    try:
        order = implied_order(table)
    except CycleError as error:
        return TableReport(operation, None, str(error))
    not_least = []
    for a in table.labels:
        for b in table.labels:
            joined = order.join(a, b)
            least = NO_RESULT if isinstance(joined, NoJoin) else joined
            if table.cells[a, b] != least:
                not_least.append((a, b, table.cells[a, b], least))
    return TableReport(operation, order, not_least=tuple(not_least))


def check_file(path: str | Path) -> tuple[str, bool]:
    """A report on the lattice file ``path``, and whether it describes a lattice."""
    return check_loaded(str(path), load(path))


def check_loaded(path: str, loaded: FileLattice | PromotionTable) -> tuple[str, bool]:
    """A report on a lattice or a table (``path`` names it), and whether it describes a lattice."""
    if isinstance(loaded, FileLattice):
        operation = check_operation(loaded.nodes, loaded.join)
        edges = sum(map(len, loaded.edges.values()))
        lines = [f"{path}: a DAG of {len(loaded.nodes)} nodes and {edges} edges", *_operation_lines(operation)]
        failures = len(operation.no_result) + len(operation.ambiguous)
        ok, verdict = operation.is_lattice, f"NOT a lattice: {failures} pairs have no join"
    else:
        report = check_table(loaded)
        size = len(loaded.labels)
        lines = [f"{path}: a {size}×{size} promotion table", *_operation_lines(report.operation)]
        lines += _order_lines(report)
        ok = report.ok
        if report.order is None:
            verdict = "NOT the join of any partial order"
        elif report.not_least:
            verdict = f"NOT the join of any partial order: {len(report.not_least)} cells disagree with the order"
        else:  # the join of its order, but some pairs have no result
            verdict = f"NOT a lattice: {len(report.operation.no_result)} pairs have no result"
    lines.append("OK: a lattice" if ok else verdict)
    return "\n".join(lines) + "\n", ok


def _show(result: object) -> str:
    return NO_RESULT if result is None or isinstance(result, NoJoin) else str(result)


def _section(title: str, items: list[str]) -> list[str]:
    return [f"{title} ({len(items)}):", *(f"  {item}" for item in items)] if items else []


def _operation_lines(report: OperationReport) -> list[str]:
    return [
        *_section("no result", [f"{a} ∨ {b}" for a, b in report.no_result]),
        *_section("ambiguous join", [f"{a} ∨ {b}: {', '.join(sorted(c))}" for a, b, c in report.ambiguous]),
        *_section(
            "not commutative",
            [f"{a} ∨ {b} = {_show(ab)} but {b} ∨ {a} = {_show(ba)}" for a, b, ab, ba in report.not_commutative],
        ),
        *_section(
            "not associative",
            [
                f"({a} ∨ {b}) ∨ {c} = {_show(left)} but {a} ∨ ({b} ∨ {c}) = {_show(right)}"
                for a, b, c, left, right in report.not_associative
            ],
        ),
        *_section("not idempotent", [f"{a} ∨ {a} = {_show(aa)}" for a, aa in report.not_idempotent]),
    ]


def _order_lines(report: TableReport) -> list[str]:
    if report.order is None:
        return [f"the order the table implies (a ≤ b where a ∨ b = b ∨ a = b) has a {report.cycle}"]
    return _section(
        "cells that are not the least upper bound in the order the table implies (a ≤ b where a ∨ b = b ∨ a = b)",
        [f"{a} ∨ {b} = {cell}, least upper bound {least}" for a, b, cell, least in report.not_least],
    )


def _covers(order: Lattice) -> dict[str, list[str]]:
    """The Hasse diagram of ``order``: for each node, the nodes directly above it."""
    strictly_above = {n: order.upper_bounds[n] - {n} for n in order.nodes}
    return {
        n: [b for b in order.nodes if b in above and not any(b in strictly_above[c] for c in above - {b})]
        for n, above in strictly_above.items()
    }

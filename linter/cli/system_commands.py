"""`promolint table`, `join` and `lattice check|draw`: the promotion systems themselves, read
without any code (``auto`` modes are JAX's defaults: x64 off, standard promotion)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from promolint.cli.options import STDIN, UsageError, add_mode_options, command
from promolint.core.dtypes import label
from promolint.systems import SYSTEMS, Operand, Refused, get_system
from promolint.systems.tables import FORMATS, render_table

_SYSTEM_FLAGS = {"system": "--system", "x64_mode": "--x64/--x32", "promotion_mode": "--promotion",
                 "explicit_x64": "--explicit-x64"}  # fmt: skip


def _add_system_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", choices=list(SYSTEMS), help="promotion system (default: jax)")
    add_mode_options(parser)
    parser.add_argument("--explicit-x64", choices=["warn", "error", "allow"],
                        help="jax_explicit_x64_dtypes: what an explicit 64-bit dtype does with x64 off "
                        "(default: warn)")  # fmt: skip


def _system(args: argparse.Namespace):
    """The system the flags name (JAX's by default); with no code to read, ``auto`` is JAX's
    default (x64 off, standard promotion), and ``--promotion strict`` is the jax-strict system."""
    name = args.system or "jax"
    if args.promotion_mode == "strict":
        if name not in ("jax", "jax-strict"):
            raise UsageError(f"--promotion strict is a JAX mode; the {name} system has no such mode")
        name = "jax-strict"
    elif args.promotion_mode == "standard" and name == "jax-strict":
        raise UsageError("--promotion standard contradicts --system jax-strict")
    jax_only = [flag for flag, given in (("--x64/--x32", args.x64_mode not in (None, "auto")),
                                         ("--explicit-x64", args.explicit_x64 is not None)) if given]  # fmt: skip
    if jax_only and not name.startswith("jax"):
        raise UsageError(f"{jax_only[0]} is a JAX mode; the {name} system has no such mode")
    return get_system(name, x64=args.x64_mode == "on", explicit_x64=args.explicit_x64 or "warn")


def cmd_table(args: argparse.Namespace) -> int:
    system = _system(args)
    labels = system.table_nodes()
    cells = {(a, b): system.table_cell(a, b) for a in labels for b in labels}
    if args.format == "text":  # short names (i1, bf16, f8e4m3fn; see dtypes.LABELS) keep 35 columns readable
        cells = {(label(a), label(b)): label(c) for (a, b), c in cells.items()}
        labels = [label(n) for n in labels]
    sys.stdout.write(render_table(labels, cells, args.format))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    system = _system(args)
    nodes = system.table_nodes()
    operands = []
    for text in args.dtypes:
        if text in nodes and text not in ("i*", "f*", "c*"):  # the system's own names (MAX's index, ...)
            operands.append(Operand(text))
            continue
        try:
            operand = Operand.parse(text)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if operand.node not in nodes:
            raise UsageError(f"{text} is not a dtype of the {system.name} system")
        operands.append(operand)
    result = system.result_type(*operands)
    print(result)
    narrowed = _narrowed(system, operands)
    if narrowed:
        print(_narrowing_note(system, operands, narrowed))
    if args.explain and system.lattice is not None and not isinstance(result, Refused):
        print(system.lattice.explain(*dict.fromkeys(Operand(narrowed.get(op.dtype, op.dtype), op.weak).node
                                                    for op in operands)))  # fmt: skip
    return 1 if isinstance(result, Refused) else 0


def _narrowed(system, operands: list[Operand]) -> dict[str, str]:
    """The 64-bit dtypes JAX narrows before promoting them (x64 off): float64 -> float32."""
    from promolint.systems.jax import JaxSystem

    if not isinstance(system, JaxSystem):
        return {}
    return {op.dtype: system.canonical_dtype(op) for op in operands
            if not op.weak and system.canonical_dtype(op) != op.dtype}  # fmt: skip


def _narrowing_note(system, operands: list[Operand], narrowed: dict[str, str]) -> str:
    """`join` answers as ``jnp.result_type`` does, which narrows first; ``jnp.promote_types``
    does not, and may answer otherwise (refuse float32 with float64 under strict promotion)."""
    listed = ", ".join(f"{wide} to {narrow}" for wide, narrow in narrowed.items())
    note = f"note: x64 is off: JAX narrows {listed} before promoting, as jnp.result_type does"
    if len(operands) == 2 and not any(op.weak for op in operands):
        a, b = (op.dtype for op in operands)
        note += f"; jnp.promote_types({a}, {b}), which does not narrow, gives {system.promote_types(a, b)}"
    return note


def _file_or_system(args: argparse.Namespace) -> None:
    """A lattice file and the system flags name two different things to look at: refuse both."""
    given = [flag for dest, flag in _SYSTEM_FLAGS.items() if getattr(args, dest) is not None]
    if args.file and given:
        raise UsageError(f"{given[0]} names a promotion system, and {args.file} is a lattice file: give one")


def cmd_lattice_check(args: argparse.Namespace) -> int:
    from promolint.systems.lattice_io import LatticeFileError, check_file, check_loaded

    _file_or_system(args)
    if args.file:
        try:
            text, ok = check_file(args.file)
        except LatticeFileError as error:
            raise UsageError(str(error)) from None
    else:
        name, table = _system_table(args)
        text, ok = check_loaded(name, table)
    sys.stdout.write(text)
    return 0 if ok else 1


def _system_table(args: argparse.Namespace):
    """What `lattice check` checks of a system, and its name in the report: the table the system
    publishes (MAX's documentation prints one its prose contradicts), else its lattice, else
    (NumPy) the table `promolint table` prints for it."""
    from promolint.systems.lattice_io import FileLattice, PromotionTable

    system = _system(args)
    if system.name == "max":
        from promolint.systems.max_table import LABELS, ROWS

        cells = {(a, b): cell for a in LABELS for b, cell in zip(LABELS, ROWS[a])}
        return "MAX's printed table (max.graph.type_promotion)", PromotionTable(LABELS, cells)
    if system.lattice is not None:
        return f"the {system.name} system's lattice", FileLattice(system.lattice.edges)
    labels = system.table_nodes()
    cells = {(a, b): system.table_cell(a, b) for a in labels for b in labels}
    return f"the {system.name} system's table", PromotionTable(tuple(labels), cells)


def cmd_lattice_draw(args: argparse.Namespace) -> int:
    from promolint.systems.draw import render
    from promolint.systems.lattice_io import LatticeFileError, load_lattice

    _file_or_system(args)
    if args.file:
        try:
            lattice = load_lattice(args.file)
        except LatticeFileError as error:
            raise UsageError(str(error)) from None
    else:
        lattice = _system(args).lattice
        if lattice is None:
            raise UsageError(f"the {args.system} system is a table, not a lattice: it has no picture")
    args.write(render(lattice, args.format), None if args.output_file in (None, STDIN) else args.output_file)
    return 0


def add_system_commands(commands, write: Callable[[str, str | None], None]) -> None:
    """`table`, `join` and `lattice check|draw` under ``commands``; ``write(text, output_file)``
    writes what `lattice draw` draws (None: to stdout), as the other commands write."""
    table = command(commands, "table", "print a system's full promotion table",
                     "Each cell is the result of promoting its row's dtype with its column's (- where the system "
                     "refuses); short names in text (i1 is int8, f* a weak float).")  # fmt: skip
    _add_system_options(table)
    table.add_argument("--format", default="text", choices=FORMATS,
                       help=f"text (default): short names, aligned; or {', '.join(f for f in FORMATS if f != 'text')}")  # fmt: skip
    table.set_defaults(run=cmd_table)

    join = command(commands, "join", "the result of promoting dtypes (as jnp.result_type), and why",
                    "Exit status 1 where the system refuses the promotion.")  # fmt: skip
    join.add_argument("dtypes", nargs="+", metavar="DTYPE",
                      help="float32, f4, bf16, i1 (short names count bytes, as NumPy's: i8 is int64), "
                      "or int/float/complex (weak)")  # fmt: skip
    _add_system_options(join)
    join.add_argument("--explain", action="store_true", help="show the path through the lattice")
    join.set_defaults(run=cmd_join)

    lattice = command(commands, "lattice", "check or draw a promotion lattice",
                       "`lattice check` says whether a file or a system is a lattice; `lattice draw` draws one.")  # fmt: skip
    lattice_commands = lattice.add_subparsers(dest="lattice_command", metavar="ACTION", required=True)
    check = command(lattice_commands, "check", "say whether a DAG (TOML), a table (CSV/TOML) or a system's table "
                     "is a lattice", "Lists the pairs with no join or more than one, and the cells that are not "
                     "the join of the order the table implies; exit status 1 where it is not a lattice. "
                     "--system max checks the table MAX's documentation prints.")  # fmt: skip
    check.add_argument("file", nargs="?", metavar="FILE", help="a lattice file (default: the system's lattice or "
                       "printed table)")  # fmt: skip
    _add_system_options(check)
    check.set_defaults(run=cmd_lattice_check)
    draw = command(lattice_commands, "draw", "draw a lattice as SVG or Graphviz dot")
    draw.add_argument("file", nargs="?", metavar="FILE", help="a lattice file (default: the system's lattice)")
    _add_system_options(draw)
    draw.add_argument("--format", default="svg", choices=["svg", "dot"], help="svg (default) or Graphviz dot")
    draw.add_argument("-o", "--output-file", metavar="PATH", help="write the output there instead of to stdout")
    draw.set_defaults(run=cmd_lattice_draw, write=write)

"""``promolint``: the command line.

One spelling for the modes everywhere: ``--x64 on|off|auto`` (``--x64`` alone is ``on``, ``--x32``
is ``off``) and ``--promotion standard|strict|auto``.  Exit status, as ruff's: 0 clean, 1
findings, 2 a bad flag, file or configuration, or an internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from promolint import __version__
from promolint.dtypes import label
from promolint.report import FORMATS as REPORT_FORMATS
from promolint.systems import SYSTEMS, Operand, Refused, get_system
from promolint.tables import FORMATS, render_table

X64_MODES = ("on", "off", "auto")
PROMOTION_MODES = ("standard", "strict", "auto")
STDIN = "-"
NO_FILES_WARNING = "warning: No Python files found under the given path(s)"  # ruff's words
_STDERR = "<stderr>"  # an output file meaning standard error (the report beside a fixed source on stdout)


class UsageError(Exception):
    """A bad flag, file or config: reported in one line, exit status 2."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} workers cannot run anything: give 1 or more")
    return value


# --- the options several commands share, each spelled and explained once ------------------------
def _add_mode_options(parser: argparse.ArgumentParser) -> None:
    """JAX's modes; ``auto`` (the default) follows the linted code, and is JAX's own default
    where a command reads no code (`table`, `join`, `lattice`)."""
    parser.add_argument("--x64", dest="x64_mode", nargs="?", const="on", choices=X64_MODES,
                        help="jax_enable_x64: on (also --x64 alone), off, or auto (default): as the code sets it, "
                        "else off; table, join and lattice read no code: auto is off")  # fmt: skip
    parser.add_argument("--x32", dest="x64_mode", action="store_const", const="off", help="the same as --x64 off")
    parser.add_argument("--promotion", dest="promotion_mode", choices=PROMOTION_MODES,
                        help="jax_numpy_dtype_promotion: standard, strict, or auto (default): as the code sets "
                        "it, else standard; table, join and lattice read no code: auto is standard")  # fmt: skip


def _add_source_options(parser: argparse.ArgumentParser, what: str) -> None:
    """The paths to read, or standard input: `check` and `reveal` read them alike."""
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help=f"files, notebooks and directories to {what} (default: .); - reads standard input")  # fmt: skip
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="the name of the source read from standard input (for settings and reports)")  # fmt: skip
    parser.add_argument("--jobs", type=_positive_int,
                        help="worker processes (default: all cores; reveal: 1, which prints each file as it is "
                        "read)")  # fmt: skip


def _add_target_version_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target-version", metavar="VERSION",
                        help="the Python the code is written for (py310, py311, ...): syntax a later Python "
                        "added is a syntax error (replaces `target-version`)")  # fmt: skip


def _add_exclude_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exclude", help="comma-separated glob patterns to skip (replaces `exclude`)")
    parser.add_argument("--extend-exclude", help="comma-separated glob patterns to skip as well")
    parser.add_argument("--force-exclude", action="store_true", default=None,
                        help="apply the excludes to files named on the command line too (for pre-commit)")  # fmt: skip


def _add_test_files_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--test-files", help="comma-separated glob patterns of test modules, where PRM001 is not "
                        "reported (replaces `test-files`; empty: none)")  # fmt: skip


def _add_config_options(parser: argparse.ArgumentParser) -> None:
    """The flags that override [tool.promolint]: `check` and `config` share them."""
    codes = "comma-separated rule codes or prefixes"
    parser.add_argument("--select", help=f"{codes} to enable (replaces `select`)")
    parser.add_argument("--extend-select", help=f"{codes} to enable on top of `select`")
    parser.add_argument("--ignore", help=f"{codes} to disable")
    _add_mode_options(parser)
    _add_exclude_options(parser)
    _add_test_files_option(parser)
    _add_target_version_option(parser)
    parser.add_argument("--report-unused-noqa", action="store_true", default=None,
                        help="report `# noqa` directives that suppress nothing (PRM100)")  # fmt: skip
    parser.add_argument("--x64-portability", action="store_true", default=None,
                        help="analyze with x64 off and on; report where a dtype starts to differ (PRM010)")  # fmt: skip
    parser.add_argument("--numpy1-compat", action="store_true", default=None,
                        help="report where a dtype or an OverflowError differs between NumPy 1.x and 2 (PRM024)")  # fmt: skip
    parser.add_argument("--external", help="comma-separated codes of other tools, whose noqa directives PRM100 "
                        "leaves to them (adds to `external`)")  # fmt: skip
    parser.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE")
    parser.add_argument("--jax-version", metavar="VERSION", help="whose JAX facts to use (0.12.0; replaces "
                        "`jax-version`; default: the JAX installed in the linted environment)")  # fmt: skip


_CONFIG_FLAGS = ("select", "extend-select", "ignore", "exclude", "extend-exclude", "test-files", "force-exclude",
                 "report-unused-noqa", "x64-portability", "numpy1-compat", "external", "target-version",
                 "jax-version")  # fmt: skip


def _config(args: argparse.Namespace, start: Path):
    """[tool.promolint] found from ``start`` upward, overridden by the flags given (those the
    command has: `reveal` takes the modes and excludes only)."""
    from promolint.config import ConfigError, apply_flags, load_config

    flags = {key: getattr(args, key.replace("-", "_"), None) for key in _CONFIG_FLAGS}
    flags |= {"x64": args.x64_mode, "promotion": args.promotion_mode}
    if getattr(args, "baseline", None):  # a flag's path is the working directory's; the key's, the project's
        flags["baseline"] = os.path.abspath(args.baseline)
    try:
        return apply_flags(load_config(start), {key: value for key, value in flags.items() if value is not None})
    except ConfigError as error:
        raise UsageError(str(error)) from None


def _existing_paths(names: Sequence[str]) -> list[Path]:
    paths = [Path(name) for name in names]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    return paths


def _stdin_input(args: argparse.Namespace) -> tuple[str, bytes] | None:
    """(name, bytes) when the source comes from standard input: ``-`` as the path (named by
    ``--stdin-filename``), or ``--stdin-filename`` and no path, as ruff reads it."""
    named = args.paths or []
    if STDIN not in named and not (args.stdin_filename and not named):
        if args.stdin_filename:
            raise UsageError(f"--stdin-filename names the source on standard input, which is not read with a path "
                             f"({named[0]}): give - as the path, or drop --stdin-filename")  # fmt: skip
        return None
    if named != [STDIN] and named:
        raise UsageError("`-` (standard input) cannot be checked together with other paths")
    return args.stdin_filename or "stdin.py", sys.stdin.buffer.read()


# Pairs of `check` flags one of which would go unheeded: each is refused with its reason.
_CHECK_CONFLICTS = (
    ("diff", "fix", "--diff shows what --fix would change and writes nothing: give one of them"),
    ("diff", "statistics", "--diff prints a diff, which --statistics cannot count: give one of them"),
    ("diff", "format", "--diff prints a diff, not a report in another --format: give one of them"),
    ("write_baseline", "fix", "--write-baseline records findings as they are: run it without --fix"),
    ("write_baseline", "diff", "--write-baseline records findings and prints nothing: run it without --diff"),
    ("write_baseline", "baseline", "--write-baseline records every finding, which --baseline would filter: give "
                                   "one of them"),
    ("write_baseline", "statistics", "--write-baseline prints no report for --statistics: give one of them"),
    ("write_baseline", "format", "--write-baseline prints no report in any --format: give one of them"),
    ("write_baseline", "output_file", "--write-baseline writes FILE, not a report for -o/--output-file: give one "
                                      "of them"),
    ("no_cache", "cache_dir", "--no-cache uses no cache, so --cache-dir would go unused: give one of them"),
)  # fmt: skip


def _refuse_conflicts(args: argparse.Namespace) -> None:
    def given(dest: str) -> bool:
        value = getattr(args, dest)
        return value != "text" if dest == "format" else bool(value)

    for first, second, reason in _CHECK_CONFLICTS:
        if given(first) and given(second):
            raise UsageError(reason)
    if args.statistics and args.format != "text":
        raise UsageError(f"--statistics goes with --format text, not {args.format}")


def _warn_if_empty(paths: list[Path], config) -> bool:
    """True, having said so on stderr as ruff does, when ``paths`` hold no file to check."""
    from promolint.discovery import iter_files

    unreadable: list = []  # an entry that cannot be read is a finding, not an empty tree
    if next(iter(iter_files(paths, config, unreadable)), None) is not None or unreadable:
        return False
    print(NO_FILES_WARNING, file=sys.stderr)
    return True


def cmd_check(args: argparse.Namespace) -> int:
    from promolint.runner import run_check

    _refuse_conflicts(args)
    stdin = _stdin_input(args)
    paths = [] if stdin else _existing_paths(args.paths or ["."])
    config = _config(args, Path(stdin[0]).parent if stdin else paths[0])
    if stdin and config.force_exclude and config.excluded(Path(stdin[0])):
        if args.fix:  # an editor replaces its buffer with what comes back: give it back unchanged
            sys.stdout.buffer.write(stdin[1])
        return 0
    if not stdin and _warn_if_empty(paths, config) and args.format == "text" and not args.write_baseline:
        return 0  # "All checks passed!" would claim a check; a machine-read format still gets its empty report
    if args.diff or args.fix:
        from promolint.check import fix_paths  # loads the engine (and libcst): a cached run needs neither
    if args.diff:
        report = fix_paths(paths, config, unsafe=args.unsafe_fixes, write=False, jobs=args.jobs, stdin=stdin)
        _notes(report.notes)
        _write("".join(report.diffs), args.output_file)
        print(f"Would fix {_count(report.fixed, 'finding')}.", file=sys.stderr)
        if _internal_errors(report.diagnostics):
            return 2
        return 1 if report.diffs and not args.exit_zero else 0
    fixed, summary, output_file = 0, "", args.output_file
    if args.fix:
        report = fix_paths(paths, config, unsafe=args.unsafe_fixes, jobs=args.jobs, stdin=stdin)
        _notes(report.notes)
        diagnostics, fixed = report.diagnostics, report.fixed
        if stdin:  # the fixed source is the output; the report goes to stderr, as ruff does
            sys.stdout.buffer.write(report.output if report.output is not None else stdin[1])
            sys.stdout.flush()
            output_file = output_file or _STDERR
    else:
        if args.cache_dir:
            config = replace(config, cache_dir=str(Path(args.cache_dir).resolve()))
        run = run_check(paths, config, jobs=args.jobs, cache=not args.no_cache, stdin=stdin)
        diagnostics = run.diagnostics
        summary = (f"{_count(run.files, 'file')}: {run.files - run.skipped - run.cached} analyzed, {run.cached} "
                   f"unchanged (from the cache), {run.skipped} skipped (no NumPy/JAX names; syntax checked "
                   "only)\n")  # fmt: skip
    diagnostics, baseline_note = _baseline(args, config, diagnostics, stdin)
    if args.write_baseline:
        return 2 if _internal_errors(diagnostics) else 0
    from promolint.report import render

    text = render(diagnostics, args.format, statistics=args.statistics, fixed=fixed, unsafe_fixes=args.unsafe_fixes)
    if baseline_note and args.format == "text":
        text += baseline_note
    _write(text + (summary if args.statistics else ""), output_file)
    if _internal_errors(diagnostics):
        return 2
    return 1 if diagnostics and not args.exit_zero else 0


def _internal_errors(diagnostics) -> int:
    from promolint.runner import is_internal_error

    return sum(map(is_internal_error, diagnostics))


def _baseline(args: argparse.Namespace, config, diagnostics: list, stdin: tuple[str, bytes] | None) -> tuple[list, str]:
    """``diagnostics`` less those the baseline records (and a line saying how many), or all of
    them recorded with ``--write-baseline``."""
    if not (args.write_baseline or config.baseline):
        return diagnostics, ""
    from promolint import baseline

    def read(path: str) -> bytes:
        return stdin[1] if stdin and path == stdin[0] else Path(path).read_bytes()

    try:
        if args.write_baseline:
            count = baseline.write(Path(args.write_baseline), diagnostics, config.root, read)
            print(f"Recorded {_count(count, 'finding')} in {args.write_baseline}.", file=sys.stderr)
            return diagnostics, ""
        recorded = baseline.load(config.root / config.baseline)
    except baseline.BaselineError as error:
        raise UsageError(str(error)) from None
    reported = baseline.apply(recorded, diagnostics, config.root, read)
    hidden = len(diagnostics) - len(reported)
    return reported, f"{hidden} recorded in the baseline, not shown.\n" if hidden else ""


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _notes(notes: Sequence[str]) -> None:
    for note in notes:
        print(f"promolint: note: {note}", file=sys.stderr)


def _write(text: str, output_file: str | None) -> None:
    if output_file is None:
        sys.stdout.write(text)
        return
    if output_file is _STDERR:
        sys.stderr.write(text)
        return
    from promolint.files import write_atomically

    path = Path(output_file)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    except OSError as error:
        raise UsageError(f"cannot write {output_file}: {error.strerror}") from None


def cmd_config(args: argparse.Namespace) -> int:
    from promolint.config import render

    sys.stdout.write(render(_config(args, _existing_paths([args.path])[0])))
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    """Every file's records in order (as each is read with one job, so that `| head` sees them
    at once); a file that does not parse is a line on stderr (status 1), an internal error too
    (status 2).  The files of the run are a project, as for `check`: each file's code reads the
    others' modules."""
    import json
    from dataclasses import replace

    from promolint.discovery import iter_files, unreadable_entry
    from promolint.frontend.analysis import Settings
    from promolint.progress import Progress
    from promolint.project_facts import ProjectFacts
    from promolint.reveal import format_text, reveal_job
    from promolint.runner import parallel_map, run_facts

    stdin = _stdin_input(args)
    paths = [] if stdin else _existing_paths(args.paths or ["."])
    config = _config(args, Path(stdin[0]).parent if stdin else paths[0])
    if stdin and config.force_exclude and config.excluded(Path(stdin[0])):
        return 0
    settings = Settings(x64=config.x64, promotion=config.promotion, python=config.python)
    unreadable: list = []
    status, records_json, files = 0, [], [(Path(stdin[0]), stdin[1])] if stdin else []
    found = [] if stdin else list(iter_files(paths, config, unreadable))
    if not stdin and not found and not unreadable:
        print(NO_FILES_WARNING, file=sys.stderr)
    for path in found:
        try:
            files.append((path, path.read_bytes()))
        except OSError as error:
            unreadable.append(unreadable_entry(str(path), f"cannot read file: {error.strerror}"))
    for entry in unreadable:  # each a line, and the run goes on
        print(f"{entry.path}: {entry.message}", file=sys.stderr)
        status = 1
    with Progress(len(found), done=len(found) - len(files)) as progress:
        facts = run_facts(files, config.x64 == "auto")
        work = [(data, str(path), replace(settings, facts=facts.get(str(path), ProjectFacts())))
                for path, data in files]  # fmt: skip
        for (path, _), records in zip(files, parallel_map(reveal_job, work, args.jobs or 1)):
            progress.clear()  # the records may go to the same terminal
            if isinstance(records, Exception):  # one file's internal error must not end the run, nor print a traceback
                print(f"{path}:1:1: promolint could not analyze this file: internal error {type(records).__name__}: "
                      f"{records} (please report it)", file=sys.stderr)  # fmt: skip
                status = 2
            elif isinstance(records, str):
                print(f"{path}:{records}", file=sys.stderr)
                status = max(status, 1)
            elif args.format == "json":
                records_json += [{"path": str(path), **r} for r in records]
            else:
                sys.stdout.write(format_text(str(path), records))
            progress.advance()
    if args.format == "json":
        print(json.dumps(records_json, indent=1))
    return status


# --- the promotion systems: table, join, lattice ----------------------------------------------
_SYSTEM_FLAGS = {"system": "--system", "x64_mode": "--x64/--x32", "promotion_mode": "--promotion",
                 "explicit_x64": "--explicit-x64"}  # fmt: skip


def _add_system_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", choices=list(SYSTEMS), help="promotion system (default: jax)")
    _add_mode_options(parser)
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
    from promolint.lattice_io import LatticeFileError, check_file, check_loaded

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
    from promolint.lattice_io import FileLattice, PromotionTable

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
    from promolint.draw import render
    from promolint.lattice_io import LatticeFileError, load_lattice

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
    _write(render(lattice, args.format), None if args.output_file in (None, STDIN) else args.output_file)
    return 0


def _add_system_commands(commands) -> None:
    table = _command(commands, "table", "print a system's full promotion table",
                     "Each cell is the result of promoting its row's dtype with its column's (- where the system "
                     "refuses); short names in text (i1 is int8, f* a weak float).")  # fmt: skip
    _add_system_options(table)
    table.add_argument("--format", default="text", choices=FORMATS,
                       help=f"text (default): short names, aligned; or {', '.join(f for f in FORMATS if f != 'text')}")  # fmt: skip
    table.set_defaults(run=cmd_table)

    join = _command(commands, "join", "the result of promoting dtypes (as jnp.result_type), and why",
                    "Exit status 1 where the system refuses the promotion.")  # fmt: skip
    join.add_argument("dtypes", nargs="+", metavar="DTYPE",
                      help="float32, f4, bf16, i1 (short names count bytes, as NumPy's: i8 is int64), "
                      "or int/float/complex (weak)")  # fmt: skip
    _add_system_options(join)
    join.add_argument("--explain", action="store_true", help="show the path through the lattice")
    join.set_defaults(run=cmd_join)

    lattice = _command(commands, "lattice", "check or draw a promotion lattice",
                       "`lattice check` says whether a file or a system is a lattice; `lattice draw` draws one.")  # fmt: skip
    lattice_commands = lattice.add_subparsers(dest="lattice_command", metavar="ACTION", required=True)
    check = _command(lattice_commands, "check", "say whether a DAG (TOML), a table (CSV/TOML) or a system's table "
                     "is a lattice", "Lists the pairs with no join or more than one, and the cells that are not "
                     "the join of the order the table implies; exit status 1 where it is not a lattice. "
                     "--system max checks the table MAX's documentation prints.")  # fmt: skip
    check.add_argument("file", nargs="?", metavar="FILE", help="a lattice file (default: the system's lattice or "
                       "printed table)")  # fmt: skip
    _add_system_options(check)
    check.set_defaults(run=cmd_lattice_check)
    draw = _command(lattice_commands, "draw", "draw a lattice as SVG or Graphviz dot")
    draw.add_argument("file", nargs="?", metavar="FILE", help="a lattice file (default: the system's lattice)")
    _add_system_options(draw)
    draw.add_argument("--format", default="svg", choices=["svg", "dot"], help="svg (default) or Graphviz dot")
    draw.add_argument("-o", "--output-file", metavar="PATH", help="write the output there instead of to stdout")
    draw.set_defaults(run=cmd_lattice_draw)


# --- rules ------------------------------------------------------------------------------------
def cmd_explain(args: argparse.Namespace) -> int:
    from promolint.rules import rule_by_code

    rule = rule_by_code(args.code)
    if rule is None:
        raise UsageError(f"unknown rule {args.code!r}; `promolint rules` lists them")
    sys.stdout.write(rule.doc())
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from promolint.rules.registry import REGISTRY

    for info in REGISTRY:
        switches = (("opt-in" if info.opt_in else "default") + (", fixable" if info.fix != "never" else "")
                    + ("" if info.in_tests else ", not in tests"))
        print(f"{info.code}  {info.name:<22} {switches:<33} {info.title}")
    return 0


def cmd_server(args: argparse.Namespace) -> int:
    try:
        from promolint.server import main as serve
    except ImportError as error:  # pygls is the `lsp` extra
        raise UsageError(f"the language server needs {error.name}: pip install 'promolint[lsp]'") from None
    return serve()


# --- the parser -------------------------------------------------------------------------------
def _command(commands, name: str, summary: str, description: str = "", **options) -> argparse.ArgumentParser:
    """A command whose `--help` starts with what it is: ``summary`` (the line `promolint --help`
    lists), then ``description``."""
    return commands.add_parser(name, help=summary, description=f"{summary[0].upper()}{summary[1:]}. {description}",
                               **options)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="promolint", description="dtype inference and promotion lints for NumPy "
                                     "and JAX code: `promolint PATH` is `promolint check PATH`")  # fmt: skip
    parser.add_argument("--version", action="version", version=f"promolint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = _command(commands, "check", "lint files for promotion problems (the default command)",
                     "Exit status: 0 clean, 1 findings, 2 a bad flag, file or configuration, or an internal error.")  # fmt: skip
    _add_source_options(check, "check")
    _add_config_options(check)
    check.add_argument("--format", "--output-format", dest="format", default="text", choices=REPORT_FORMATS,
                       help="text (default); json; github: annotations in GitHub Actions; sarif: code scanning; "
                       "junit: a test report")  # fmt: skip
    check.add_argument("-o", "--output-file", metavar="PATH", help="write the output there instead of to stdout")
    check.add_argument("--statistics", action="store_true", help="count findings by rule and by file")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings (a report-only step)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    check.add_argument("--cache-dir", help="where the result cache lives (default: .promolint_cache in the project)")
    check.add_argument("--fix", action="store_true",
                       help="apply the safe fixes (stdin: print the fixed source), report what is left")  # fmt: skip
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="include the unsafe fixes (with --fix or --diff; else mark them fixable)")  # fmt: skip
    check.add_argument("--diff", action="store_true",
                       help="print a unified diff of what --fix would change and write nothing; exit 1 if it "
                       "would change something")  # fmt: skip
    check.add_argument("--write-baseline", metavar="FILE",
                       help="record every finding in FILE (for --baseline) and exit 0")  # fmt: skip
    check.set_defaults(run=cmd_check)

    config = _command(commands, "config", "print the effective configuration and where each value came from",
                      "The flags override [tool.promolint] as they do for `check`.")  # fmt: skip
    config.add_argument("path", nargs="?", default=".", metavar="PATH", help="where to look for pyproject.toml")
    _add_config_options(config)
    config.set_defaults(run=cmd_config)

    # Listed for help only: main() hands `run` to the shim's own parser, loaded only then.
    commands.add_parser("run", add_help=False, help="run a script, verifying every inferred dtype at run time")

    explain = _command(commands, "explain", "print a rule's documentation")
    explain.add_argument("code", help="a rule's code (PRM001, prm001) or name (implicit-x64)")
    explain.set_defaults(run=cmd_explain)
    rules = _command(commands, "rules", "list the rules", "Each with its name, whether it is on by default, "
                     "whether it has a fix, and what it reports.")  # fmt: skip
    rules.set_defaults(run=cmd_rules)

    reveal = _command(commands, "reveal", "show the inferred dtype of every expression",
                      "Like mypy's reveal_type, for dtypes; the files of a run are a project, as for `check`.")  # fmt: skip
    _add_source_options(reveal, "reveal")
    _add_mode_options(reveal)
    _add_target_version_option(reveal)
    _add_exclude_options(reveal)
    reveal.add_argument("--format", default="text", choices=["text", "json"],
                        help="text (default): path:line:col: expression: dtype [library]; json: a list of records "
                        "with spans, dtype, weak flag, library and refusal")  # fmt: skip
    reveal.set_defaults(run=cmd_reveal)

    server = _command(commands, "server", "run the language server (LSP over stdio) for editors",
                      "An editor starts it and talks to it on standard input and output: findings as you type, "
                      "fixes as code actions, dtypes on hover. Needs the lsp extra: pip install 'promolint[lsp]'.")  # fmt: skip
    server.set_defaults(run=cmd_server)

    _add_system_commands(commands)
    return parser


def _normalized(argv: list[str], commands: Sequence[str]) -> list[str]:
    """``--x64`` followed by a flag, a path or a dtype (or nothing) is ``--x64 on``: argparse
    would take what follows for its value (a word that is none of these is left to argparse to
    refuse); ``promolint src/`` is ``promolint check src/``."""
    spelled = list(argv)
    if not spelled or (spelled[0] not in commands and spelled[0] not in ("-h", "--help", "--version")):
        spelled.insert(0, "check")
    for index, token in enumerate(spelled):
        if token == "--":  # what follows is paths, whatever they look like
            break
        following = spelled[index + 1] if index + 1 < len(spelled) else None
        if token == "--x64" and following not in X64_MODES and (following is None or following.startswith("-")
                                                               or spelled[0] == "join" or _may_be_path(following)):  # fmt: skip
            spelled[index] = "--x64=on"
    return spelled


def _may_be_path(word: str) -> bool:
    """Whether ``word`` names a file or folder, or looks as if it should (`check` then says
    whether it exists)."""
    return (word == STDIN or os.path.exists(word) or os.sep in word or "/" in word
            or word.endswith((".py", ".pyi", ".ipynb")) or word in (".", ".."))  # fmt: skip


def _unknown_command(word: str, commands: Sequence[str]) -> str | None:
    """Why ``word``, given where a command goes, is neither a command nor a path: None when it
    may be a path (`check` then says whether it exists)."""
    if word in commands or word.startswith("-") or _may_be_path(word):
        return None
    import difflib

    close = difflib.get_close_matches(word, [c for c in commands if c != "run"] + ["run"], n=1, cutoff=0.6)
    hint = f"; did you mean `promolint {close[0]}`?" if close else f" (commands: {', '.join(commands)})"
    return f"unknown command {word!r}, and no file or directory has that name{hint}"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["run"]:
        from promolint.runtime.run import main as run_main

        return run_main(argv[1:])
    parser = build_parser()
    commands = list(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    if argv and (unknown := _unknown_command(argv[0], commands)):
        print(f"promolint: error: {unknown}", file=sys.stderr)
        return 2
    args = parser.parse_args(_normalized(argv, commands))
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        status = args.run(args)
        if not sys.stdout.closed:  # the language server closes its stdio when it ends
            sys.stdout.flush()
        return status
    except UsageError as error:
        print(f"promolint: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `promolint reveal src | head`: the reader has seen enough
        _silence_stdout()
        return 141  # what a shell reports for a writer a closed pipe ended (128 + SIGPIPE)
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, as ruff and pytest do; the cache is saved whole or not at all
        return 130  # 128 + SIGINT, what a shell reports for a command Ctrl-C ended


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises no second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (tests capture stdout)
        pass

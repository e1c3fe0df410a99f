"""``promolint``: the command line."""

from __future__ import annotations

import argparse
from dataclasses import replace
import sys
from collections.abc import Sequence
from pathlib import Path

from promolint.report import FORMATS as REPORT_FORMATS
from promolint.dtypes import DTYPES
from promolint.systems import SYSTEMS, Operand, Refused, get_system
from promolint.tables import FORMATS, render_table


class UsageError(Exception):
    """A bad flag, file or config: reported in one line, exit status 2."""


def _add_system_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--system", default="jax", choices=list(SYSTEMS), help="promotion system (default: jax)")
    x64 = parser.add_mutually_exclusive_group()
    x64.add_argument("--x64", dest="x64", action="store_true", default=False, help="JAX with jax_enable_x64")
    x64.add_argument("--x32", dest="x64", action="store_false", help="JAX with x64 off (the default)")
    parser.add_argument(
        "--explicit-x64",
        default="warn",
        choices=["warn", "error", "allow"],
        help="jax_explicit_x64_dtypes: what an explicit 64-bit dtype does with x64 off",
    )


def _system(args: argparse.Namespace):
    return get_system(args.system, x64=args.x64, explicit_x64=args.explicit_x64)


def cmd_table(args: argparse.Namespace) -> int:
    system = _system(args)
    labels = system.table_nodes()
    cells = {(a, b): system.table_cell(a, b) for a in labels for b in labels}
    if args.format == "text":  # bit-width abbreviations (i8, bf16, f8e4m3fn) keep 35 columns readable
        short = {n: DTYPES[n].short if n in DTYPES else n for n in labels}
        cells = {(short[a], short[b]): short.get(c, c) for (a, b), c in cells.items()}
        labels = [short[n] for n in labels]
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
    if args.explain and system.lattice is not None and not isinstance(result, Refused):
        print(system.lattice.explain(*dict.fromkeys(op.node for op in operands)))
    return 1 if isinstance(result, Refused) else 0


def cmd_lattice_check(args: argparse.Namespace) -> int:
    from promolint.lattice_io import LatticeFileError, check_file

    try:
        text, ok = check_file(args.file)
    except LatticeFileError as error:
        raise UsageError(str(error)) from None
    sys.stdout.write(text)
    return 0 if ok else 1


def cmd_lattice_draw(args: argparse.Namespace) -> int:
    from promolint.draw import render
    from promolint.lattice_io import LatticeFileError, load_lattice

    if args.file:
        try:
            lattice = load_lattice(args.file)
        except LatticeFileError as error:
            raise UsageError(str(error)) from None
    else:
        lattice = _system(args).lattice
        if lattice is None:
            raise UsageError(f"the {args.system} system is a table, not a lattice: it has no picture")
    picture = render(lattice, args.format)
    if args.output in (None, "-"):
        sys.stdout.write(picture)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(picture)
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    from promolint.frontend.analysis import Settings
    from promolint.frontend.source import ParseFailure
    from promolint.reveal import format_text, reveal_records

    settings = Settings(x64=args.x64_mode, promotion=args.promotion)
    status = 0
    outputs = []
    for path in args.files:
        try:
            with open(path, "rb") as source:
                data = source.read()
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror}") from None
        records = reveal_records(data, settings)
        if isinstance(records, ParseFailure):
            print(f"{path}:{records.line}:{records.column}: {records.message}", file=sys.stderr)
            status = 1
            continue
        outputs.append((path, records))
    if args.format == "json":
        import json

        print(json.dumps([{"path": p, **r} for p, records in outputs for r in records], indent=1))
    else:
        for path, records in outputs:
            sys.stdout.write(format_text(path, records))
    return status


def _add_mode_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--x64", dest="x64_mode", default="auto", choices=["on", "off", "auto"],
                        help="jax_enable_x64 (auto: off unless the code enables it)")  # fmt: skip
    parser.add_argument("--promotion", default="auto", choices=["standard", "strict", "auto"],
                        help="jax_numpy_dtype_promotion (auto: standard unless the code sets it)")  # fmt: skip


def _add_config_options(parser: argparse.ArgumentParser) -> None:
    """The flags that override [tool.promolint]: `check` and `config` share them."""
    codes = "comma-separated rule codes or prefixes"
    parser.add_argument("--select", help=f"{codes} to enable (replaces `select`)")
    parser.add_argument("--extend-select", help=f"{codes} to enable on top of `select`")
    parser.add_argument("--ignore", help=f"{codes} to disable")
    parser.add_argument("--x64", dest="x64_mode", choices=["on", "off", "auto"], help="jax_enable_x64 to assume")
    parser.add_argument("--promotion", dest="promotion_mode", choices=["standard", "strict", "auto"],
                        help="jax_numpy_dtype_promotion to assume")  # fmt: skip
    parser.add_argument("--exclude", help="comma-separated glob patterns to skip (replaces `exclude`)")
    parser.add_argument("--extend-exclude", help="comma-separated glob patterns to skip as well")
    parser.add_argument("--force-exclude", action="store_true", default=None,
                        help="apply the excludes to files named on the command line too (for pre-commit)")  # fmt: skip
    parser.add_argument("--report-unused-noqa", action="store_true", default=None,
                        help="report `# noqa` directives that suppress nothing (PRM100)")  # fmt: skip
    parser.add_argument("--x64-portability", action="store_true", default=None,
                        help="analyze with x64 off and on; report where a dtype starts to differ (PRM010)")  # fmt: skip


def _config(args: argparse.Namespace, start: Path):
    """[tool.promolint] found from ``start`` upward, overridden by the flags given."""
    from promolint.config import ConfigError, apply_flags, load_config

    keys = ("select", "extend-select", "ignore", "exclude", "extend-exclude", "force-exclude", "report-unused-noqa",
            "x64-portability")  # fmt: skip
    flags = {key: getattr(args, key.replace("-", "_")) for key in keys}
    flags |= {"x64": args.x64_mode, "promotion": args.promotion_mode}
    try:
        return apply_flags(load_config(start), {key: value for key, value in flags.items() if value is not None})
    except ConfigError as error:
        raise UsageError(str(error)) from None


def cmd_check(args: argparse.Namespace) -> int:
    from promolint.runner import run_check
    from promolint.report import render

    paths = [Path(p) for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    if args.statistics and args.format != "text":
        raise UsageError(f"--statistics goes with --format text, not {args.format}")
    config = _config(args, paths[0])
    if args.diff or args.fix:
        from promolint.check import fix_paths  # loads the engine (and libcst): a cached run needs neither
    if args.diff:
        report = fix_paths(paths, config, unsafe=args.unsafe_fixes, write=False, jobs=args.jobs)
        sys.stdout.write("".join(report.diffs))
        print(f"Would fix {report.fixed} finding{'s' if report.fixed != 1 else ''}.", file=sys.stderr)
        return 1 if report.diffs else 0
    fixed, summary = 0, ""
    if args.fix:
        report = fix_paths(paths, config, unsafe=args.unsafe_fixes, jobs=args.jobs)
        diagnostics, fixed = report.diagnostics, report.fixed
    else:
        if args.cache_dir:
            config = replace(config, cache_dir=str(Path(args.cache_dir).resolve()))
        run = run_check(paths, config, jobs=args.jobs, cache=not args.no_cache)
        diagnostics = run.diagnostics
        summary = (f"{run.files} files: {run.files - run.skipped - run.cached} analyzed, {run.cached} unchanged "
                   f"(from the cache), {run.skipped} skipped (no NumPy/JAX names; syntax checked only)\n")  # fmt: skip
    text = render(diagnostics, args.format, statistics=args.statistics, fixed=fixed, unsafe_fixes=args.unsafe_fixes)
    _write(text + (summary if args.statistics else ""), args.output_file)
    return 1 if diagnostics and not args.exit_zero else 0


def _write(text: str, output_file: str | None) -> None:
    if output_file is None:
        sys.stdout.write(text)
        return
    path = Path(output_file)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {output_file}: {error.strerror}") from None


def cmd_config(args: argparse.Namespace) -> int:
    from promolint.config import render

    start = Path(args.path)
    if not start.exists():
        raise UsageError(f"no such file or directory: {args.path}")
    sys.stdout.write(render(_config(args, start)))
    return 0


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
        switches = ("opt-in" if info.opt_in else "default") + (", fixable" if info.fix != "never" else "")
        print(f"{info.code}  {info.name:<22} {switches:<18} {info.title}")
    return 0


def cmd_server(args: argparse.Namespace) -> int:
    try:
        from promolint.server import main as serve
    except ImportError as error:  # pygls is the `lsp` extra
        raise UsageError(f"the language server needs {error.name}: pip install 'promolint[lsp]'") from None
    return serve()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="promolint", description="dtype inference and promotion lints")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="lint files for promotion problems (the default command)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    _add_config_options(check)
    check.add_argument("--format", "--output-format", dest="format", default="text", choices=REPORT_FORMATS,
                       help="text (default); github: annotations in GitHub Actions; sarif: code scanning")  # fmt: skip
    check.add_argument("-o", "--output-file", metavar="PATH", help="write the report there instead of to stdout")
    check.add_argument("--statistics", action="store_true", help="count findings by rule and by file")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings (a report-only step)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    check.add_argument("--cache-dir", help="where the result cache lives (default: .promolint_cache in the project)")
    check.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    check.add_argument("--fix", action="store_true", help="apply the safe fixes to the files, report what is left")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="include the unsafe fixes (with --fix or --diff; else mark them fixable)")  # fmt: skip
    check.add_argument("--diff", action="store_true",
                       help="print a unified diff of what --fix would change and write nothing; exit 1 if it "
                       "would change something")  # fmt: skip
    check.set_defaults(run=cmd_check)

    config = commands.add_parser("config", help="print the effective configuration and where each value came from")
    config.add_argument("path", nargs="?", default=".", metavar="PATH", help="where to look for pyproject.toml")
    _add_config_options(config)
    config.set_defaults(run=cmd_config)

    # Listed for help only: main() hands `run` to the shim's own parser, loaded only then.
    commands.add_parser("run", add_help=False, help="run a script, verifying every inferred dtype at run time")

    explain = commands.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("code", help="a rule's code (PRM001) or name (implicit-x64)")
    explain.set_defaults(run=cmd_explain)
    rules = commands.add_parser("rules", help="list the rules")
    rules.set_defaults(run=cmd_rules)

    table = commands.add_parser("table", help="print a system's full promotion table")
    _add_system_options(table)
    table.add_argument("--format", default="text", choices=FORMATS)
    table.set_defaults(run=cmd_table)

    join = commands.add_parser("join", help="the result of promoting dtypes, and why")
    join.add_argument("dtypes", nargs="+", metavar="DTYPE", help="float32, f4, bfloat16, or int/float/complex (weak)")
    _add_system_options(join)
    join.add_argument("--explain", action="store_true", help="show the path through the lattice")
    join.set_defaults(run=cmd_join)

    reveal = commands.add_parser("reveal", help="show the inferred dtype of every expression")
    reveal.add_argument("files", nargs="+", metavar="FILE")
    _add_mode_options(reveal)
    reveal.add_argument("--format", default="text", choices=["text", "json"])
    reveal.set_defaults(run=cmd_reveal)

    server = commands.add_parser("server", help="run the language server (LSP over stdio) for editors")
    server.set_defaults(run=cmd_server)

    lattice = commands.add_parser("lattice", help="check or draw a promotion lattice")
    lattice_commands = lattice.add_subparsers(dest="lattice_command", metavar="ACTION", required=True)
    check = lattice_commands.add_parser("check", help="is a DAG (TOML) or a table (CSV/TOML) a lattice?")
    check.add_argument("file")
    check.set_defaults(run=cmd_lattice_check)
    draw = lattice_commands.add_parser("draw", help="draw a lattice as SVG or Graphviz dot")
    draw.add_argument("file", nargs="?", help="a lattice file instead of a system")
    _add_system_options(draw)
    draw.add_argument("--format", default="svg", choices=["svg", "dot"])
    draw.add_argument("-o", "--output", help="output file (default: standard output)")
    draw.set_defaults(run=cmd_lattice_draw)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["run"]:
        from promolint.runtime.run import main as run_main

        return run_main(argv[1:])
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help")):
        argv.insert(0, "check")  # `promolint src/` means `promolint check src/`
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except UsageError as error:
        print(f"promolint: error: {error}", file=sys.stderr)
        return 2

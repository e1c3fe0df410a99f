"""``promolint``: the command line.

One spelling for each option everywhere (``promolint.cli.options``); the promotion systems'
commands are ``promolint.cli.system_commands``.  Exit status, as ruff's: 0 clean, 1 findings, 2 a bad
flag, file or configuration, or an internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from promolint import __version__
from promolint.cli.options import (
    STDIN,
    X64_MODES,
    UsageError,
    add_exclude_options,
    add_mode_options,
    add_source_options,
    add_target_version_option,
    add_test_files_option,
    command,
    may_be_path,
)
from promolint.report import FORMATS as REPORT_FORMATS
from promolint.cli.system_commands import add_system_commands

NO_FILES_WARNING = "warning: No Python files found under the given path(s)"  # ruff's words
_STDERR = "<stderr>"  # an output file meaning standard error (the report beside a fixed source on stdout)


def _add_config_options(parser: argparse.ArgumentParser) -> None:
    """The flags that override [tool.promolint]: `check` and `config` share them."""
    codes = "comma-separated rule codes or prefixes"
    parser.add_argument("--select", help=f"{codes} to enable (replaces `select`)")
    parser.add_argument("--extend-select", help=f"{codes} to enable on top of `select`")
    parser.add_argument("--ignore", help=f"{codes} to disable")
    add_mode_options(parser)
    add_exclude_options(parser)
    add_test_files_option(parser)
    add_target_version_option(parser)
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
    parser.add_argument("--input-dtypes", metavar="DTYPES", help="comma-separated dtypes parameters annotated as "
                        "arrays are called with besides 64-bit ones (replaces `input-dtypes`; default: float32; "
                        "'' for none)")  # fmt: skip


_CONFIG_FLAGS = ("select", "extend-select", "ignore", "exclude", "extend-exclude", "test-files", "force-exclude",
                 "report-unused-noqa", "x64-portability", "numpy1-compat", "external", "target-version",
                 "jax-version", "input-dtypes")  # fmt: skip


def _config(args: argparse.Namespace, start: Path):
    """[tool.promolint] found from ``start`` upward, overridden by the flags given (those the
    command has: `reveal` takes the modes and excludes only)."""
    from promolint.driver.config import ConfigError, apply_flags, load_config

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
    from promolint.driver.discovery import iter_files

    unreadable: list = []  # an entry that cannot be read is a finding, not an empty tree
    if next(iter(iter_files(paths, config, unreadable)), None) is not None or unreadable:
        return False
    print(NO_FILES_WARNING, file=sys.stderr)
    return True


def cmd_check(args: argparse.Namespace) -> int:
    from promolint.driver.runner import run_check

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
    from promolint.driver.jobs import internal_errors

    if args.cache_dir:
        config = replace(config, cache_dir=str(Path(args.cache_dir).resolve()))
    cache = not args.no_cache
    if args.diff or args.fix:
        from promolint.driver.fixing import fix_paths
    if args.diff:
        report = fix_paths(paths, config, unsafe=args.unsafe_fixes, write=False, jobs=args.jobs, stdin=stdin,
                           cache=cache)  # fmt: skip
        _notes(report.notes)
        _write("".join(report.diffs), args.output_file)
        print(f"Would fix {_count(report.fixed, 'finding')}.", file=sys.stderr)
        if internal_errors(report.diagnostics):
            return 2
        return 1 if report.diffs and not args.exit_zero else 0
    fixed, summary, output_file = 0, "", args.output_file
    if args.fix:
        report = fix_paths(paths, config, unsafe=args.unsafe_fixes, jobs=args.jobs, stdin=stdin, cache=cache)
        _notes(report.notes)
        diagnostics, fixed = report.diagnostics, report.fixed
        if stdin:  # the fixed source is the output; the report goes to stderr, as ruff does
            sys.stdout.buffer.write(report.output if report.output is not None else stdin[1])
            sys.stdout.flush()
            output_file = output_file or _STDERR
    else:
        run = run_check(paths, config, jobs=args.jobs, cache=cache, stdin=stdin)
        diagnostics = run.diagnostics
        summary = (f"{_count(run.files, 'file')}: {run.files - run.skipped - run.cached} analyzed, {run.cached} "
                   f"unchanged (from the cache), {run.skipped} skipped (no NumPy/JAX names; syntax checked "
                   "only)\n")  # fmt: skip
    diagnostics, baseline_note = _baseline(args, config, diagnostics, stdin)
    if args.write_baseline:
        return 2 if internal_errors(diagnostics) else 0
    from promolint.report import render

    text = render(diagnostics, args.format, statistics=args.statistics, fixed=fixed, unsafe_fixes=args.unsafe_fixes)
    if baseline_note and args.format == "text":
        text += baseline_note
    _write(text + (summary if args.statistics else ""), output_file)
    if internal_errors(diagnostics):
        return 2
    return 1 if diagnostics and not args.exit_zero else 0


def _baseline(args: argparse.Namespace, config, diagnostics: list, stdin: tuple[str, bytes] | None) -> tuple[list, str]:
    """``diagnostics`` less those the baseline records (and a line saying how many), or all of
    them recorded with ``--write-baseline``."""
    if not (args.write_baseline or config.baseline):
        return diagnostics, ""
    from promolint.driver import baseline

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
    from promolint.core.files import write_atomically

    path = Path(output_file)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    except OSError as error:
        raise UsageError(f"cannot write {output_file}: {error.strerror}") from None


def cmd_config(args: argparse.Namespace) -> int:
    from promolint.driver.config import render

    sys.stdout.write(render(_config(args, _existing_paths([args.path])[0])))
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    """Every file's records in order (each file's as soon as its worker's batch is done, so that
    `| head` sees them early); a file that does not parse is a line on stderr (status 1), an
    internal error too (status 2).  The files of the run are a project, as for `check`: each
    file's code reads the others' modules."""
    import json

    from promolint.core.diagnostics import Diagnostic
    from promolint.driver.progress import Progress
    from promolint.driver.reveal import format_text
    from promolint.driver.runner import found_files, read_run, revealed

    stdin = _stdin_input(args)
    paths = [] if stdin else _existing_paths(args.paths or ["."])
    config = _config(args, Path(stdin[0]).parent if stdin else paths[0])
    if stdin and config.force_exclude and config.excluded(Path(stdin[0])):
        return 0
    unreadable: list = []
    status, records_json = 0, []
    found = [] if stdin else found_files(paths, config, unreadable)
    if not stdin and not found and not unreadable:
        print(NO_FILES_WARNING, file=sys.stderr)
    with Progress(len(found)) as progress:
        run = read_run(found, config, progress, stdin)
        progress.clear()
        for entry in [*unreadable, *run.unreadable]:  # each a line, and the run goes on
            print(f"{entry.path}: {entry.message}", file=sys.stderr)
            status = 1
        for path, records in revealed(run, config, args.jobs):
            progress.clear()  # the records may go to the same terminal
            if isinstance(records, Diagnostic):  # an internal error: a line, not a traceback
                print(f"{path}:1:1: {records.message}", file=sys.stderr)
                status = 2
            elif isinstance(records, str):
                print(f"{path}:{records}", file=sys.stderr)
                status = max(status, 1)
            elif args.format == "json":
                records_json += [{"path": path, **r} for r in records]
            else:
                sys.stdout.write(format_text(path, records))
            progress.advance()
    if args.format == "json":
        print(json.dumps(records_json, indent=1))
    return status


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
        from promolint.integrations.server import main as serve
    except ImportError as error:  # pygls is the `lsp` extra
        raise UsageError(f"the language server needs {error.name}: pip install 'promolint[lsp]'") from None
    return serve()


# --- the parser -------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="promolint", description="dtype inference and promotion lints for NumPy "
                                     "and JAX code: `promolint PATH` is `promolint check PATH`")  # fmt: skip
    parser.add_argument("--version", action="version", version=f"promolint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = command(commands, "check", "lint files for promotion problems (the default command)",
                     "Exit status: 0 clean, 1 findings, 2 a bad flag, file or configuration, or an internal error.")  # fmt: skip
    add_source_options(check, "check")
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

    config = command(commands, "config", "print the effective configuration and where each value came from",
                      "The flags override [tool.promolint] as they do for `check`.")  # fmt: skip
    config.add_argument("path", nargs="?", default=".", metavar="PATH", help="where to look for pyproject.toml")
    _add_config_options(config)
    config.set_defaults(run=cmd_config)

    # Listed for help only: main() hands `run` to the shim's own parser, loaded only then.
    commands.add_parser("run", add_help=False, help="run a script, verifying every inferred dtype at run time")

    explain = command(commands, "explain", "print a rule's documentation")
    explain.add_argument("code", help="a rule's code (PRM001, prm001) or name (implicit-x64)")
    explain.set_defaults(run=cmd_explain)
    rules = command(commands, "rules", "list the rules", "Each with its name, whether it is on by default, "
                     "whether it has a fix, and what it reports.")  # fmt: skip
    rules.set_defaults(run=cmd_rules)

    reveal = command(commands, "reveal", "show the inferred dtype of every expression",
                      "Like mypy's reveal_type, for dtypes; the files of a run are a project, as for `check`.")  # fmt: skip
    add_source_options(reveal, "reveal")
    add_mode_options(reveal)
    add_target_version_option(reveal)
    add_exclude_options(reveal)
    reveal.add_argument("--format", default="text", choices=["text", "json"],
                        help="text (default): path:line:col: expression: dtype [library]; json: a list of records "
                        "with spans, dtype, weak flag, library and refusal")  # fmt: skip
    reveal.set_defaults(run=cmd_reveal)

    server = command(commands, "server", "run the language server (LSP over stdio) for editors",
                      "An editor starts it and talks to it on standard input and output: findings as you type, "
                      "fixes as code actions, dtypes on hover. Needs the lsp extra: pip install 'promolint[lsp]'.")  # fmt: skip
    server.set_defaults(run=cmd_server)

    add_system_commands(commands, _write)
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
                                                               or spelled[0] == "join" or may_be_path(following)):  # fmt: skip
            spelled[index] = "--x64=on"
    return spelled


def _unknown_command(word: str, commands: Sequence[str]) -> str | None:
    """Why ``word``, given where a command goes, is neither a command nor a path: None when it
    may be a path (`check` then says whether it exists)."""
    if word in commands or word.startswith("-") or may_be_path(word):
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

"""The options several commands share, each spelled and explained once (a test over the parsers
holds every command to it), and what reading them needs: ``--x64 on|off|auto`` (``--x64`` alone is
``on``, ``--x32`` is ``off``) and ``--promotion standard|strict|auto`` everywhere."""

from __future__ import annotations

import argparse
import os

from promolint.rules.registry import OUTSIDE_TESTS

X64_MODES = ("on", "off", "auto")
PROMOTION_MODES = ("standard", "strict", "auto")
STDIN = "-"


class UsageError(Exception):
    """A bad flag, file or config: reported in one line, exit status 2."""


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} workers cannot run anything: give 1 or more")
    return value


def add_mode_options(parser: argparse.ArgumentParser) -> None:
    """JAX's modes; ``auto`` (the default) follows the linted code, and is JAX's own default
    where a command reads no code (`table`, `join`, `lattice`)."""
    parser.add_argument("--x64", dest="x64_mode", nargs="?", const="on", choices=X64_MODES,
                        help="jax_enable_x64: on (also --x64 alone), off, or auto (default): as the code sets it, "
                        "else off; table, join and lattice read no code: auto is off")  # fmt: skip
    parser.add_argument("--x32", dest="x64_mode", action="store_const", const="off", help="the same as --x64 off")
    parser.add_argument("--promotion", dest="promotion_mode", choices=PROMOTION_MODES,
                        help="jax_numpy_dtype_promotion: standard, strict, or auto (default): as the code sets "
                        "it, else standard; table, join and lattice read no code: auto is standard")  # fmt: skip


def add_source_options(parser: argparse.ArgumentParser, what: str) -> None:
    """The paths to read, or standard input: `check` and `reveal` read them alike."""
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help=f"files, notebooks and directories to {what} (default: .); - reads standard input")  # fmt: skip
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="the name of the source read from standard input (for settings and reports)")  # fmt: skip
    parser.add_argument("--jobs", type=positive_int,
                        help="worker processes (default: all cores)")  # fmt: skip


def add_target_version_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target-version", metavar="VERSION",
                        help="the Python the code is written for (py310, py311, ...): syntax a later Python "
                        "added is a syntax error (replaces `target-version`)")  # fmt: skip


def add_exclude_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exclude", help="comma-separated glob patterns to skip (replaces `exclude`)")
    parser.add_argument("--extend-exclude", help="comma-separated glob patterns to skip as well")
    parser.add_argument("--force-exclude", action="store_true", default=None,
                        help="apply the excludes to files named on the command line too (for pre-commit)")  # fmt: skip


def add_test_files_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--test-files", help=f"comma-separated glob patterns of test modules, where "
                        f"{', '.join(OUTSIDE_TESTS)} are not reported (replaces `test-files`; empty: none)")  # fmt: skip


def command(commands, name: str, summary: str, description: str = "", **options) -> argparse.ArgumentParser:
    """A command whose `--help` starts with what it is: ``summary`` (the line `promolint --help`
    lists), then ``description``."""
    return commands.add_parser(name, help=summary, description=f"{summary[0].upper()}{summary[1:]}. {description}",
                               **options)  # fmt: skip


def may_be_path(word: str) -> bool:
    """Whether ``word`` names a file or folder, or looks as if it should (`check` then says
    whether it exists)."""
    return (word == STDIN or os.path.exists(word) or os.sep in word or "/" in word
            or word.endswith((".py", ".pyi", ".ipynb")) or word in (".", ".."))  # fmt: skip

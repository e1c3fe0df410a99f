"""``promolint``'s command line run in this process, as the CLI tests drive it."""

from __future__ import annotations

from pathlib import Path

from promolint.cli.main import main


def run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    """The exit status, standard output and standard error of ``promolint ARGV``."""
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err

"""The command line as one surface: every command spells a shared option the same way with the
same help, says what it is in `--help`, and reads the spellings the README documents; flags that
contradict each other are refused rather than one of them ignored; a run with nothing to check
says so."""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from cli_run import run
from promolint.cli.main import X64_MODES, build_parser, main

ROOT = Path(__file__).resolve().parents[2]
FLOAT64 = "import jax.numpy as jnp\nz = jnp.zeros(3, dtype=jnp.float64)\n"  # PRM007 with x64 off only
# An option whose choices are what its command can print: the same spelling, a help of its own.
PER_COMMAND = {"--format"}


def promolint(*argv: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "promolint", *argv], cwd=cwd, input=stdin, capture_output=True,
                          timeout=120, check=False)  # fmt: skip


def commands(parser: argparse.ArgumentParser, name: str = "promolint") -> dict[str, argparse.ArgumentParser]:
    """Every command's parser, by its full name (``lattice check``), nested ones included."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                full = f"{name} {word}".removeprefix("promolint ")
                found[full] = sub
                found |= commands(sub, full)
    return found


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]


ALL = commands(build_parser())
LISTED_ONLY = {"run"}  # its own parser, loaded when it runs: its --help is checked by running it


def test_every_command_and_option_has_help() -> None:
    listed = {a.dest: a.help for a in build_parser()._subparsers._group_actions[0]._choices_actions}  # type: ignore[union-attr]
    assert set(listed) == {name for name in ALL if " " not in name} and all(listed.values())
    for name, parser in ALL.items():
        if name in LISTED_ONLY:
            continue
        assert parser.description, f"`promolint {name} --help` does not say what it is"
        for action in options(parser):
            assert action.help, f"{name}: {action.option_strings or action.dest} has no help"


def test_an_option_several_commands_take_is_the_same_option_in_each() -> None:
    by_spelling: dict[str, list[tuple[str, argparse.Action]]] = defaultdict(list)
    for name, parser in ALL.items():
        for action in options(parser):
            for spelling in action.option_strings:
                by_spelling[spelling].append((name, action))
    shared = {spelling: found for spelling, found in by_spelling.items() if len(found) > 1}
    assert {"--x64", "--x32", "--promotion", "--exclude", "--jobs", "--stdin-filename", "--target-version",
            "-o"} <= set(shared)  # fmt: skip
    for spelling, found in shared.items():
        if spelling in PER_COMMAND:
            for name, action in found:
                assert all(choice in action.help for choice in action.choices), f"{name} {spelling}"
            continue
        first_name, first = found[0]
        for name, action in found[1:]:
            for attribute in ("option_strings", "dest", "choices", "default", "help", "nargs", "const", "type"):
                assert getattr(action, attribute) == getattr(first, attribute), (
                    f"{spelling}: {attribute} differs between `{first_name}` and `{name}`"
                )


def test_x64_alone_means_on_before_a_path_at_the_end_and_before_a_flag(tmp_path, capsys) -> None:
    source = tmp_path / "model.py"
    source.write_text(FLOAT64)
    for argv in (["--x64", str(source)], ["check", "--x64", str(source)], ["check", str(source), "--x64"],
                 ["check", "--x64", "--no-cache", str(source)]):  # fmt: skip
        status, out, _ = run(capsys, *argv)
        assert (status, out) == (0, "All checks passed!\n"), argv
    status, out, _ = run(capsys, "check", "--x32", "--no-cache", str(source))
    assert status == 1 and "PRM007" in out
    assert run(capsys, "config", "--x64", str(tmp_path))[1].count('x64 = "on"  # --x64') == 1
    assert run(capsys, "config", str(tmp_path), "--x32")[1].count('x64 = "off"  # --x64') == 1


@pytest.mark.parametrize("command", ["check", "reveal", "config", "table", "join", "lattice check", "lattice draw"])
def test_help_lists_x32_and_says_what_the_command_is(command, capsys) -> None:
    with pytest.raises(SystemExit):
        main([*command.split(), "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--x32 the same as --x64 off" in text
    assert ALL[command].description.split(".")[0] in text


def test_table_and_join_say_what_auto_is_for_a_command_that_reads_no_code(capsys) -> None:
    # auto is JAX's default, x64 off: the same answers as --x64 off, not --x64 on
    join = {mode: run(capsys, "join", "int8", "float64", "--x64", mode)[1] for mode in X64_MODES}
    assert join["auto"] == join["off"] != join["on"]
    assert run(capsys, "table", "--x64", "auto")[1] == run(capsys, "table", "--x32")[1]
    help_text = " ".join(ALL["table"]._option_string_actions["--x64"].help.split())
    assert "table, join and lattice read no code: auto is off" in help_text


def test_server_and_run_help_say_what_they_are(tmp_path) -> None:
    server = promolint("server", "--help", cwd=tmp_path)
    assert server.returncode == 0 and b"language server" in server.stdout.split(b"options:")[0].lower()
    shim = " ".join(promolint("run", "--help", cwd=tmp_path).stdout.decode().split())
    assert "run a script with promolint checking, at run time, every dtype it inferred" in shim
    assert "like coverage run." in shim and "Exit status:" in shim


def test_reveal_reads_stdin_and_defaults_to_the_current_folder(tmp_path) -> None:
    piped = promolint("reveal", "--x64", "off", "--stdin-filename", "src/model.py", "-", cwd=tmp_path,
                      stdin=FLOAT64.encode())  # fmt: skip
    assert piped.returncode == 0 and piped.stdout.decode().startswith("src/model.py:2:1: z: float32 [jax]")
    (tmp_path / "model.py").write_text(FLOAT64)
    default = promolint("reveal", "--x64", "off", cwd=tmp_path)
    assert default.returncode == 0 and default.stdout.decode().startswith("model.py:2:1: z: float32 [jax]")


def test_reveal_json_is_the_same_bytes_from_run_to_run(tmp_path) -> None:
    """Two processes give the same output: a variable's key names its function by position in
    the file's records, not by where the definition sits in memory."""
    (tmp_path / "scale.py").write_text("import jax.numpy as jnp\n\n\ndef scale(x, y):\n    return x * 2, y + 1\n")
    first, second = (promolint("reveal", "--format", "json", "scale.py", cwd=tmp_path) for _ in range(2))
    assert first.returncode == 0 and first.stdout == second.stdout
    keys = {r["variable"]: r["variable_key"] for r in json.loads(first.stdout) if r.get("variable")}
    assert keys == {"x": "1", "y": "2"}


def test_lattice_check_of_max_lists_the_cells_its_printed_table_gets_wrong(capsys) -> None:
    status, out, _ = run(capsys, "lattice", "check", "--system", "max")
    assert status == 1
    assert out.splitlines()[-5:] == ["  bool ∨ index = int64, least upper bound uint64",
                                     "  bool ∨ address = int64, least upper bound uint64",
                                     "  int8 ∨ index = index, least upper bound float16",
                                     "  int8 ∨ address = address, least upper bound float16",
                                     "NOT the join of any partial order: 4 cells disagree with the order"]  # fmt: skip
    from promolint.systems.max_table import LABELS, ROWS

    printed = list(csv.reader((ROOT / "tests/data/max-table.csv").read_text().splitlines()))
    assert [["Type", *LABELS], *([label, *ROWS[label]] for label in LABELS)] == printed


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["check", "--diff", "--fix", "."], "--diff shows what --fix would change"),
        (["check", "--stdin-filename", "a.py", "."], "give - as the path, or drop --stdin-filename"),
        (["reveal", "--stdin-filename", "a.py", "."], "give - as the path, or drop --stdin-filename"),
        (["check", "--no-cache", "--cache-dir", "cache", "."], "--no-cache uses no cache"),
        (["check", "--diff", "--statistics", "."], "--diff prints a diff"),
        (["check", "--diff", "--format", "json", "."], "--diff prints a diff"),
        (["check", "--write-baseline", "b.json", "--baseline", "b.json", "."], "--write-baseline records every"),
        (["check", "--write-baseline", "b.json", "-o", "report.txt", "."], "--write-baseline writes FILE"),
        (["lattice", "check", "lattice.toml", "--system", "max"], "--system names a promotion system"),
        (["lattice", "draw", "lattice.toml", "--x64", "on"], "--x64/--x32 names a promotion system"),
        (["join", "int8", "int16", "--system", "numpy", "--x64", "on"], "--x64/--x32 is a JAX mode"),
        (["table", "--system", "max", "--explicit-x64", "allow"], "--explicit-x64 is a JAX mode"),
    ],
)
def test_flags_that_contradict_each_other_exit_two_with_one_line(tmp_path, capsys, monkeypatch, argv,
                                                                 needle) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(FLOAT64)
    (tmp_path / "lattice.toml").write_text('[edges]\nbool = ["int8"]\n')
    status, out, err = run(capsys, *argv)
    assert status == 2 and needle in err and len(err.strip().splitlines()) == 1 and not out, err


def test_diff_writes_to_the_output_file_and_honours_exit_zero(tmp_path, capsys) -> None:
    (tmp_path / "a.py").write_text(FLOAT64)
    status, out, _ = run(capsys, "check", "--x64", "off", "--diff", "--exit-zero", "-o", str(tmp_path / "d.diff"),
                         str(tmp_path / "a.py"))  # fmt: skip
    assert (status, out) == (0, "") and "+z = jnp.zeros(3, dtype=jnp.float32)" in (tmp_path / "d.diff").read_text()


@pytest.mark.parametrize("command", ["check", "reveal"])
def test_a_run_with_no_python_file_warns_as_ruff_does(tmp_path, capsys, command) -> None:
    (tmp_path / "notes.txt").write_text("not code\n")
    status, out, err = run(capsys, command, str(tmp_path))
    assert (status, out, err) == (0, "", "warning: No Python files found under the given path(s)\n")
    assert run(capsys, command, str(tmp_path), "--format", "json")[:2] == (0, "[]\n")


def test_counts_are_singular_for_one(tmp_path, capsys) -> None:
    (tmp_path / "a.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n")
    status, out, _ = run(capsys, "check", "--statistics", "--no-cache", str(tmp_path))
    assert status == 1 and "Found 1 finding." in out
    assert out.endswith("1 file: 1 analyzed, 0 unchanged (from the cache), 0 skipped (no NumPy/JAX names; syntax "
                        "checked only)\n")  # fmt: skip

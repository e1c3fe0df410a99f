"""Syntax of a later Python than the one whose grammar is read: PRM000 names the Python it needs,
and why that is not the grammar read (the running Python's, or the older `target-version`'s)."""

from __future__ import annotations

import sys

import pytest

from promolint.cli.main import main
from promolint.engine.walker.analysis import Settings
from promolint.engine.walker.source import ParseFailure, parse_text
from promolint.driver.lint import lint_source

RUNNING = sys.version_info[:2]
# (source, what its construct is called, the Python that added it): each fails on earlier ones.
NEWER = [
    ("type Vector = list[float]\n", "`type` statements", (3, 12)),
    ("type Pair[T] = tuple[T, T]\n", "`type` statements", (3, 12)),
    ("def first[T](items: list[T]) -> T:\n    return items[0]\n", "type parameter lists", (3, 12)),
    ("class Box[T]:\n    item: T\n", "type parameter lists", (3, 12)),
    ("def f[T = int](x: T) -> T:\n    return x\n", "type parameter defaults", (3, 13)),
    ('label = f"{names["x"]}"\n', "f-strings nesting their own quotes", (3, 12)),
    ("label = f'{names['x']}'\n", "f-strings nesting their own quotes", (3, 12)),
    ('label = f"{f"{x}"}"\n', "f-strings nesting their own quotes", (3, 12)),
    ("label = f\"{'\\n'.join(lines)}\"\n", "backslashes in f-string expressions", (3, 12)),
    ("try:\n    pass\nexcept* ValueError:\n    pass\n", "`except*` clauses", (3, 11)),
    ("match x:\n    case 1:\n        pass\n", "`match` statements", (3, 10)),
    ('greeting = t"hello {name}"\n', 'template strings (`t"..."`)', (3, 14)),
    ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", "`except` clauses listing exceptions", (3, 14)),
]


def version(python: tuple[int, int]) -> str:
    return f"{python[0]}.{python[1]}"


@pytest.mark.parametrize(("source", "construct", "needs"), NEWER)
def test_syntax_of_a_later_python_names_it_and_the_running_one(source, construct, needs) -> None:
    parsed = parse_text(source)
    if RUNNING >= needs:
        assert not isinstance(parsed, ParseFailure)
        return
    assert isinstance(parsed, ParseFailure)
    assert parsed.message.startswith(f"syntax error: {construct}")
    assert parsed.message.endswith(f" need Python {version(needs)}; promolint runs on Python {version(RUNNING)}: "
                                   f"run it under Python {version(needs)} or later")  # fmt: skip


@pytest.mark.parametrize(("source", "construct", "needs"), NEWER)
def test_syntax_newer_than_the_target_names_the_target(source, construct, needs) -> None:
    target = (needs[0], needs[1] - 1)
    if RUNNING < target:
        pytest.skip(f"Python {version(RUNNING)} has no grammar of Python {version(target)}")
    parsed = parse_text(source, target)
    assert isinstance(parsed, ParseFailure)
    assert parsed.message.endswith(f" need Python {version(needs)}; target-version is py3{target[1]}")


def test_a_target_newer_than_the_running_python_says_so() -> None:
    parsed = parse_text("type Vector = list[float]\n", (3, 14))
    if RUNNING >= (3, 12):
        assert not isinstance(parsed, ParseFailure)
        return
    assert isinstance(parsed, ParseFailure) and parsed.message == (
        f"syntax error: `type` statements need Python 3.12; promolint runs on Python {version(RUNNING)}, older than "
        "target-version py314: run it under Python 3.12 or later")  # fmt: skip


def test_plain_syntax_errors_keep_pythons_message() -> None:
    for target in (None, (3, 10)):
        parsed = parse_text("x = = 1\n", target)
        assert isinstance(parsed, ParseFailure) and parsed.message == "syntax error: invalid syntax"
    assert isinstance(parse_text('x = f"{a}" + "b"\n', (3, 10)), ParseFailure) is False


def test_the_settings_target_reaches_the_lint_and_reveal(tmp_path, capsys) -> None:
    source = "try:\n    pass\nexcept* ValueError:\n    pass\n"
    (diagnostic,) = lint_source(source.encode(), "a.py", Settings(python=(3, 10)), frozenset({"PRM000"}))
    assert (diagnostic.code, diagnostic.message) == (
        "PRM000", "syntax error: `except*` clauses need Python 3.11; target-version is py310")
    assert lint_source(source.encode(), "a.py", Settings(), frozenset({"PRM000"})) == []
    (tmp_path / "a.py").write_text(source)
    status = main(["reveal", "--target-version", "py310", str(tmp_path / "a.py")])
    assert status == 1 and "`except*` clauses need Python 3.11; target-version is py310" in capsys.readouterr().err


@pytest.mark.parametrize("front_end", ["check", "check --fix", "check --no-cache", "flake8"])
def test_the_configured_target_reaches_check_fix_and_flake8(tmp_path, capsys, front_end) -> None:
    """`check` (its workers, its cache, the prefilter that skips files without NumPy or JAX
    names), `--fix` and the flake8 plugin read the project's `target-version` too."""
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\ntarget-version = "py310"\n')
    path = tmp_path / "a.py"
    path.write_text("try:\n    pass\nexcept* ValueError:\n    pass\n")  # no NumPy or JAX name in it
    expected = "`except*` clauses need Python 3.11; target-version is py310"
    if front_end == "flake8":
        import subprocess
        import sys

        done = subprocess.run([sys.executable, "-m", "flake8", "--select", "PRM", str(path)], capture_output=True,
                              text=True, cwd=tmp_path)  # fmt: skip
        assert expected in done.stdout
        return
    for _ in range(2):  # the second run answers from the cache, where check keeps one
        status = main([*front_end.split(), str(path)])
        assert status == 1 and expected in capsys.readouterr().out


@pytest.mark.parametrize("value", ["3.12", "py2", "py315", "python311"])
def test_a_bad_target_version_exits_two_with_one_line(tmp_path, capsys, value) -> None:
    status = main(["config", "--target-version", value, str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2 and f"--target-version = {value!r} is not one of py37," in err and len(err.splitlines()) == 1

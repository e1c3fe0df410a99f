"""Suppression comments, read as ruff reads them (``promolint.driver.noqa``): a `# noqa` on a
finding's line, with codes or blanket, and a `# promolint: disable=...` comment line that turns
codes off for the whole file; comments only, never text inside a string.  What an unused
directive reports is PRM100's (tests/rules/test_unused_noqa.py)."""

from __future__ import annotations

import pytest

from cli_run import run
from promolint.driver.noqa import Noqa, directives

BAD = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n"


def test_a_noqa_suppresses_the_codes_it_names_or_every_code_on_its_line(tmp_path, capsys) -> None:
    source = BAD.replace("1000\n", "1000  # noqa: PRM006\n") + "y = jnp.ones(3, jnp.int8) + 999  # noqa\n"
    source += "z = jnp.ones(3, jnp.int8) + 998  # noqa: PRM001\n"
    (tmp_path / "s.py").write_text(source)
    status, out, _ = run(capsys, "check", str(tmp_path))
    assert status == 1 and out.count("PRM006") == 1 and ":4:5:" in out


def test_noqa_inside_a_string_is_not_a_directive(tmp_path, capsys) -> None:
    (tmp_path / "s.py").write_text(BAD.replace("1000\n", '1000; s = "# noqa"\n'))
    assert ":2:5: PRM006" in run(capsys, "check", str(tmp_path))[1]


def test_file_level_disable_comment(tmp_path, capsys) -> None:
    lines = BAD.splitlines()
    (tmp_path / "off.py").write_text("\n".join([lines[0], "# promolint: disable=PRM001, PRM006", lines[1]]) + "\n")
    (tmp_path / "other.py").write_text("\n".join([lines[0], "# promolint: disable=PRM001", lines[1]]) + "\n")
    (tmp_path / "trailing.py").write_text(BAD.replace("1000\n", "1000  # promolint: disable=PRM006\n"))
    status, out, _ = run(capsys, "check", str(tmp_path))
    assert status == 1 and "off.py" not in out  # disabled for the whole file
    assert "other.py:3:5: PRM006" in out  # other codes stay on
    assert "trailing.py:2:5: PRM006" in out  # only a comment line disables a file


def test_a_file_without_directives_has_none() -> None:
    assert directives(b"x = 1  # a comment\n") == ({}, frozenset())


def test_codes_are_read_in_any_case_and_separator_once_each_in_order() -> None:
    noqas, disabled = directives(b"x = 1  # noqa: prm006, PRM001 PRM006,PRM002\n")
    ((noqa,),) = noqas.values()
    assert noqa.codes == ("PRM006", "PRM001", "PRM002") and disabled == frozenset()


def test_a_directive_spans_from_its_hash_to_its_last_code() -> None:
    line = "y = 2  # why: kept  # noqa: PRM006"
    noqas, _ = directives(f"x = 1\n{line}\n".encode())
    (noqa,) = noqas[2]
    start = line.index("# noqa") + 1  # columns are 1-based, as the findings' are
    assert (noqa.line, noqa.column, noqa.end_column) == (2, start, start + len("# noqa: PRM006"))


@pytest.mark.parametrize("comment", ["# noqa", "#noqa", "# NOQA"])
def test_a_directive_without_codes_is_blanket_and_covers_every_code(comment) -> None:
    noqas, _ = directives(f"x = 1  {comment}\n".encode())
    (noqa,) = noqas[1]
    assert noqa.codes is None and noqa.covers("PRM006") and noqa.covers("F401")


def test_a_directive_with_codes_covers_only_those() -> None:
    (noqa,) = directives(b"x = 1  # noqa: PRM006\n")[0][1]
    assert noqa.covers("PRM006") and not noqa.covers("PRM001")


def test_noqa_text_inside_a_string_is_no_directive() -> None:
    noqas, disabled = directives(b's = "# noqa: PRM006"\nt = """\n# promolint: disable=PRM006\n"""\n')
    assert noqas == {} and disabled == frozenset()


def test_only_a_comment_alone_on_its_line_disables_codes_for_the_file() -> None:
    data = b"# promolint: disable=prm001, PRM006\nx = 1  # promolint: disable=PRM002\n    # promolint: disable=PRM003\n"
    assert directives(data)[1] == frozenset({"PRM001", "PRM006", "PRM003"})


def test_comments_before_text_the_tokenizer_rejects_are_still_read() -> None:
    noqas, _ = directives(b"x = 1  # noqa: PRM006\ny = (\n")  # the bracket never closes
    assert [noqa.codes for noqa in noqas[1]] == [("PRM006",)]


def test_a_blanket_directive_is_unused_only_when_it_suppressed_nothing() -> None:
    enabled = frozenset({"PRM006"})
    assert Noqa(1, 1, 7, None).unused_message(enabled) == "unused blanket `noqa` directive"
    assert Noqa(1, 1, 7, None, used={"PRM006"}).unused_message(enabled) is None


def test_unused_codes_are_listed_by_kind() -> None:
    noqa = Noqa(1, 1, 40, ("PRM006", "PRM002", "PRM001", "XYZ123"), used={"PRM006"})
    message = noqa.unused_message(frozenset({"PRM006", "PRM002"}))
    assert message == "unused `noqa` directive (unused: `PRM002`; non-enabled: `PRM001`; unknown: `XYZ123`)"
    assert Noqa(1, 1, 20, ("PRM006",), used={"PRM006"}).unused_message(frozenset({"PRM006"})) is None


def test_codes_of_external_tools_are_theirs_to_judge_but_promolints_own_never_are() -> None:
    noqa = Noqa(1, 1, 40, ("F401", "E501", "W291", "PRM006"))
    message = noqa.unused_message(frozenset({"PRM006"}), external=("F", "E5", "PRM"))
    assert message == "unused `noqa` directive (unused: `PRM006`; unknown: `W291`)"

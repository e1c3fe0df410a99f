"""PRM100 (unused-noqa): `# noqa` directives that suppress nothing, reported as ruff's RUF100 reports
them, by kind (unused, non-enabled, unknown), opt-in, and leaving the codes of declared external
tools to those tools."""

from __future__ import annotations

from cli_run import run
from promolint.driver.config import Config


def test_unused_noqa_is_opt_in() -> None:
    assert "PRM100" not in Config().enabled_codes()
    assert "PRM100" in Config(report_unused_noqa=True).enabled_codes()
    assert "PRM100" in Config(extend_select=("PRM100",)).enabled_codes()
    assert "PRM100" not in Config(report_unused_noqa=True, ignore=("PRM100",)).enabled_codes()


def test_unused_noqa_is_reported_by_kind(tmp_path, capsys) -> None:
    (tmp_path / "u.py").write_text(
        "import jax.numpy as jnp\n"
        "a = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006\n"  # used
        "b = jnp.ones(3, jnp.float32) + 1  # noqa: PRM006\n"  # enabled, silent here: unused
        "c = jnp.ones(3, jnp.float32) + 1  # noqa: PRM002, XYZ123\n"  # PRM002 ignored below; XYZ123 unknown
        "d = jnp.ones(3, jnp.float32) + 1  # noqa\n"  # blanket, suppresses nothing
        "e = jnp.ones(3, jnp.int8) + 1000  # noqa\n"  # blanket, used
        "f = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006, PRM001\n"  # partly used
    )
    assert run(capsys, "check", str(tmp_path))[0] == 0  # off by default, like ruff's RUF100
    status, out, _ = run(capsys, "check", str(tmp_path), "--report-unused-noqa", "--ignore", "PRM002")
    assert status == 1
    assert [line.split(": ", 1)[1] for line in out.splitlines()[:-1]] == [
        "PRM100 unused `noqa` directive (unused: `PRM006`)",
        "PRM100 unused `noqa` directive (non-enabled: `PRM002`; unknown: `XYZ123`)",
        "PRM100 unused blanket `noqa` directive",
        "PRM100 unused `noqa` directive (non-enabled: `PRM001`)",  # opt-in
    ]
    assert out.startswith(f"{tmp_path / 'u.py'}:3:35: PRM100")  # at the directive


def test_noqa_for_a_rule_disabled_in_the_file_is_non_enabled_not_unused(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nper-file-ignores = {"gen.py" = ["PRM006"]}\n')
    line = "x = jnp.ones(3, jnp.int8) + 1000  # noqa: PRM006\n"
    (tmp_path / "gen.py").write_text("import jax.numpy as jnp\n" + line)
    (tmp_path / "off.py").write_text("import jax.numpy as jnp\n# promolint: disable=PRM006\n" + line)
    (tmp_path / "on.py").write_text("import jax.numpy as jnp\n" + line)
    status, out, _ = run(capsys, "check", str(tmp_path), "--report-unused-noqa")
    assert status == 1 and "on.py" not in out
    assert out.count("(non-enabled: `PRM006`)") == 2 and "unused:" not in out


def test_unused_noqa_can_itself_be_disabled(tmp_path, capsys) -> None:
    (tmp_path / "u.py").write_text("# promolint: disable=PRM100\nx = 1  # noqa\n")
    assert run(capsys, "check", str(tmp_path), "--report-unused-noqa")[0] == 0


def test_external_noqa_codes_are_left_to_their_tools(tmp_path, capsys) -> None:
    (tmp_path / "m.py").write_text("import os  # noqa: F401\nimport sys  # noqa: E401, PRM006\nx = 1  # noqa: W291\n")
    status, out, _ = run(capsys, "check", str(tmp_path), "--report-unused-noqa")
    assert status == 1 and "unknown: `F401`" in out and "unknown: `E401`" in out
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nexternal = ["F401", "E"]\n')
    status, out, _ = run(capsys, "check", str(tmp_path), "--report-unused-noqa")
    assert status == 1 and "F401" not in out and "E401" not in out  # declared: theirs to judge
    assert "m.py:2:13: PRM100 unused `noqa` directive (unused: `PRM006`)" in out  # promolint's own still judged
    assert "m.py:3:8: PRM100 unused `noqa` directive (unknown: `W291`)" in out
    assert run(capsys, "check", str(tmp_path), "--report-unused-noqa", "--external", "W")[1].count("PRM100") == 1
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nexternal = ["PRM006"]\n')
    status, _, err = run(capsys, "check", str(tmp_path))
    assert status == 2 and "'PRM006' is promolint's own code" in err

"""[tool.promolint] and the flags over it: `promolint config` shows the result, `check` obeys it,
and every bad key, code or value stops the run with exit status 2 and says what is allowed."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from cli_run import run
from promolint.cli.main import main
from promolint.driver.config import RULE_CODES, apply_flags, parse_table
from promolint.rules import ALL_RULES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

BAD = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n"
PYPROJECT = """\
[tool.promolint]
ignore = ["PRM003"]
x64 = "on"
extend-exclude = ["vendored"]
per-file-ignores = {"gen_*.py" = ["PRM006"]}
"""


def test_config_prints_the_effective_settings_as_toml_with_their_origin(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    status, out, _ = run(capsys, "config", str(tmp_path), "--ignore", "PRM002", "--promotion", "strict")
    settings = tomllib.loads(out)["tool"]["promolint"]
    assert status == 0 and out.startswith(f"# settings from {tmp_path / 'pyproject.toml'}\n")
    assert settings["ignore"] == ["PRM003", "PRM002"] and settings["x64"] == "on" and settings["promotion"] == "strict"
    assert settings["per-file-ignores"] == {"gen_*.py": ["PRM006"]} and settings["report-unused-noqa"] is False
    lines = out.splitlines()
    assert 'ignore = ["PRM003", "PRM002"]  # pyproject.toml, --ignore' in lines
    assert 'x64 = "on"  # pyproject.toml' in lines and 'promotion = "strict"  # --promotion' in lines
    assert 'select = ["PRM"]  # default' in lines
    assert lines[-1] == "# enabled: PRM000 PRM004 PRM005 PRM006 PRM007 PRM008 PRM009 PRM021 PRM022 PRM025"


def test_config_shows_the_target_version_and_where_it_came_from(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\ntarget-version = "py310"\n')
    assert 'target-version = "py310"  # pyproject.toml' in run(capsys, "config", str(tmp_path))[1].splitlines()
    out = run(capsys, "config", str(tmp_path), "--target-version", "py312")[1]
    assert 'target-version = "py312"  # --target-version' in out.splitlines()
    assert tomllib.loads(out)["tool"]["promolint"]["target-version"] == "py312"


def test_config_without_a_table_shows_the_defaults(tmp_path, capsys) -> None:
    status, out, _ = run(capsys, "config", str(tmp_path))
    settings = tomllib.loads(out)["tool"]["promolint"]
    assert status == 0 and out.startswith("# no [tool.promolint] table found: defaults")
    assert {key: settings[key] for key in ("select", "ignore", "x64", "promotion", "report-unused-noqa")} == {
        "select": ["PRM"],
        "ignore": [],
        "x64": "auto",
        "promotion": "auto",
        "report-unused-noqa": False,
    }
    assert all(line.endswith("# default") for line in out.splitlines() if " = " in line)


def test_config_output_reads_back_as_the_same_configuration(tmp_path, capsys) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    out = run(capsys, "config", str(tmp_path), "--report-unused-noqa", "--extend-select", "PRM100")[1]
    shown = parse_table(tomllib.loads(out)["tool"]["promolint"], tmp_path / "pyproject.toml")
    original = apply_flags(parse_table(tomllib.loads(PYPROJECT)["tool"]["promolint"], tmp_path / "pyproject.toml"),
                           {"report-unused-noqa": True, "extend-select": "PRM100"})  # fmt: skip
    assert replace(shown, origins={}) == replace(original, origins={})


def test_select_flag_replaces_and_list_flags_extend() -> None:
    config = parse_table({"select": ["PRM00"], "ignore": ["PRM003"], "exclude": ["a"], "extend-exclude": ["b"]},
                         Path("/p/pyproject.toml"))  # fmt: skip
    flagged = apply_flags(config, {"select": "PRM001,PRM002", "ignore": "PRM002", "extend-select": "PRM100",
                                   "exclude": "c", "extend-exclude": "d, e"})  # fmt: skip
    assert flagged.select == ("PRM001", "PRM002") and flagged.ignore == ("PRM003", "PRM002")
    assert flagged.exclude == ("c",) and flagged.extend_exclude == ("b", "d", "e")
    assert flagged.enabled_codes() == {"PRM000", "PRM001", "PRM100"}
    assert (
        flagged.origins["select"] == "--select"
        and flagged.origins["extend-exclude"] == "pyproject.toml, --extend-exclude"
    )


def test_the_configuration_knows_every_rule_and_which_are_opt_in() -> None:
    assert RULE_CODES == {rule.code: rule.opt_in for rule in ALL_RULES}


def test_check_obeys_the_flags(tmp_path, capsys) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "bad.py").write_text(BAD)
    status, out, _ = run(capsys, "check", str(tmp_path), "--extend-exclude", "gen")
    assert status == 1 and "gen" not in out and "bad.py:2:5: PRM006" in out
    assert run(capsys, "check", str(tmp_path), "--exclude", "bad.py")[0] == 0
    assert run(capsys, "check", str(tmp_path), "--select", "PRM001", "--extend-select", "PRM006")[0] == 1


# float64 reference data meeting float32 results under x64: PRM001 in any module, which tests do on purpose.
LEAK = "import jax.numpy as jnp\nimport numpy as np\nx = jnp.ones(3, jnp.float32)\ny = x * np.ones(3)\n"


def test_prm001_is_not_reported_in_test_modules_unless_test_files_says_so(tmp_path, capsys) -> None:
    for name in ("pkg/model.py", "pkg/test_model.py", "pkg/model_test.py", "tests/helpers.py", "pkg/conftest.py",
                 "pkg/testing/data.py"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(LEAK)
    (tmp_path / "pkg" / "strict_test.py").write_text(BAD)  # other rules still report in tests

    def reported(*flags: str) -> set[str]:
        out = run(capsys, "check", str(tmp_path), "--x64", "on", "--no-cache", "--extend-select", "PRM001", *flags)[1]
        return {line.split(":")[0].removeprefix(str(tmp_path) + "/") + " " + line.split(": ")[1][:6]
                for line in out.splitlines() if ": PRM" in line}  # fmt: skip

    assert reported() == {"pkg/model.py PRM001", "pkg/strict_test.py PRM006"}
    everywhere = reported("--test-files", "")
    assert {entry.split()[0] for entry in everywhere if entry.endswith("PRM001")} == {
        "pkg/model.py", "pkg/test_model.py", "pkg/model_test.py", "tests/helpers.py", "pkg/conftest.py",
        "pkg/testing/data.py"}  # fmt: skip
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\ntest-files = ["*_test.py"]\n')
    assert {e for e in reported() if e.endswith("PRM001")} == {
        "pkg/model.py PRM001", "pkg/test_model.py PRM001", "tests/helpers.py PRM001", "pkg/conftest.py PRM001",
        "pkg/testing/data.py PRM001"}  # fmt: skip
    assert "not in tests" in run(capsys, "rules")[1].splitlines()[1]


# A library function widening a float32 input under x64: what a test module's functions do is no caller's contract.
WIDENS = "import jax.numpy as jnp\n\ndef regularize(a):\n    return a + jnp.eye(3)\n"


def test_input_contracts_hold_outside_test_modules(tmp_path, capsys) -> None:
    for name in ("pkg/model.py", "pkg/test_model.py", "tests/helpers.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(WIDENS)
    out = run(capsys, "check", str(tmp_path), "--x64", "on", "--no-cache", "--select", "PRM029")[1]
    assert {line.split(":")[0].removeprefix(str(tmp_path) + "/") for line in out.splitlines() if ": PRM" in line} == {
        "pkg/model.py"}  # fmt: skip


def test_force_exclude_applies_excludes_to_named_files(tmp_path, capsys, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nextend-exclude = ["gen"]\n')
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "bad.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "check", "gen/bad.py")[0] == 1  # named explicitly: checked, as ruff does
    assert run(capsys, "check", "gen/bad.py", "--force-exclude")[0] == 0
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nextend-exclude = ["gen"]\nforce-exclude = true\n')
    assert run(capsys, "check", "gen/bad.py")[0] == 0


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('colour = "red"', "unknown key 'colour' (allowed: baseline, cache-dir, exclude, extend-exclude, "
                           "extend-select,"),
        ('select = ["PRM999"]', "unknown rule code 'PRM999' in"),
        ('select = ["XYZ"]', "(known: PRM000, PRM001"),
        ('select = "PRM001"', "select must be a list of rule codes"),
        ('x64 = "sometimes"', "x64 = 'sometimes' is not one of on, off, auto"),
        ('promotion = "loose"', "promotion = 'loose' is not one of standard, strict, auto"),
        ('target-version = "3.12"', "target-version = '3.12' is not one of py37, py38,"),
        ('report-unused-noqa = "yes"', "report-unused-noqa = 'yes' is not one of true, false"),
        ("force-exclude = 1", "force-exclude = 1 is not one of true, false"),
        ("exclude = [1]", "exclude must be a list of glob patterns"),
        ('test-files = "tests"', "test-files must be a list of glob patterns"),
        ('per-file-ignores = ["x"]', "per-file-ignores must be a table of glob = [codes]"),
        ('per-file-ignores = {"a.py" = ["NOPE1"]}', "unknown rule code 'NOPE1' in"),
        ("[tool.promolint.lint]", "unknown key 'lint'"),
    ],
)
def test_bad_setting_exits_two_naming_what_is_allowed(tmp_path, capsys, toml, needle) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.promolint]\n{toml}\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    for command in ("check", "config"):
        status, _, err = run(capsys, command, str(tmp_path))
        assert status == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (("--select", "NOPE"), "unknown rule code 'NOPE' in --select"),
        (("--extend-select", "PRM1000"), "unknown rule code 'PRM1000' in --extend-select"),
        (("--ignore", "E501"), "unknown rule code 'E501' in --ignore"),
    ],
)
def test_bad_flag_value_exits_two(tmp_path, capsys, flags, needle) -> None:
    status, _, err = run(capsys, "check", str(tmp_path), *flags)
    assert status == 2 and needle in err


def test_bad_mode_flag_is_an_argparse_error(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["config", "--promotion", "loose"])
    assert exited.value.code == 2 and "invalid choice: 'loose'" in capsys.readouterr().err

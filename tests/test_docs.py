"""The docs say what the code does: docs/rules.md is generated from the rules, and the settings
example in docs/ci.md is a configuration promolint accepts."""

from __future__ import annotations

import re
from pathlib import Path

from promolint.rules import RULES
from promolint.cli import main
from promolint.docs import RULES_MD, rules_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_rules_md_is_up_to_date() -> None:
    assert RULES_MD.read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is stale: run `python -m promolint.docs`"
    )


def test_rules_md_documents_every_code_with_a_working_link() -> None:
    text = rules_markdown()
    for rule in RULES:
        assert f"## {rule.name} ({rule.code})" in text  # GitHub anchors this heading as below
        assert f"(#{rule.name}-{rule.code.lower()})" in text


def test_ci_md_configuration_example_is_accepted(tmp_path, capsys) -> None:
    (example,) = re.findall(r"```toml\n(.*?)```", (DOCS / "ci.md").read_text(encoding="utf-8"), re.DOTALL)
    (tmp_path / "pyproject.toml").write_text(example)
    status = main(["config", str(tmp_path)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert 'per-file-ignores = {"tests/*" = ["PRM006"]}  # pyproject.toml' in out


def test_readme_shows_what_check_prints_on_its_example(capsys, monkeypatch) -> None:
    root = DOCS.parent
    (shown,) = re.findall(r"```text\n(fixtures/readme_example\.py:\d+:\d+: PRM.*?)```",
                          (root / "README.md").read_text(encoding="utf-8"), re.DOTALL)  # fmt: skip
    monkeypatch.chdir(root)
    status = main(["check", "fixtures/readme_example.py", "--no-cache", "--x64", "off"])
    assert status == 1 and capsys.readouterr().out == shown

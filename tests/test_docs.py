"""The docs say what the code does: docs/rules.md is generated from the rules, the README's command
outputs and the figures of README.md and docs/ from where they are kept (tests/update_docs.py),
and the settings example in docs/ci.md is a configuration promolint accepts."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from promolint.rules import RULES
from promolint.cli.main import _normalized, build_parser, main
from promolint.report.rule_docs import RULES_MD, rules_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs"
COMMANDS = ("check", "config", "run", "explain", "rules", "reveal", "server", "table", "join", "lattice")
README = DOCS.parent / "README.md"
sys.path.insert(0, str(DOCS.parent / "tests"))
import update_docs  # noqa: E402
from _ledger import Verdict  # noqa: E402  (tests/primer, which update_docs puts on the path)

from promolint.rules.registry import REGISTRY  # noqa: E402


def test_rules_md_is_up_to_date() -> None:
    assert RULES_MD.read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is stale: run `python -m promolint.report.rule_docs`"
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


@pytest.mark.parametrize("path", [p for p in update_docs.DOCUMENTS if p != RULES_MD], ids=lambda p: p.name)
def test_generated_parts_are_what_promolint_and_the_figures_give_now(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert update_docs.generated(text) == text, f"{path.name} is stale: run `python tests/update_docs.py`"


def test_readme_quick_start_shows_the_output_of_its_commands() -> None:
    text = README.read_text(encoding="utf-8")
    quick_start = text[text.index("## Quick start"):text.index("\n## ", text.index("## Quick start") + 1)]
    blocks = re.findall(r"```console\n(.*?)```", quick_start, re.DOTALL)
    assert [block.splitlines()[0] for block in blocks] == [
        "$ promolint check fixtures/readme_example.py", "$ promolint check fixtures/readme_example.py --x64 off"]
    for block in blocks:
        command, *shown = block.splitlines(keepends=True)
        assert "".join(shown) == update_docs.command_output(command[2:].strip())
        assert re.search(r"^Found \d+ findings?\.$", "".join(shown), re.MULTILINE), block


def test_a_ledger_change_makes_the_generated_figures_stale(monkeypatch) -> None:
    ledger = update_docs.read_ledger()
    noise = next(key for key, verdict in ledger.items() if key.rule == "PRM027" and verdict.verdict == "noise")
    judged_again = {**ledger, noise: Verdict("bug", "judged again")}
    original = update_docs.read_ledger
    monkeypatch.setattr(update_docs, "read_ledger",
                        lambda path=update_docs.LEDGER: judged_again if path == update_docs.LEDGER else original(path))
    stale = {path.name for path, _ in update_docs.stale_documents()}
    assert {"README.md", "primer.md"} <= stale


def test_a_bench_run_makes_the_speed_figures_stale(monkeypatch, tmp_path: Path) -> None:
    run = update_docs.json.loads(update_docs.LAST_BENCH_RUN.read_text(encoding="utf-8"))
    (tmp_path / "last_run.json").write_text(update_docs.json.dumps({**run, "cold_all_cores_s": 1.0}))
    monkeypatch.setattr(update_docs, "LAST_BENCH_RUN", tmp_path / "last_run.json")
    assert "README.md" in {path.name for path, _ in update_docs.stale_documents()}


def test_rule_titles_carry_no_measured_figures() -> None:
    """Primer counts and precisions live in the ledger and the docs generated from it, never typed
    into the titles `promolint rules` and mypy print."""
    for info in REGISTRY:
        assert not re.search(r"\d+ of (?:its )?\d+|\d+%|none of its", info.title), info.code


def _documented_commands() -> list[str]:
    """Every `promolint ...` the docs write out with arguments, as code or in a code block; the ones
    with placeholders (`CODE`, `[FLAGS]`, `on|off`, `...`) and `promolint run`'s script lines left out."""
    commands = set()
    for path in update_docs.DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        blocks = "\n".join(re.findall(r"^```\w*\n(.*?)^```", text, re.DOTALL | re.MULTILINE))
        spans = re.findall(r"`(promolint [^`]+)`", text) + re.findall(r"^(?:\$ )?(promolint .+)$", blocks, re.M)
        for span in spans:
            command = " ".join(re.split(r"\s+#|\s+<\s", span)[0].split())
            words = command.split()
            if len(words) > 2 and words[1] != "run" and not re.search(r"[|\[]|\.\.\.|\b[A-Z]{1,8}\b", command):
                commands.add(command)
    return sorted(commands)


@pytest.mark.parametrize("command", _documented_commands())
def test_documented_commands_are_ones_promolint_accepts(command: str, capsys) -> None:
    argv = update_docs.shlex.split(command)[1:]
    try:
        build_parser().parse_args(_normalized(argv, list(COMMANDS)))
    except SystemExit:
        pytest.fail(f"`{command}` is refused: {capsys.readouterr().err.strip()}")


@pytest.mark.parametrize("block", ["$ promolint check --x33 fixtures/readme_example.py\n", "$ pip install .\n",
                                   "no command\n"])
def test_a_console_block_that_cannot_be_made_is_named(block: str) -> None:
    with pytest.raises(update_docs.DocsError):
        update_docs.console_block(block)

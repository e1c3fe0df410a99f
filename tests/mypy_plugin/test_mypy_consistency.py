"""The plugin and ``promolint check`` agree: same (code, line) on the shared corpus.

Both run the same analysis of each file (the plugin adds only what mypy knows of other modules,
which this corpus does not import).  A difference would be listed below with its reason, and
located by the text of its line (so edits of the corpus that move lines do not break the list).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from promolint.driver.lint import lint_source
from promolint.engine.walker.analysis import Settings
from promolint.rules import ALL_RULES

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mypy_harness as harness

FIXTURES = harness.REPO / "fixtures"
MODES = {"default": {}, "x64": {"x64": "on"}, "strict": {"promotion": "strict"}}
RULE_CODES = frozenset(rule.code for rule in ALL_RULES if not rule.opt_in)  # PRM010 compares two analyses: check only

# (corpus, file, text on the line, code, modes, who reports it, reason).  The plugin runs the
# command line's own analysis, so none is expected; an entry here needs a reason in docs/mypy.md.
DIFFERENCES: list[tuple[str, str, str, str, set[str], str, str]] = []
# Files of the corpus the comparison leaves out, and why.
SKIPPED = {
    ("cases", "suppression.py"): "mypy's own suppressions (# type: ignore, disable-error-code) are not promolint's",
}


def _corpus(name: str) -> list[Path]:
    if name == "fixtures":
        return sorted(FIXTURES.glob("*.py"))
    return [harness.CASES / case for case in harness.case_names() if ("cases", case) not in SKIPPED]


def _line_of(path: Path, text: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{path.name}: no line contains {text!r} (update DIFFERENCES)")


@pytest.mark.parametrize("corpus", ["fixtures", "cases"])
@pytest.mark.parametrize("mode", list(MODES))
def test_same_findings_as_promolint_check(corpus: str, mode: str, tmp_path: Path) -> None:
    files = _corpus(corpus)
    root = harness.prepare(tmp_path / "project", MODES[mode])
    for path in files:
        shutil.copy(path, root / path.name)
    plugin = {(m.path, m.line, m.rule_code) for m in harness.run_mypy(root, [p.name for p in files])
              if m.rule_code is not None}  # fmt: skip
    settings = Settings(x64=MODES[mode].get("x64", "auto"), promotion=MODES[mode].get("promotion", "auto"))
    check = {(p.name, d.line, d.code) for p in files for d in lint_source(p.read_bytes(), p.name, settings, RULE_CODES)
             if d.code in RULE_CODES}  # fmt: skip

    only_check = check - plugin
    only_plugin = plugin - check
    for where, name, text, code, modes, reporter, _reason in DIFFERENCES:
        if where != corpus or mode not in modes:
            continue
        key = (name, _line_of(next(p for p in files if p.name == name), text), code)
        side = only_check if reporter == "check" else only_plugin
        assert key in side, f"listed difference no longer happens: {key} ({reporter} only)"
        side.discard(key)
    assert not only_check and not only_plugin, (
        f"{corpus}, {mode}: only promolint check: {sorted(only_check)}; only the plugin: {sorted(only_plugin)}"
    )

"""`promolint check` over fixtures/ equals the expectations written in the fixtures, per mode."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from promolint.driver.config import Config
from promolint.driver.runner import run_check

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODES = {"default": {}, "x64": {"x64": "on"}, "x32": {"x64": "off"}, "strict": {"promotion": "strict"}}
_EXPECT = re.compile(r"#\s*expect(?:\[(?P<modes>[^\]]*)\])?:\s*(?P<codes>[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)")


def expected(mode: str) -> set[tuple[str, int, str]]:
    out = set()
    for path in sorted(FIXTURES.glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in _EXPECT.finditer(line):
                modes = {m.strip() for m in (match.group("modes") or ",".join(MODES)).split(",")}
                unknown = modes - set(MODES)
                assert not unknown, f"{path.name}:{number}: unknown mode {unknown}"
                if mode in modes:
                    out |= {(path.name, number, code.strip()) for code in match.group("codes").split(",")}
    return out


def _opt_in_codes_for(path: Path) -> tuple[str, ...]:
    """An opt-in rule's own fixture (``PRM023_mixed_precision.py``) runs with it enabled, and every
    fixture with the rules opt-in only for their precision (their findings anywhere are tested)."""
    from promolint.rules.registry import BY_CODE, MEASURED_OPT_IN

    code = path.name.split("_")[0]
    return (*MEASURED_OPT_IN, *((code,) if code in BY_CODE and BY_CODE[code].opt_in else ()))


@pytest.mark.parametrize("mode", list(MODES))
def test_fixtures_match_expectations(mode: str) -> None:
    found = set()
    for path in sorted(FIXTURES.glob("*.py")):
        config = Config(root=FIXTURES, x64_portability=True, extend_select=_opt_in_codes_for(path),
                        **MODES[mode])  # PRM010 is opt-in  # fmt: skip
        checked = run_check([path], config, jobs=1, cache=False)
        found |= {(Path(d.path).name, d.line, d.code) for d in checked.diagnostics}
    want = expected(mode)
    missing = sorted(want - found)
    extra = sorted(found - want)
    assert not missing and not extra, f"mode {mode}: missing {missing}\nunexpected {extra}"


def test_every_rule_has_a_fixture() -> None:
    from promolint.rules import ALL_RULES

    codes = {code for mode in MODES for _, _, code in expected(mode)}
    assert {rule.code for rule in ALL_RULES} <= codes

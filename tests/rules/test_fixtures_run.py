"""The fixtures of rules that predict what JAX does at run time are run for real: every statement
a fixture expects one of those rules on raises TypeError (or compiles its jitted function again)
in the modes the expectation names, and every other statement runs without error (and compiles
once); under strict promotion a statement may raise TypePromotionError, strict-promotion's
business.  Ground truth for the fixtures, next to ``test_fixtures.py``'s check of the findings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_fixtures import FIXTURES, expected

from promolint.rules.registry import find

HERE = Path(__file__).resolve().parent
# Rules whose findings are TypeErrors JAX raises, and the rule whose findings are compilations.
RAISING = {find(name).code for name in ("lax-dtype-mismatch", "carry-dtype-mismatch")}
_ENVIRONMENTS = {
    "default": {"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "standard"},
    "x64": {"JAX_ENABLE_X64": "1", "JAX_NUMPY_DTYPE_PROMOTION": "standard"},
    "strict": {"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "strict"},
}


def _fixtures(codes: set[str]) -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.py") if any(p.name.startswith(code) for code in codes))


def _run(path: Path, mode: str) -> list[dict]:
    environment = {**os.environ, **_ENVIRONMENTS[mode]}
    done = subprocess.run([sys.executable, str(HERE.parent / "support" / "fixture_runner.py"), str(path)], capture_output=True,
                          text=True, env=environment, timeout=300, check=True)  # fmt: skip
    return json.loads(done.stdout)


@pytest.mark.parametrize("mode", list(_ENVIRONMENTS))
@pytest.mark.parametrize("fixture", _fixtures(RAISING), ids=lambda p: p.name)
def test_flagged_lines_raise_and_the_others_run(fixture: Path, mode: str) -> None:
    """Every flagged line raises TypeError when the fixture runs (in a function, when a later
    statement calls it), and every error comes from a flagged line."""
    flagged = {line for name, line, code in expected(mode) if name == fixture.name and code in RAISING}
    raised = {}
    wrong = []
    for statement in _run(fixture, mode):
        error, line = statement["error"], statement["line"]
        if error == "TypeError" and line in flagged:
            raised[line] = error
        elif error is not None and not (mode == "strict" and error == "TypePromotionError"):
            wrong.append(f"line {line}: not flagged, but it raised {error}")
    wrong += [f"line {line}: flagged, but it never raised" for line in sorted(flagged - set(raised))]
    assert not wrong, f"{fixture.name} [{mode}]:\n" + "\n".join(wrong)

"""Golden tests (pydantic style): the plugin's output on ``cases/`` under several configurations.

Each golden file is a case's source with mypy's messages merged in as ``# MYPY:`` comments.
Regenerate with ``python -m tests.mypy_plugin.regenerate``.  The files name the mypy version they
were made with; on another mypy major.minor the comparison is skipped (messages of mypy's own
change between releases).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mypy_harness as harness


def _golden_version() -> str | None:
    for config in harness.CONFIGS:
        for path in sorted((harness.GOLDEN / config).glob("*.py")):
            return harness.golden_version(path)
    return None


@pytest.mark.parametrize("config", list(harness.CONFIGS))
def test_golden(config: str, tmp_path: Path) -> None:
    version = _golden_version()
    if version is None:
        pytest.fail("no golden files: run `python -m tests.mypy_plugin.regenerate`")
    if not harness.same_minor(version):
        pytest.skip(f"golden files were made with mypy {version}; this is mypy {harness.MYPY_VERSION} "
                    "(regenerate them with `python -m tests.mypy_plugin.regenerate` for this version)")
    outputs = harness.golden_outputs(config, tmp_path)
    failures = []
    for case, text in outputs.items():
        path = harness.golden_path(config, case)
        expected = path.read_text() if path.exists() else ""
        if text != expected:
            diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                                f"golden/{config}/{case}", "mypy now"))  # fmt: skip
            failures.append(diff or f"{path} is missing")
    stale = {p.name for p in (harness.GOLDEN / config).glob("*.py")} - set(outputs)
    if not harness.HAS_JAXTYPING:
        stale = {name for name in stale if "jaxtyping" not in name}
    assert not stale, f"golden files without a case: {sorted(stale)}"
    assert not failures, "output differs from the golden files (regenerate if intended):\n" + "\n".join(failures)


def test_golden_files_name_their_mypy_version() -> None:
    for path in harness.GOLDEN.rglob("*.py"):
        assert harness.golden_version(path), f"{path} has no version header"


def test_every_case_has_golden_files() -> None:
    for config in harness.CONFIGS:
        for case in harness.CASES.glob("*.py"):
            assert harness.golden_path(config, case.name).exists(), f"missing golden/{config}/{case.name}"

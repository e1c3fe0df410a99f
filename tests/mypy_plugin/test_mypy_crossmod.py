"""Findings across modules in the plugin: a dtype known from another module's types or code.

``crossmod/helpers.py`` defines arrays and functions; ``crossmod/user.py`` uses them.  promolint
check on user.py alone cannot know their dtypes; the plugin reads them from mypy's types (dtype
tags on module variables, NumPy's dtype parameters, jaxtyping annotations), through mypy's
incremental cache as well, and from the project pass over the build's modules.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from promolint.driver.lint import lint_source
from promolint.engine.walker.analysis import Settings
from promolint.rules import ALL_RULES

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mypy_harness as harness

USER = harness.CROSSMOD / "user.py"
EXPECTED = {
    ("wrapped = WEIGHTS + 1000", "PRM006"),
    ("via_module = helpers.WEIGHTS + 1000", "PRM006"),
    ("after_report = WRAPPED + 1000", "PRM006"),  # the dtype survived the report in helpers.py
    ("promoted = counts() + np.ones(3, np.float32)", "PRM001"),
    ("in_function = WEIGHTS + 1000", "PRM006"),
    # the project pass runs quantized's body, where the jax.Array annotation says nothing
    ("unknown = quantized() + 1000", "PRM006"),
}
SILENT = ("rebound = REBOUND + 1000",)


def _line(text: str) -> int:
    return next(n for n, line in enumerate(USER.read_text().splitlines(), 1) if text in line)


def _user_findings(root: Path) -> set[tuple[int, str]]:
    messages = harness.run_mypy(root, ["crossmod"])
    return {(m.line, m.rule_code) for m in messages if m.path == "crossmod/user.py" and m.rule_code}


def test_dtypes_cross_modules(tmp_path: Path) -> None:
    root = harness.prepare(tmp_path / "project", {"extend-select": ["PRM001"]})
    shutil.copytree(harness.CROSSMOD, root / "crossmod")
    expected = {(_line(text), code) for text, code in EXPECTED}
    assert _user_findings(root) == expected
    assert all(_line(text) not in {line for line, _ in expected} for text in SILENT)

    # promolint check on the module alone cannot see any of them.
    codes = frozenset(rule.code for rule in ALL_RULES)
    alone = {(d.line, d.code) for d in lint_source(USER.read_bytes(), "user.py", Settings(), codes)}
    assert not alone & expected

    # Only user.py changes: helpers.py comes from mypy's cache, its dtype tags with it (and the
    # variable bound twice has none there either).
    user = root / "crossmod" / "user.py"
    user.write_text(user.read_text() + "\n# edited\n")
    os.utime(user, (user.stat().st_atime + 5, user.stat().st_mtime + 5))
    assert _user_findings(root) == expected

    # The helper changes: findings that depended on its dtype go.
    helpers = root / "crossmod" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("WEIGHTS = jnp.ones(3, jnp.int8)", "WEIGHTS = jnp.ones(3, jnp.int32)"))
    os.utime(helpers, (helpers.stat().st_atime + 5, helpers.stat().st_mtime + 5))
    assert _user_findings(root) == {(_line("promoted ="), "PRM001"), (_line("unknown ="), "PRM006")}

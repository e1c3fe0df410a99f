"""PRM010 (`--x64-portability`) against real JAX: every flagged expression holds another type
with x64 on than with x64 off, and each program whose values differ between the modes has its
difference flagged where it enters, not at the expressions that inherit it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.driver.lint import lint_source
from promolint.engine.walker.analysis import Settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from workers import worker_environment  # noqa: E402
IMPORTS = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"

# Each program, and the expressions PRM010 flags in it.
CASES = {
    "default float": ("w = jnp.zeros(3)", ["jnp.zeros(3)"]),
    "inherited by an operator": ("steps = jnp.arange(10) * 2", ["jnp.arange(10)"]),
    "inherited through names": ("x = jnp.ones(3)\ny = x * x + 1", ["jnp.ones(3)"]),
    "inherited through a function": ("def f(a):\n    return a * 2\nr = f(jnp.zeros(2))", ["jnp.zeros(2)"]),
    "pinned dtype": ("p = jnp.zeros(3, dtype=jnp.float32) + 1.0", []),
    "NumPy only": ("h = np.zeros(3) + 1", []),
    "typed scalar": ("d = jnp.float32(1) * 3", []),
    "NumPy float64 into JAX": ("m = jnp.mean(np.ones(30))", ["jnp.mean(np.ones(30))"]),
    "weak default": ("z = jnp.asarray(1.0)", ["jnp.asarray(1.0)"]),
    "overflow with x64 off only": ("f32 = jnp.ones(3, jnp.float32)\nbig = f32 + 2**40", ["f32 + 2**40"]),
    "random draws": ("k = jax.random.normal(jax.random.key(0), (3,))", ["jax.random.normal(jax.random.key(0), (3,))"]),
}

_RUN = """
import json, sys
sys.path.insert(0, "tests/fuzz")
from runner import run_program
cases = json.loads(sys.stdin.read())
print(json.dumps({name: run_program(text, name) for name, text in cases.items()}))
"""


@pytest.fixture(scope="module")
def observed() -> dict[str, dict[str, dict]]:
    """mode -> case -> what ``tests/fuzz/runner.run_program`` saw at every site."""
    programs = {name: IMPORTS + text for name, (text, _) in CASES.items()}
    runs = {}
    for mode, flag in (("off", "0"), ("on", "1")):
        process = subprocess.run([sys.executable, "-c", _RUN], input=json.dumps(programs), env=worker_environment(JAX_ENABLE_X64=flag),
                                 cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
        assert process.returncode == 0, process.stderr[-3000:]
        runs[mode] = json.loads(process.stdout)
    return runs


def _held(run: dict, key: str):
    """What a site held: its types as seen, or the error it raised."""
    if key in run["errors"]:
        return run["errors"][key]["error"]
    return json.dumps(run["sites"].get(key), sort_keys=True)


@pytest.mark.parametrize("name", list(CASES))
def test_flags_where_the_dtype_starts_to_differ(name, observed) -> None:
    text, flagged = CASES[name]
    source = IMPORTS + text
    diagnostics = lint_source(source.encode(), "case.py", Settings(), frozenset({"PRM010"}))
    lines = source.splitlines()
    found = {lines[d.line - 1][d.column - 1 : d.end_column - 1] for d in diagnostics if d.line == d.end_line}
    assert found == set(flagged)
    off, on = observed["off"][name], observed["on"][name]
    for d in diagnostics:
        key = f"{d.line}:{d.column}:{d.end_line}:{d.end_column}"
        assert key in off["sites"] or key in off["errors"], f"{name}: site {key} did not run"
        assert _held(off, key) != _held(on, key), f"{name}: {key} holds the same in both modes"
    differing = {k for k in off["sites"].keys() | off["errors"].keys() if _held(off, k) != _held(on, k)}
    assert bool(differing) == bool(flagged), f"{name}: sites that differ at run time: {sorted(differing)}"


def test_option_and_config_switch_it_on(tmp_path, capsys) -> None:
    from promolint.cli.main import main

    (tmp_path / "m.py").write_text(IMPORTS + "w = jnp.zeros(3)\n")
    assert main(["check", str(tmp_path), "--no-cache"]) == 0  # opt-in: "PRM" does not select it
    assert main(["check", str(tmp_path), "--no-cache", "--x64-portability"]) == 1
    assert "PRM010" in capsys.readouterr().out
    (tmp_path / "pyproject.toml").write_text("[tool.promolint]\nx64-portability = true\n")
    assert main(["check", str(tmp_path), "--no-cache"]) == 1
    assert main(["check", str(tmp_path), "--no-cache", "--ignore", "PRM010"]) == 0
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64-portability = "yes"\n')
    assert main(["check", str(tmp_path), "--no-cache"]) == 2
    assert "x64-portability = 'yes' is not one of true, false" in capsys.readouterr().err


def test_statistics_count_the_differences(tmp_path, capsys) -> None:
    from promolint.cli.main import main

    (tmp_path / "m.py").write_text(IMPORTS + textwrap.dedent("""
        a = jnp.zeros(3)
        b = jnp.arange(4)
        c = jnp.ones(2, jnp.float32)
    """))
    main(["check", str(tmp_path), "--no-cache", "--x64-portability", "--statistics"])
    out = capsys.readouterr().out
    assert "     2  PRM010" in out

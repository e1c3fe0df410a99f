"""``if TYPE_CHECKING:`` blocks, as jumanji, flashbax and matrax write them: the branch a type
checker reads never runs, and the other always does.

The package below is run for real under strict promotion (the step raises where ``check`` must
say so) and in standard promotion (the names hold what ``reveal`` must say).  Without the change,
the class is unknown: its decorator is a join of both branches' imports."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from workers import worker_environment  # noqa: E402

TYPES = """
from __future__ import annotations

from typing import TYPE_CHECKING

import jax.numpy as jnp

if TYPE_CHECKING:  # what a type checker reads: no such module, it never runs
    from checker_stubs import dataclass
else:
    from dataclasses import dataclass

if not TYPE_CHECKING:
    LENGTH_DTYPE = jnp.int32
else:
    LENGTH_DTYPE = jnp.int64


@dataclass
class State:
    length: jnp.ndarray
    eaten: jnp.ndarray
"""

ENV = """
from __future__ import annotations

import typing

import jax.numpy as jnp

from game import types
from game.types import State

if typing.TYPE_CHECKING:  # never runs
    from checker_stubs import Array


def reset():
    return types.State(length=jnp.ones((), types.LENGTH_DTYPE), eaten=jnp.array(False))


def step(state: State):
    length = state.length + state.eaten
    return types.State(length=length, eaten=state.eaten)
"""

_STEP_LINE = textwrap.dedent(ENV).lstrip().splitlines().index("    length = state.length + state.eaten") + 1

_RUN = """
import json, jax
from game import env
state = env.reset()
try:
    out = {"length": str(env.step(state).length.dtype)}
except Exception as error:  # what strict promotion raises
    import traceback
    frame = traceback.extract_tb(error.__traceback__)
    line = [f.lineno for f in frame if f.filename.endswith("env.py")][-1]
    out = {"raised": type(error).__name__, "line": line}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("type_checking")
    (root / "game").mkdir()
    (root / "game" / "__init__.py").write_text("")
    (root / "game" / "types.py").write_text(textwrap.dedent(TYPES).lstrip())
    (root / "game" / "env.py").write_text(textwrap.dedent(ENV).lstrip())
    return root


def _ran(root: Path, promotion: str) -> dict:
    process = subprocess.run([sys.executable, "-c", _RUN], cwd=root, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_NUMPY_DTYPE_PROMOTION=promotion))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    return json.loads(process.stdout)


def _promolint(root: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "promolint", *arguments, "game"], cwd=root,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_strict_error_of_a_class_the_running_branch_decorates_is_reported_where_it_raises(package) -> None:
    assert _ran(package, "strict") == {"raised": "TypePromotionError", "line": _STEP_LINE}
    found = _promolint(package, "check", "--promotion", "strict", "--select", "PRM004", "--no-cache",
                       "--format", "json")
    assert found.returncode == 1, found.stderr
    lines = {(Path(f["path"]).name, f["line"]) for f in json.loads(found.stdout)}
    assert lines == {("env.py", _STEP_LINE)}


def test_names_hold_what_the_branch_that_runs_binds(package) -> None:
    assert _ran(package, "standard") == {"length": "int32"}
    revealed = _promolint(package, "reveal", "--format", "json")
    assert revealed.returncode == 0, revealed.stderr
    records = [r for r in json.loads(revealed.stdout) if r["path"].endswith("env.py") and r["line"] == _STEP_LINE]
    length = next(r for r in records if r["target"] and r["text"] == "length")
    assert (length["dtype"], length["weak"], length["library"]) == ("int32", False, "jax")

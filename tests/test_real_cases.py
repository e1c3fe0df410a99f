"""Issue #16's real cases, minimized from the projects as they wrote them (each switches x64 on
itself, at module level), run for real and compared with ``reveal`` (modes followed from the
code), and reported by ``check``.

- netket (PR 1218): ``x / np.sqrt(n_samp)`` turns a float32 leaf float64 under x64;
- blackjax ``diagnostics.py``: ``jnp.maximum(tau_hat, 1 / np.log10(num_chains * num_samples))``
  with ``num_chains = input_array.shape[0]`` (a Python int whatever the array) does the same;
- call sites of a function whose module switches x64 on get the dtype that running gives.

At module level, after the call, reveal must give what running left in the name; the function
analysed on its own (parameters unknown: variables over every value they may be) must claim
nothing that contradicts the run."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.frontend.analysis import Settings
from promolint.lint import lint_source
from promolint.reveal import reveal_records_many

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from workers import worker_environment  # noqa: E402

HEAD = 'import jax\njax.config.update("jax_enable_x64", True)\nimport jax.numpy as jnp\nimport numpy as np\n'

# name -> (program, the site inside the function claimed for every member, names compared)
CASES = {
    # netket/optimizer/qgt/qgt_jacobian_pytree_logic.py before PR 1218.
    "netket": ("""
def _divide_by_sqrt_n_samp(oks, samples):
    n_samp = samples.shape[0]
    return oks / np.sqrt(n_samp)

out = _divide_by_sqrt_n_samp(jnp.ones((4, 3), jnp.float32), jnp.ones((4, 2), jnp.float32))
""", "oks / np.sqrt(n_samp)", ["out"]),
    # blackjax/diagnostics.py, effective_sample_size (the lines that promote).
    "blackjax": ("""
def effective_sample_size(input_array, tau_hat):
    num_chains = input_array.shape[0]
    num_samples = input_array.shape[1]
    tau_hat = jnp.maximum(tau_hat, 1 / np.log10(num_chains * num_samples))
    return num_chains * num_samples / tau_hat

ess = effective_sample_size(jnp.ones((2, 10), jnp.float32), jnp.ones(3, jnp.float32))
""", "jnp.maximum(tau_hat, 1 / np.log10(num_chains * num_samples))", ["ess"]),
    # The call-site example: the body runs where x64 is on, so does the call.
    "call site": ("""
def f(x):
    return x / np.sqrt(3.0)

def tau(x):
    n = x.shape[0]
    return jnp.maximum(x, 1 / np.log10(n * 2))

a = f(jnp.ones(3, jnp.float32))
b = tau(jnp.ones(3, jnp.float32))
""", "x / np.sqrt(3.0)", ["a", "b"]),
}

_RUN = """
import json, runpy, sys
from promolint.runtime.observe import observe
names = json.loads(sys.argv[2])
values = runpy.run_path(sys.argv[1])
print(json.dumps({n: observe(values[n]) for n in names}))
"""


def _describe(record: dict) -> str | None:
    if record.get("dtype") is None:
        return None
    return f"{'weak ' if record['weak'] else ''}{record['dtype']} [{record['library']}]"


@pytest.mark.parametrize("name", list(CASES))
def test_reveal_gives_what_running_gives(name, tmp_path) -> None:
    text, site, names = CASES[name]
    program = HEAD + textwrap.dedent(text)
    path = tmp_path / "program.py"
    path.write_text(program)
    process = subprocess.run([sys.executable, "-c", _RUN, str(path), json.dumps(names)], cwd=ROOT,
                             capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="0"))  # fmt: skip  (the code switches x64 on)
    assert process.returncode == 0, process.stderr[-3000:]
    ran = {n: _describe(o) for n, o in json.loads(process.stdout.splitlines()[-1]).items()}
    assert set(ran.values()) == {"float64 [jax]"}  # the promotion the projects fixed
    records = reveal_records_many(program.encode(), [Settings()])[0]
    targets = {r["text"]: _describe(r) for r in sorted(records, key=lambda r: r["line"]) if r["target"]}
    assert {n: targets[n] for n in names} == ran
    inside = [r for r in records if r["text"] == site and not r["target"]]
    # The function analysed on its own too (its parameters unknown): a claim there, if any,
    # must hold for what ran.
    assert inside and all(r["dtype"] is None or "float64" in r["dtype"].split("|") for r in inside), inside


@pytest.mark.parametrize("name", list(CASES))
def test_reported_by_check(name) -> None:
    """``check`` reports the promotion where the project wrote it (PRM001, x64 on by the code)."""
    text, _, _ = CASES[name]
    program = HEAD + textwrap.dedent(text)
    # the lines that divide by (or compare with) NumPy's float64 scalar
    lines = [n for n, t in enumerate(program.splitlines(), start=1) if "/ np." in t]
    diagnostics = lint_source(program.encode(), "program.py", Settings(), frozenset({"PRM001"}))
    assert [d.line for d in diagnostics if d.code == "PRM001"] == lines

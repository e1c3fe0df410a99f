"""Real modules that switch x64 on themselves, at module level, minimized from the projects as
they wrote them, run for real and compared with ``reveal`` (modes followed from the code), and
reported by ``check``.

- netket (PR 1218): ``x / np.sqrt(n_samp)`` turns a float32 leaf float64 under x64;
- blackjax ``diagnostics.py``: ``jnp.maximum(tau_hat, 1 / np.log10(num_chains * num_samples))``
  with ``num_chains = input_array.shape[0]`` (a Python int whatever the array) does the same,
  also where ``tau_hat`` flows through ``lax.cond`` and ``lax.scan`` bodies as blackjax wrote it;
- call sites of a function whose module switches x64 on get the dtype that running gives.

At module level, after the call, reveal must give what running left in the name; the function
analysed on its own (parameters unknown: variables over every value they may be) must claim
nothing that contradicts the run."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import lint_source
from promolint.driver.reveal import reveal_records_many

ROOT = Path(__file__).resolve().parents[2]
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
    # The same function as blackjax 1.7.1 wrote it: tau_hat flows through a lax.cond whose
    # branches read the enclosing function's weighted_var, and through two lax.scan bodies
    # (a tuple carry started from a Python int, and a carry of the input's dtype).
    "blackjax through lax": ("""
def effective_sample_size(input_array):
    num_chains = input_array.shape[0]
    num_samples = input_array.shape[1]
    mean_across_chain = input_array.mean(axis=1, keepdims=True)
    weighted_var = input_array.var(axis=1, keepdims=True)
    weighted_var = jax.lax.cond(
        num_chains > 1,
        lambda mean_across_chain: weighted_var + mean_across_chain.var(axis=0, ddof=1, keepdims=True),
        lambda _: weighted_var,
        operand=mean_across_chain,
    )
    rho_hat = jnp.moveaxis(1.0 - mean_across_chain / weighted_var, 1, 0)
    mask0 = rho_hat > 0.0

    def positive_sequence_body_fn(state, mask_t):
        t, carry_cond, max_t = state
        next_mask = carry_cond & mask_t
        next_max_t = jnp.where(next_mask, jnp.ones_like(max_t) * t, max_t)
        return (t + 1, next_mask, next_max_t), next_mask

    (*_, max_t_next), mask = jax.lax.scan(
        positive_sequence_body_fn, (0, jnp.ones_like(mask0[0]), jnp.zeros_like(mask0[0], dtype=int)), mask0
    )

    def monotone_sequence_body_fn(rho_hat_sum_tm1, rho_hat_sum_t):
        update_mask = rho_hat_sum_t > rho_hat_sum_tm1
        next_rho_hat_sum_t = jnp.where(update_mask, rho_hat_sum_tm1, rho_hat_sum_t)
        return next_rho_hat_sum_t, (update_mask, next_rho_hat_sum_t)

    _, (update_mask, update_value) = jax.lax.scan(monotone_sequence_body_fn, rho_hat[0], rho_hat)
    rho_hat_final = jnp.where(update_mask & mask, update_value / 2.0, rho_hat)
    tau_hat = -1.0 + 2.0 * jnp.sum(rho_hat_final, axis=0)
    tau_hat = jnp.maximum(tau_hat, 1 / np.log10(num_chains * num_samples))
    return num_chains * num_samples / tau_hat

ess = effective_sample_size(jnp.ones((2, 10), jnp.float32))
""", "jnp.maximum(tau_hat, 1 / np.log10(num_chains * num_samples))", ["ess"]),
    # A call site: the body runs where x64 is on, so does the call.
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


@pytest.mark.parametrize("name", list(CASES))
def test_reported_without_call_sites(name) -> None:
    """The functions as the projects ship them, called nowhere in their module: their parameters
    are variables, and the promotion holds for every narrower float they may hold."""
    text, _, _ = CASES[name]
    program = HEAD + "".join(line + "\n" for line in textwrap.dedent(text).splitlines()
                             if not re.match(r"\w+ = ", line))  # fmt: skip  (the module-level calls)
    lines = [n for n, t in enumerate(program.splitlines(), start=1) if "/ np." in t]
    diagnostics = lint_source(program.encode(), "program.py", Settings(), frozenset({"PRM001"}))
    assert [d.line for d in diagnostics if d.code == "PRM001"] == lines

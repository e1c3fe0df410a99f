"""PRM029: with x64 on, a float32 input of a function widened to float64 by an operand that is
64-bit whatever the inputs are.  Each function below is linted uncalled, as a library's public
function is, and then called under real JAX with x64 on and float32 data: the lines reported are
those where the float32 input comes out float64, and the functions not reported keep float32 but
where the code asks for float64 itself (`wide_on_purpose`; `deflection`, which casts one input to
float64 by name and so widens the other on purpose) or the input is a dimension (`regrid`), and `advance`, whose 64-bit operand is another field of
the object the input is a field of: float64 where the module's `reset` makes the state, but then
so is the input, and float32 in a state a caller fills with float32 data.  A field of another
parameter is what the package's own constructions put there (`push`'s state from `reset`).
A float32 input never reaches what a test on the way excludes (`prior`'s `isinstance`), a
loop's iterable refuses (`lattice`'s `range`) or a statement before raises for (`placed`; in a
function of the module's own it calls, `placed_by_helper`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from cli_run import run

SOURCE = textwrap.dedent("""\
    from typing import NamedTuple

    import jax
    import jax.numpy as jnp
    import numpy as np


    def regularize(A, boost=1e-6):
        return A + boost * jnp.eye(A.shape[-1])


    def sample(key, loc):
        eps = jax.random.normal(key, loc.shape)
        return loc + eps


    def pad(r_t, n):
        return jnp.concatenate([r_t, jnp.zeros(n - 1)])


    def weights(x):
        return x * np.linspace(0.0, 1.0, 3)


    def sample_scaled(key, loc, scale):
        eps = jax.random.normal(key, loc.shape)
        return loc + eps * scale


    def regrid(n):
        return jnp.reshape(jnp.zeros(6), (-1, n))


    def regularize_cast(A, boost=1e-6):
        return A + boost * jnp.eye(A.shape[-1], dtype=A.dtype)


    def add(x, y):
        return x + y


    def scale(x):
        return 2.5 * x


    def pad_like(r_t, n):
        return jnp.concatenate([r_t, jnp.zeros(n - 1, r_t.dtype)])


    def wide_on_purpose(x):
        return x.astype(jnp.float64) * 2


    def deflection(x, kappa):
        x = jnp.asarray(x, dtype=float)
        return kappa * x


    class State(NamedTuple):
        x: jax.Array
        x_dot: jax.Array


    def reset(key):
        return State(jax.random.uniform(key), jax.random.uniform(key))


    def advance(state: State):
        return state.x + 0.1 * state.x_dot


    def push(state: State, force):
        return force * state.x_dot


    def prior(concentration, dim):
        return concentration * jnp.ones(dim) if isinstance(concentration, float) else concentration


    def lattice(n_cells):
        positions = []
        for i in range(n_cells):
            positions.append((np.array([i, 0, 0]) + 0.5) / n_cells)
        return jnp.stack(positions)


    def placed(x, n):
        buffer = jax.lax.dynamic_update_slice(jnp.zeros(n), x, (0,))
        return buffer, x * jnp.eye(n)[0, :3]


    def _place(x, n):
        return jax.lax.dynamic_update_slice(jnp.zeros(n), x, (0,))


    def placed_by_helper(x, n):
        buffer = _place(x, n)
        return buffer, x * jnp.eye(n)[0, :3]
""")

# name: (the arguments it is called with, {x} the float32 data; the input reported, None if none)
CALLS = {
    "regularize": ("{x}", "A"),
    "sample": ("jax.random.key(0), {x}", "loc"),
    "pad": ("{x}, 3", "r_t"),
    "weights": ("{x}", "x"),
    "sample_scaled": ("jax.random.key(0), {x}, {x}", "scale"),
    "regrid": ("3", None),
    "regularize_cast": ("{x}", None),
    "add": ("{x}, {x}", None),
    "scale": ("{x}", None),
    "pad_like": ("{x}, 3", None),
    "wide_on_purpose": ("{x}", None),
    "deflection": ("{x}, {x}", None),
    "advance": ("State({x}, {x})", None),
    "push": ("reset(jax.random.key(0)), {x}", "force"),
    "prior": ("{x}, 3", None),
    "lattice": ("{x}[0]", None),
    "placed": ("{x}, 5", None),
    "placed_by_helper": ("{x}, 5", None),
}


def _line_of(name: str) -> int:
    lines = SOURCE.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {name}("))
    return next(i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("return")) + 1


def test_reported_where_a_float32_input_is_widened(capsys, tmp_path):
    path = tmp_path / "library.py"
    path.write_text(SOURCE)
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--select", "PRM029", "--x64", "on",
                    str(path))  # fmt: skip
    findings = json.loads(out)
    # One finding a line: `loc + eps * scale` widens `loc` by the product that widened `scale`.
    assert sorted(f["line"] for f in findings) == sorted(_line_of(n) for n, (_, name) in CALLS.items() if name)
    for finding in findings:
        name = next(n for n in CALLS if _line_of(n) == finding["line"])
        assert finding["message"].startswith(f"Called with a float32 `{CALLS[name][1]}` under x64")
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--select", "PRM029", "--x64", "off",
                    str(path))  # fmt: skip
    assert json.loads(out) == []


RUNNER = """
import json, sys
import jax, jax.numpy as jnp
namespace = {}
exec(sys.argv[1], namespace)
out = {}
for name, arguments in json.loads(sys.argv[2]).items():
    x = jnp.ones(3, jnp.float32)
    try:
        out[name] = str(eval(f"{name}({arguments.format(x='x')})", {**namespace, "x": x, "jax": jax}).dtype)
    except TypeError as error:
        out[name] = type(error).__name__
print(json.dumps(out))
"""


def test_what_is_reported_widens_float32_and_the_rest_keeps_it():
    done = subprocess.run([sys.executable, "-c", RUNNER, SOURCE, json.dumps({n: a for n, (a, _) in CALLS.items()})],
                          capture_output=True, text=True, check=True, timeout=300,
                          env={**os.environ, "JAX_PLATFORMS": "cpu", "JAX_ENABLE_X64": "1"})  # fmt: skip
    dtypes = json.loads(done.stdout)
    widened = {n for n, dtype in dtypes.items() if dtype == "float64"}
    assert widened == {n for n, (_, name) in CALLS.items() if name} | {"wide_on_purpose", "regrid", "deflection"}
    assert {n for n, dtype in dtypes.items() if dtype == "TypeError"} == {"lattice", "placed", "placed_by_helper"}

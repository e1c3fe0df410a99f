"""Input contracts (PRM028; PRM027 for loops and conditionals; PRM004 where a float annotation alone
makes every member raise, or every member that gets there): a function whose parameters have no
dtype in the code is called with float32 arrays too (promolint.rules.shared.contract). Each function
below is linted uncalled, as a library's public function is, and then called with a float32 input
under real JAX: those reported raise, in the mode they are reported in, and run for the input's
64-bit counterpart; those not reported run.  An unannotated parameter is no contract input where it
may be a count the code meant (it runs as one): `conjugate_any` is not reported; nor, under strict
promotion, is one annotated `jax.Array` only (`conjugate_array`).  Under strict promotion, one that
fails for bool and int32 arrays as well fails whatever array it is, and is (`hue_wrapped`); one that
raises for every input that has a shape is PRM004's, once where it raises (`spectrum`, where a
Python scalar `y` stops earlier); where no one input decides the operation, the inputs are weighed
all at once, as one call with float32 data passes them (`planes`), else all but one (the mask of
`pick_product`); a function defined inside another gets its arguments there (`count_down`'s
`cond_func` unpacks a tuple), and a field a method assigns itself is computed there, not given
(`Adjacency.adj`, numpyro's CAR). A float32 input never reaches what a test on the way excludes
(`update_int`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest
from cli_run import run

SOURCE = textwrap.dedent("""\
    import math

    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
    from jaxtyping import Array, Float


    def select_default(mask, y: jax.Array):
        return lax.select(mask, y, jnp.zeros(3))


    def update_buffer(x: jax.Array, n: int):
        buffer = jnp.zeros(n)
        return lax.dynamic_update_slice(buffer, x, (0,))


    def update_int(x, n: int):
        return lax.dynamic_update_slice(jnp.zeros(n), x, (0,)) if isinstance(x, int) else x


    def scatter_default(operand: jax.Array, indices):
        numbers = lax.ScatterDimensionNumbers((), (0,), (0,))
        return lax.scatter_add(operand, indices, jnp.zeros(3), numbers)


    def tril_from_vector(t):
        n = round((math.sqrt(1 + 8 * t.shape[-1]) - 1) / 2)
        idx = jnp.reshape(jnp.arange(n * n), (n, n))[jnp.tril_indices(n)]
        numbers = lax.ScatterDimensionNumbers((), (0,), (0,))
        return lax.scatter_add(jnp.zeros(n * n), idx[:, None], t, numbers)


    def wavelet(data: jax.Array):
        filt = jnp.array([0.7071067811865476, 0.7071067811865476])[None, None, :]
        return lax.conv_general_dilated(data, filt, (1,), "VALID")


    def conjugate(unit_complex: Float[Array, "3"]):
        return unit_complex * jnp.array([1, -1, -1])


    def rotate(x: Float[Array, "3"]):
        return x + 0.0j


    def select_cast(mask, y: jax.Array):
        return lax.select(mask, y, jnp.zeros(3, y.dtype))


    def add(x: Float[Array, "3"], y: Float[Array, "3"]):
        return x + y


    def counted(state):
        return state["step"] + jnp.int32(1)


    def conjugate_any(q):
        return q * jnp.array([1, -1, -1])


    def conjugate_array(q: jax.Array):
        return q * jnp.array([1, -1, -1])


    def cond_default(pred, y):
        return lax.cond(pred, lambda: y, lambda: jnp.zeros(3))


    def switch_default(index, y):
        return lax.switch(index, [lambda v: v, lambda v: jnp.zeros_like(v, dtype=float)], y)


    def loop_default(y0, n):
        return lax.fori_loop(0, n, lambda i, acc: acc * jnp.ones(3), y0)


    def _grown(c):
        return c + jnp.array([1.0, 2.0, 3.0])


    def while_default(y0):
        return lax.while_loop(lambda c: jnp.all(c < 3), _grown, y0)


    def cond_cast(pred, y):
        return lax.cond(pred, lambda: y, lambda: jnp.zeros(3, y.dtype))


    def accumulate(y, n):
        return lax.fori_loop(0, n, lambda i, acc: acc + y, jnp.zeros(3))


    def langevin(key, x0, dt):
        def step(carry, i):
            k, x = carry
            k, sub = jax.random.split(k)
            x = x + dt * jax.random.normal(sub, x.shape)
            return (k, x), x
        return lax.scan(step, (key, x0), jnp.arange(4))


    def drift(key, x0):
        def step(x, i):
            x = x + jax.random.normal(jax.random.fold_in(key, i), x.shape)
            return x, x
        return lax.scan(step, x0, jnp.arange(4))


    def hue_wrapped(hue, range_):
        return jnp.where(range_ > 0, hue, 0.0) + (hue < 0.0)


    def hue_cast(hue, range_):
        return jnp.where(range_ > 0, hue, 0.0) + (hue < 0.0).astype(hue.dtype)


    def spectrum(y):
        ks = jnp.arange(y.shape[0])
        return jnp.exp(-1j * jnp.pi * ks / 2)


    def count_down(x):
        def cond_func(state):
            value, idx, going = state
            return jnp.logical_and(idx < 3, going)

        def body_func(state):
            value, idx, going = state
            return value, idx + 1, idx < 2

        return lax.while_loop(cond_func, body_func, (x, 0, True))


    def _to_sparse(x):
        return x


    class Adjacency:
        def __init__(self, adj, is_sparse=False, validate=False):
            if is_sparse:
                self.adj = _to_sparse(adj)
            else:
                self.adj = jnp.broadcast_to(adj, (3,))
            if validate and (isinstance(adj, np.ndarray) or is_sparse):
                assert (self.adj.sum(axis=-1) > 0).all() > 0


    def planes(red, green):
        value = jnp.maximum(red, green)
        return jnp.where(value > 0, value, 0.0) + (value < 0.0)


    def pick_product(mask, a, b):
        return lax.select(mask, a * b, jnp.zeros(3))


    def place_slope(x, xp):
        slope = (x[1:] - x[:-1]) / (xp[1:] - xp[:-1])
        return lax.dynamic_update_slice(jnp.zeros(3), slope, (0,))


    def langevin_cast(key, x0, dt):
        def step(carry, i):
            k, x = carry
            k, sub = jax.random.split(k)
            x = x + dt * jax.random.normal(sub, x.shape, x.dtype)
            return (k, x), x
        return lax.scan(step, (key, x0), jnp.arange(4))
""")

# name: (mode, the arguments it is called with: float32 data first)
CALLS = {
    "select_default": ("x64", "jnp.ones(3, bool), {x}"),
    "update_buffer": ("x64", "{x}, 5"),
    "scatter_default": ("x64", "{x}, jnp.zeros((3, 1), jnp.int32)"),
    "tril_from_vector": ("x64", "{x}"),
    "update_int": ("x64", "{x}, 5"),
    "wavelet": ("x64", "{x}.reshape(1, 1, 3)"),
    "conjugate": ("strict", "{x}"),
    "rotate": ("strict", "{x}"),
    "select_cast": ("x64", "jnp.ones(3, bool), {x}"),
    "add": ("strict", "{x}, {x}"),
    "counted": ("strict", "{{'step': jnp.int32(0)}}"),
    "cond_default": ("x64", "True, {x}"),
    "switch_default": ("x64", "1, {x}"),
    "loop_default": ("x64", "{x}, 3"),
    "while_default": ("x64", "{x}"),
    "cond_cast": ("x64", "True, {x}"),
    "accumulate": ("x64", "{x}, 3"),
    "langevin": ("x64", "jax.random.PRNGKey(0), {x}, 0.1"),
    "drift": ("x64", "jax.random.PRNGKey(0), {x}"),
    "langevin_cast": ("x64", "jax.random.PRNGKey(0), {x}, 0.1"),
    "hue_wrapped": ("strict", "{x}, {x}"),
    "hue_cast": ("strict", "{x}, {x}"),
    "spectrum": ("strict", "{x}"),
    "count_down": ("strict", "{x}"),
    "Adjacency": ("strict", "{x}, False, True"),
    "planes": ("strict", "{x}, {x}"),
    "pick_product": ("x64", "jnp.ones(3, bool), {x}, {x}"),
    "place_slope": ("x64", "{x}, {x}"),
}
# Unannotated, reported under strict promotion because they fail for bool and int32 arrays too.
WHATEVER_ARRAY = ("hue_wrapped", "spectrum", "planes")
REPORTED = {"select_default": ("PRM028", "`y`"), "update_buffer": ("PRM028", "`x`"),
            "scatter_default": ("PRM028", "`operand`"), "tril_from_vector": ("PRM028", "`t`"),
            "wavelet": ("PRM028", "`data`"),
            "conjugate": ("PRM004", "`unit_complex`"), "rotate": ("PRM028", "`x`"),
            "cond_default": ("PRM027", "`y`"), "switch_default": ("PRM027", "`y`"), "loop_default": ("PRM027", "`y0`"),
            "while_default": ("PRM027", "`y0`"), "langevin": ("PRM028", "`x0`"), "drift": ("PRM028", "`x0`"),
            "hue_wrapped": ("PRM028", "`hue`"), "spectrum": ("PRM004", "int32"),
            # No input alone decides these: the inputs all float32 at once do (all but the mask).
            "planes": ("PRM028", "`green`"), "pick_product": ("PRM028", "`a`"),
            "place_slope": ("PRM028", "`x`")}  # fmt: skip
FLAGS = {"x64": ["--x64", "on"], "strict": ["--promotion", "strict", "--x64", "off"]}
ENVIRONMENTS = {"x64": {"JAX_ENABLE_X64": "1"}, "strict": {"JAX_NUMPY_DTYPE_PROMOTION": "strict"}}


def _line_of(name: str) -> int:
    lines = SOURCE.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {name}("))
    return next(i for i in range(start + 1, len(lines)) if lines[i].startswith("    return")) + 1  # the function's own


@pytest.mark.parametrize("mode", ["x64", "strict"])
def test_reported_where_a_float32_input_breaks_the_contract(capsys, tmp_path, mode):
    path = tmp_path / "library.py"
    path.write_text(SOURCE)
    code, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--extend-select", "PRM027,PRM028",
                       *FLAGS[mode], str(path))  # fmt: skip
    found = {(f["line"], f["code"]) for f in json.loads(out)}
    expected = {(_line_of(name), code) for name, (code, _) in REPORTED.items() if CALLS[name][0] == mode}
    assert found == expected
    assert len(json.loads(out)) == len(found)  # once, where it raises: not again where the exception passes
    for finding in json.loads(out):  # the input named; a float annotation alone may raise for every member
        name = next(n for n in REPORTED if _line_of(n) == finding["line"])
        assert REPORTED[name][1] in finding["message"]
        if finding["code"] == "PRM027":  # a loop's body or a branch: the 64-bit value it makes is named
            assert re.search(r"`jnp\.(zeros|ones|zeros_like|array)\(.*` at line \d+ is 64-bit", finding["message"])


RUNNER = """
import json, sys, warnings
import jax, jax.numpy as jnp
warnings.simplefilter("ignore")
namespace = {}
exec(sys.argv[1], namespace)
out = {}
for name, (arguments, dtype) in json.loads(sys.argv[2]).items():
    x = jnp.ones(3, dtype)
    try:
        eval(f"{name}({arguments.format(x='x')})", {**namespace, "x": x, "jnp": jnp})
        out[name] = None
    except Exception as error:
        out[name] = type(error).__name__
print(json.dumps(out))
"""


@pytest.mark.parametrize("mode", ["x64", "strict"])
def test_what_is_reported_raises_for_float32_and_the_rest_runs(mode):
    calls = {name: arguments for name, (m, arguments) in CALLS.items() if m == mode}

    def called(dtype: str) -> dict:
        done = subprocess.run([sys.executable, "-c", RUNNER, SOURCE,
                               json.dumps({name: (arguments, dtype) for name, arguments in calls.items()})],
                              capture_output=True, text=True, check=True, timeout=300,
                              env={**os.environ, "JAX_PLATFORMS": "cpu", **ENVIRONMENTS[mode]})  # fmt: skip
        return json.loads(done.stdout)

    narrow = called("float32")
    error = "TypeError" if mode == "x64" else "TypePromotionError"
    assert {name for name, raised in narrow.items() if raised} == {n for n in calls if n in REPORTED}
    assert all(raised in (None, error) for raised in narrow.values()), narrow
    if mode == "x64":  # bound to x64's defaults: the 64-bit input runs
        assert not any(called("float64").values())
    else:  # an unannotated input fails whatever array it is
        for dtype in ("int32", "bool"):
            assert all(called(dtype)[name] == error for name in WHATEVER_ARRAY)


def test_an_input_weighed_through_a_chain_deeper_than_the_stack_is_reported(capsys, tmp_path):
    """Evaluating a value built over 600 statements at a new member recurses deeper than Python's
    default limit: the rules run again on a deep stack, as the analysis does (it was an internal
    error, PRM000, on craftax's renderer)."""
    path = tmp_path / "chain.py"
    path.write_text("import jax.numpy as jnp\n\ndef long_chain(x):\n    y = x * 2\n" + "    y = y + 1\n" * 600
                    + "    return y + (y < 0)\n")  # fmt: skip
    code, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--select", "PRM000,PRM028",
                       *FLAGS["strict"], str(path))  # fmt: skip
    assert [(f["code"], f["line"]) for f in json.loads(out)] == [("PRM028", 605)]


def test_inputs_weighed_together_are_named_without_what_no_caller_passes(capsys, tmp_path):
    """`paddings is None` is a branch the engine follows, not an input: the message names the
    arrays only (praxis's batch_pplx_entropy_from_codes, where `1.0 - paddings` meets the int32
    that both branches give `paddings`)."""
    path = tmp_path / "objectives.py"
    path.write_text(textwrap.dedent("""\
        import jax.numpy as jnp

        JTensor = jnp.ndarray


        def entropy(codes: JTensor, num_classes: int, *, paddings: JTensor | None = None):
            rank = len(codes.shape)
            assert rank >= 2
            codes = codes.astype(jnp.int32)
            if paddings is None:
                paddings = jnp.zeros_like(codes[..., 0], dtype=codes.dtype)
            else:
                paddings = paddings.astype(codes.dtype)
            num_groups = codes.shape[-1]
            codes = jnp.reshape(codes, [-1, num_groups])
            paddings = jnp.reshape(paddings, [-1, 1])
            paddings = jnp.broadcast_to(paddings, codes.shape)
            offsets = jnp.arange(start=0, stop=num_groups * num_classes, step=num_classes, dtype=jnp.int32)
            indices = codes + offsets
            mask = (1.0 - paddings).astype(jnp.float32)
            return mask, indices
    """))
    code, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--select", "PRM028",
                       *FLAGS["strict"], str(path))  # fmt: skip
    (finding,) = json.loads(out)
    assert "arrays `codes` and `paddings` of any dtypes" in finding["message"]
    assert "is None" not in finding["message"]

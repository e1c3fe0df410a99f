"""Outcome classes (promolint.engine.outcomes): the distinct values of a value over several
parameters of unknown dtype, found without weighing the product of their domains, and the claims
reveal makes from them, checked against real JAX."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap

from promolint.engine import outcomes
from promolint.engine.symbolic import MAX_ASSIGNMENTS, Symbolic
from promolint.engine.walker.analysis import Settings, analyze
from promolint.engine.walker.source import parse_bytes
from promolint.driver.reveal import reveal_records

SOURCE = textwrap.dedent("""\
    import jax.numpy as jnp
    import numpy as np


    def cast_sum(x, w):
        return x.astype(jnp.float32) + w.astype(jnp.float32)


    def cast_dot(x, w):
        h = jnp.dot(x.astype(jnp.float32), w.astype(jnp.float32))
        return h * 2, jnp.sum(h) > 0


    def requested(x, w):
        return jnp.asarray(x, jnp.float16) * jnp.asarray(w, jnp.bfloat16) + x.shape[0]


    def numpy_casts(x, w):
        return np.asarray(x, np.float32) + np.asarray(w, np.float16) * np.ones(3, np.float16)


    def kept(x, w):
        return x * 2 + w.astype(jnp.float32)


    def shared(x, w):
        a = jnp.asarray(x, jnp.float32) + jnp.asarray(w, jnp.int8)
        b = jnp.asarray(x, jnp.int16)
        return a * b
""")

# Each function of SOURCE run for real on members of both parameters' domains: NumPy arrays and
# scalars, JAX arrays, Python scalars; what each expression's results are, as a set.
_RUN = textwrap.dedent("""\
    import itertools, json, sys
    import jax.numpy as jnp
    import numpy as np
    exec(sys.stdin.read())
    members = [np.ones(3, np.int8), np.ones(3, np.float64), np.ones(3, np.uint16), np.float32(2),
               np.int64(3), jnp.ones(3, jnp.int8), jnp.ones(3, jnp.bfloat16), jnp.ones(3, jnp.float32),
               jnp.ones(3, jnp.bool_), jnp.asarray(2.0)]
    def library(v):
        return "jax" if isinstance(v, jnp.ndarray) else "numpy-scalar" if isinstance(v, np.generic) else "numpy-array"
    seen = {}
    for name in ("cast_sum", "cast_dot", "requested", "numpy_casts", "kept", "shared"):
        for x, w in itertools.product(members, repeat=2):
            try:
                results = globals()[name](x, w)
            except Exception:
                continue
            results = results if isinstance(results, tuple) else (results,)
            for i, r in enumerate(results):
                seen.setdefault(f"{name}[{i}]", set()).add((str(r.dtype), library(r)))
    print(json.dumps({k: sorted(v) for k, v in seen.items()}))
""")


def _run_for_real() -> dict[str, list[list[str]]]:
    environment = {**os.environ, "JAX_PLATFORMS": "cpu", "JAX_ENABLE_X64": "0"}
    done = subprocess.run([sys.executable, "-c", _RUN], input=SOURCE, capture_output=True, text=True,
                          env=environment, check=True, timeout=300)  # fmt: skip
    return json.loads(done.stdout)


def _returned(records: list[dict], line: int) -> list[dict]:
    """The records of the returned expressions at ``line``, outermost first."""
    return [r for r in records if r["line"] == line and not r["target"]]


def _record(records: list[dict], text: str) -> dict:
    return next(r for r in records if r["text"] == text)


def test_reveal_claims_the_one_dtype_real_jax_gives_for_every_pair_of_members() -> None:
    real = _run_for_real()
    records = reveal_records(SOURCE.encode(), Settings("off", "standard"))
    claims = {
        "cast_sum[0]": "x.astype(jnp.float32) + w.astype(jnp.float32)",
        "cast_dot[0]": "h * 2",
        "cast_dot[1]": "jnp.sum(h) > 0",
        "requested[0]": "jnp.asarray(x, jnp.float16) * jnp.asarray(w, jnp.bfloat16) + x.shape[0]",
        "numpy_casts[0]": "np.asarray(x, np.float32) + np.asarray(w, np.float16) * np.ones(3, np.float16)",
        # x in both operands, with w in one: split further, down to the casts
        "shared[0]": "a * b",
    }
    for name, text in claims.items():
        record = _record(records, text)
        dtypes = {dtype for dtype, _ in real[name]}
        libraries = {library for _, library in real[name]}
        assert len(dtypes) == 1, (name, real[name])
        assert record["dtype"] == dtypes.pop(), (name, record)
        assert record["library"] == (libraries.pop() if len(libraries) == 1 else None), (name, record)
    # x * 2 keeps x's dtype, and so does the sum for some members: no one dtype to claim.
    assert len({dtype for dtype, _ in real["kept[0]"]}) > 1
    assert _record(records, "x * 2 + w.astype(jnp.float32)")["dtype"] is None


def _symbolic_sites(source: str, settings: Settings) -> list[Symbolic]:
    analysis = analyze(parse_bytes(source.encode()), settings)
    return [s.value for s in analysis.sites.values() if type(s.value) is Symbolic]


def test_classes_give_every_value_the_assignments_give_and_no_other() -> None:
    """Brute force over all assignments of two parameters (thousands) against the classes."""
    weighed = 0
    for settings in (Settings("off", "standard"), Settings("on", "standard")):
        for value in _symbolic_sites(SOURCE, settings):
            if value.assignments() is not None:
                continue  # few enough: weighed member by member as ever
            found = outcomes.representatives(value, MAX_ASSIGNMENTS)
            if found is None:
                continue
            every = {id(value.at(assignment)) for assignment in value.assignments(limit=10**6)}
            assert {id(value.at(assignment)) for assignment in found} == every
            assert len(found) == len(every)  # one representative per value
            assert all(set(assignment) == value.variables for assignment in found)  # real assignments
            weighed += 1
    assert weighed >= 10



COPIES = textwrap.dedent("""\
    import jax
    import numpy as np


    def scale(weights: jax.Array, fan_in: int):
        return weights / np.sqrt(fan_in)


    def scale_again(weights: jax.Array, fan_in: int):
        return weights / np.sqrt(fan_in)


    def scale_twice(w: jax.Array, n: int):
        return w / np.sqrt(n) * 2.0


    def scale_thrice(w: jax.Array, n: int):
        return w / np.sqrt(n) * 3.0
""")


def test_copies_of_a_body_share_their_classes_and_give_every_value_their_own_assignments_give() -> None:
    """A body copied over other parameters has one shape: the second copy takes the first one's
    classes, at its own variables, and they are still every value its assignments give; a copy
    with another constant has a shape of its own."""
    for settings in (Settings("off", "standard"), Settings("on", "standard")):
        analysis = analyze(parse_bytes(COPIES.encode()), settings)
        texts = ("weights / np.sqrt(fan_in)", "w / np.sqrt(n) * 2.0", "w / np.sqrt(n) * 3.0")
        returned = [s.value for s in analysis.sites.values()
                    if type(s.node) is ast.BinOp and ast.unparse(s.node) in texts]
        first, again, twice, thrice = returned
        assert first.shape()[0] == again.shape()[0]
        assert first.variables.isdisjoint(again.variables)
        assert len({first.shape()[0], twice.shape()[0], thrice.shape()[0]}) == 3
        for value in (first, again, twice, thrice):
            found = outcomes.outcomes(value, MAX_ASSIGNMENTS)
            assert found is not None
            every = {id(value.at(assignment)) for assignment in value.assignments(limit=10**6)}
            assert {id(outcome) for _, outcome in found} == every
            assert all(set(assignment) == value.variables for assignment, _ in found)
            assert all(value.at(assignment) is outcome for assignment, outcome in found)

"""What reveal says of a value that depends on parameters (promolint.engine.describe): the records
it tells early (a parameter itself, an unknown of no one library) are those it finds from every
outcome, on values of each kind."""

from __future__ import annotations

import textwrap

import pytest

from promolint.engine import describe as describing
from promolint.engine.symbolic import Symbolic
from promolint.engine.walker.analysis import Settings, analyze
from promolint.engine.walker.source import parse_bytes

SOURCE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp
    import numpy as np
    from elsewhere import helper  # a function nothing is known of


    def kinds(x, w, dtype, flag: bool, scale: float, arr: jax.Array):
        a = x.astype                      # no array at any member
        b = x + 1                         # differs in dtype and library
        c = -x                            # keeps x's dtype but for bool
        d = x.astype(jnp.float32)         # float32 of any library
        e = jnp.asarray(x)                # JAX, dtype of x but 64-bit ones
        f = jnp.array([1.0, 2.0], dtype=dtype)  # JAX of every dtype: one library
        g = x * w                         # two variables
        h = np.asarray(x) * 2.0
        i = arr * scale
        j = flag & (x > 0)
        k = jnp.where(flag, x, 0.0)
        m = x.shape[0] + 1
        n = jnp.sum(x, dtype=jnp.int32) + w.astype(jnp.float16)
        o = jnp.zeros(x.shape, jnp.bool_)     # one JAX dtype whatever x is
        p = jnp.sum(x)                        # JAX of many dtypes
        q = jax.nn.sigmoid(x) if x.shape[-1] == 1 else jax.nn.softmax(x)  # unknown at bool x
        r = np.sum(x)                         # a NumPy array or scalar
        s = jax.lax.add(arr, jnp.float32(1.0))  # float32 where it runs, so arr's dtype
        t = helper(x, w, dtype)               # unknown at every member of three variables
        u = (x * w).astype                    # no array at any member of two variables
        v = x * w + np.float32(1.0)           # two libraries, and two dtypes of each
        return a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v
""")


def _records(x64: str, early: bool) -> list[tuple[int, int, str, dict]]:
    """Every symbolic site's record, with or without the early records (a new analysis: values
    memoize their outcomes)."""
    analysis = analyze(parse_bytes(SOURCE.encode(), None), Settings(x64=x64))
    sites = [s for s in analysis.sites.values() if type(s.value) is Symbolic]
    if not early:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(describing, "_told_early", lambda value, whatever, depends, unknown: None)
            return [(s.node.lineno, s.node.col_offset, s.target, describing.describe(s.value)) for s in sites]
    return [(s.node.lineno, s.node.col_offset, s.target, describing.describe(s.value)) for s in sites]


def _by_text(x64: str) -> dict[str, dict]:
    source = parse_bytes(SOURCE.encode(), None)
    analysis = analyze(source, Settings(x64=x64))
    return {source.code(s.node): describing.describe(s.value)
            for s in analysis.sites.values() if type(s.value) is Symbolic and not s.target}  # fmt: skip


@pytest.mark.parametrize("x64", ["off", "on"])
def test_early_records_are_those_every_outcome_gives(x64):
    assert _records(x64, early=True) == _records(x64, early=False)


@pytest.mark.parametrize("x64", ["off", "on"])
def test_records_of_each_kind(x64):
    records = _by_text(x64)
    x = records["x"]
    assert (x["dtype"], x["variable"], x["weak"], x["library"]) == ("dtype of x", "x", None, None)
    arr = records["arr"]  # jax.Array: JAX's dtypes only
    assert (arr["dtype"], arr["library"]) == ("dtype of arr", "jax")
    for unknown in ("x.astype", "x + 1", "x * w"):
        assert (records[unknown]["dtype"], records[unknown]["library"]) == (None, None), unknown
    assert records["x * w"]["depends"] == ["w", "x"]
    assert (records["x.astype(jnp.float32)"]["dtype"], records["x.astype(jnp.float32)"]["library"]) == ("float32", None)
    created = records["jnp.array([1.0, 2.0], dtype=dtype)"]
    assert (created["dtype"], created["library"]) == (None, "jax")
    assert (records["jnp.zeros(x.shape, jnp.bool_)"]["dtype"], records["jnp.zeros(x.shape, jnp.bool_)"]["library"]) \
        == ("bool", "jax")  # fmt: skip
    assert (records["jnp.sum(x)"]["dtype"], records["jnp.sum(x)"]["library"]) == (None, "jax")
    # A bool x makes sigmoid raise, and the engine, joining that branch, knows nothing there;
    # every other member gives a JAX array, as the evaluation with x unknown says.
    chosen = records["jax.nn.sigmoid(x) if x.shape[-1] == 1 else jax.nn.softmax(x)"]
    assert (chosen["dtype"], chosen["library"]) == (None, "jax")
    assert records["np.sum(x)"]["library"] is None
    for unknown in ("helper(x, w, dtype)", "(x * w).astype", "x * w + np.float32(1.0)"):
        assert (records[unknown]["dtype"], records[unknown]["library"]) == (None, None), unknown


@pytest.mark.parametrize("x64", ["off", "on"])
def test_a_value_of_many_variables_two_members_show_unknown_is_told_without_weighing_the_others(x64):
    """Where a value has too many assignments to weigh one by one, its outcomes cost hundreds of
    evaluations (folding, the variables it needs, outcome classes); two members that show the
    record (``probes``: an object there, or arrays of two libraries and dtypes) tell it first."""
    source = parse_bytes(SOURCE.encode(), None)
    analysis = analyze(source, Settings(x64=x64))
    values = {source.code(s.node): s.value for s in analysis.sites.values() if type(s.value) is Symbolic}
    def weighed(value, limit):
        raise AssertionError("outcomes weighed")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(describing, "outcomes_of", weighed)
        for text in ("helper(x, w, dtype)", "(x * w).astype", "x * w"):
            assert values[text].assignments() is None, text
            assert describing.describe(values[text])["library"] is None, text

"""Analyses alive at once (lint analyses a file again in the other x64 mode; a language server
keeps one per open file) each keep their own evaluations: what one says of its expressions does
not change when another runs in between, and the other mode's answers are JAX's for that mode."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from promolint.engine.describe import describe
from promolint.engine.walker.analysis import Analysis, Settings, analyze
from promolint.engine.walker.source import parse_bytes

SOURCE = b"""\
import jax.numpy as jnp

def scale(x: float, n: int):
    y = jnp.asarray(x) * jnp.arange(n)
    return y / 3

ratio = jnp.arange(3) / 3
"""
RATIO = (7, 1)  # where ``ratio`` is assigned ``jnp.arange(3) / 3``


def _described(analysis: Analysis) -> dict[tuple[int, int], dict]:
    source = analysis.source
    found = {}
    for site in analysis.sites.values():
        span = source.span(site.node)
        found.setdefault((span.line, span.column), describe(site.value))
    return found


def test_an_analysis_read_after_another_ran_tells_the_same() -> None:
    source = parse_bytes(SOURCE)
    alone = _described(analyze(source, Settings(x64="off")))
    x32 = analyze(source, Settings(x64="off"))
    x64 = analyze(source, Settings(x64="on"))  # runs while the first is alive, before it is read
    assert _described(x32) == alone
    assert _described(x64) != alone


def test_each_mode_s_answer_is_jax_s() -> None:
    source = parse_bytes(SOURCE)
    x32, x64 = analyze(source, Settings(x64="off")), analyze(source, Settings(x64="on"))
    for analysis, enabled in ((x32, False), (x64, True)):
        with jax.enable_x64(enabled):
            real = jax.eval_shape(lambda: jnp.arange(3) / 3)
        assert _described(analysis)[RATIO]["dtype"] == str(real.dtype)

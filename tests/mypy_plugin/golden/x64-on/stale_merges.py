# promolint mypy plugin golden output -- mypy 2.4.1, config x64-on: {"extend-select": ["PRM001"], "x64": "on"}
# ruff: noqa: F841
"""At if/else and loop merges mypy may keep a variable's type from before the branch, dtype tag
included: a dtype the plugin cannot be sure of must never produce a finding."""
import jax.numpy as jnp


def one_branch(flag: bool) -> None:
    x = jnp.ones(3, jnp.int8)
    if flag:
        x = x.astype(jnp.int32)
    maybe = x + 1000  # int8 or int32: silent


def both_branches(flag: bool) -> None:
    x = jnp.ones(3, jnp.int8)
    if flag:
        x = x.astype(jnp.int32)
    else:
        x = jnp.ones(3, jnp.int32)
    never_int8 = x + 1000  # int32 on both paths: silent, whatever mypy's tag says


def loop() -> None:
    x = jnp.ones(3, jnp.int8)
    for _ in range(3):
        first_pass = x + 1000  # int8, then int32: silent
        x = x.astype(jnp.int32)
    after = x + 1000  # silent


def while_condition() -> None:
    x = jnp.ones(3, jnp.int8)
    while (x == 1000).any():  # the body rebinds x: silent
        x = x.astype(jnp.int32)


def straight_line() -> None:
    x = jnp.ones(3, jnp.int32)
    x = x.astype(jnp.int8)
    reported = x + 1000  # one binding reaches: reported
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]


def untouched_branch(flag: bool) -> None:
    x = jnp.ones(3, jnp.int8)
    if flag:
        print("no binding of x")
    reported = x + 1000  # the branch does not bind x: reported
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]


def try_handler() -> None:
    x = jnp.ones(3, jnp.int8)
    try:
        x = x.astype(jnp.int32)
    except ValueError:
        handled = x + 1000  # int8 or int32: silent


def closure() -> None:
    x = jnp.ones(3, jnp.int8)

    def inner() -> None:
        captured = x + 1000  # x is bound once: reported
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]

    y = jnp.ones(3, jnp.int8)
    y = y.astype(jnp.int32)

    def inner_rebound() -> None:
        captured = y + 1000  # y is bound twice: silent


TOP = jnp.ones(3, jnp.int8)
if TOP.shape:
    TOP = TOP.astype(jnp.int32)
top_level = TOP + 1000  # silent


def reads_rebound_global() -> None:
    from_function = TOP + 1000  # silent

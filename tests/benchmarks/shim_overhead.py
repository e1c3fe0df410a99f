"""What the run-time shim costs: the same functions timed plain and under ``@verify``, in one run.

    python tests/benchmarks/shim_overhead.py [--repeat 5] [--calls 200]

Workloads (20 steps of 7 operations): eager NumPy on 3-element arrays (the shim's worst case: such
an operation costs about as much as a check) and on 100k-element ones, eager JAX (every operation
dispatches to XLA), and a jitted function: its compiled calls (no Python runs, so nothing is
checked) and its first call (trace and compile; the checks run while tracing).  Prints the
best-of-``repeat`` time per call of each, and the ratio instrumented / plain.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import types

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from promolint.runtime import verify, verifying  # noqa: E402


def numpy_work(x, steps):
    total = np.float32(0)
    for i in range(steps):
        y = x * 2 + 1.5
        z = np.sqrt(y) - x.astype(np.float64)
        total = total + z.sum() / (i + 1)
    return total


def jax_work(x, steps):
    total = jnp.float32(0)
    for i in range(steps):
        y = x * 2 + 1.5
        z = jnp.sqrt(y) - x.astype(jnp.float16)
        total = total + z.sum() / (i + 1)
    return total


def jitted_work(x):
    y = x * 2 + 1.5
    z = jnp.sqrt(y) - x.astype(jnp.float16)
    for _ in range(20):
        z = jnp.tanh(z) * 0.5 + y
    return z.sum()


def best(fn, repeat: int, calls: int) -> float:
    """Best of ``repeat`` runs of ``calls`` calls, per call, in seconds."""
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        timings.append((time.perf_counter() - start) / calls)
    return min(timings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args(argv)

    a = np.ones(3, np.float32)
    big = np.ones(100_000, np.float32)
    j = jnp.ones(3, jnp.float32)
    plain_jit, checked_jit = jax.jit(jitted_work), jax.jit(verify(jitted_work))
    checked_numpy, checked_jax = verify(numpy_work), verify(jax_work)
    cases = {
        "eager NumPy, 3-element arrays": (lambda: numpy_work(a, 20), lambda: checked_numpy(a, 20)),
        "eager NumPy, 100k-element arrays": (lambda: numpy_work(big, 20), lambda: checked_numpy(big, 20)),
        "eager JAX, 3-element arrays": (lambda: jax_work(j, 20), lambda: checked_jax(j, 20)),
        "jitted JAX, compiled calls": (lambda: plain_jit(j).block_until_ready(), lambda: checked_jit(j).block_until_ready()),
    }
    with verifying(mode="report", report=os.devnull) as session:
        for label, (plain, checked) in cases.items():
            plain(), checked()  # warm up: compile, trace, predict
            t_plain = best(plain, args.repeat, args.calls)
            t_checked = best(checked, args.repeat, args.calls)
            print(f"{label:40s} plain {t_plain * 1e6:9.1f} us  checked {t_checked * 1e6:9.1f} us  "
                  f"ratio {t_checked / t_plain:5.2f}")  # fmt: skip
        # Tracing and compiling, where jitted code is checked: the first call of a fresh copy of the
        # function each time (JAX caches traces per function object), best of ``repeat``.
        def first_call(wrap) -> float:
            fresh = types.FunctionType(jitted_work.__code__, jitted_work.__globals__, jitted_work.__name__)
            start = time.perf_counter()
            jax.jit(wrap(fresh))(j).block_until_ready()
            return time.perf_counter() - start

        t_plain = min(first_call(lambda f: f) for _ in range(args.repeat))
        t_checked = min(first_call(verify) for _ in range(args.repeat))
        print(f"{'jitted JAX, first call (trace+compile)':40s} plain {t_plain * 1e6:9.1f} us  checked "
              f"{t_checked * 1e6:9.1f} us  ratio {t_checked / t_plain:5.2f}")  # fmt: skip
    counts = session.counts()
    print(f"checks: {counts['evaluations']} evaluations; {counts['agree']} agree, {counts['disagree']} disagree, "
          f"{counts['unknown']} unknown")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

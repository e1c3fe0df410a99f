"""Run expressions under the real libraries to take a triage verdict: dtype, weak flag, warnings.

    python tests/primer/repro.py [--x64 on|off] [--setup CODE] EXPR [EXPR ...]

Each expression is evaluated with ``np`` (NumPy), ``jnp``, ``jax`` and ``lax`` in scope, after
``--setup`` (e.g. ``x = jnp.ones(3, jnp.float32)``), in a fresh interpreter whose x64 mode is
set before JAX computes anything.  The ledger's reasons quote what this prints.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

_CHILD = r"""
import sys, warnings
import jax
jax.config.update("jax_enable_x64", sys.argv[1] == "on")
import jax.numpy as jnp, numpy as np
from jax import lax
scope = {"jax": jax, "jnp": jnp, "np": np, "lax": lax}
exec(sys.argv[2], scope)
for expr in sys.argv[3:]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = eval(expr, scope)
        except Exception as error:
            print(f"{expr}  ->  raises {type(error).__name__}: {error}")
            continue
    dtype = getattr(value, "dtype", None)
    weak = getattr(value, "weak_type", None)
    kind = type(value).__module__.split(".")[0] + "." + type(value).__name__
    shown = f"{'weak ' if weak else ''}{dtype} ({kind})" if dtype is not None else f"{value!r} ({kind})"
    notes = "; ".join(f"{w.category.__name__}: {str(w.message).splitlines()[0][:90]}" for w in caught)
    print(f"{expr}  ->  {shown}" + (f"  [{notes}]" if notes else ""))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--x64", default="off", choices=["on", "off"])
    parser.add_argument("--setup", default="")
    parser.add_argument("expressions", nargs="+", metavar="EXPR")
    args = parser.parse_args()
    return subprocess.run([sys.executable, "-c", _CHILD, args.x64, args.setup, *args.expressions]).returncode


if __name__ == "__main__":
    raise SystemExit(main())

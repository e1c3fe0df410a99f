"""Measure NumPy 1.x's promotion and write it as a table (``tests/data/numpy1/``).

The ``numpy1`` promotion system (``promolint.systems.numpy1``) models NumPy 1's value-based
casting; ``tests/oracle/test_numpy1_system.py`` checks it against the table this script writes.
NumPy 1 cannot be installed beside NumPy 2, so the test reads the committed table and this
script is how it was made (run it again to re-measure):

    python tests/oracle/numpy1_probe.py --venv .numpy1_venv --output tests/data/numpy1/numpy-1.26.4.json

With ``--venv`` it makes a virtual environment there with the interpreter that runs it (Python
3.11 for the committed table), installs ``numpy==1.26.4`` into it with pip (once), and runs
itself inside it.  Every case is ``left + right`` computed by NumPy; operands are written
``a:int8`` (a 1-d array), ``s:uint8:200`` (a NumPy scalar holding 200), ``z:int64:5`` (a 0-d
array) and ``p:300`` (a Python scalar); the outcome is the result's dtype or the exception's
class.  The ``behaviours`` record what NumPy 1 does where NumPy 2 raises OverflowError or wraps.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path

NUMPY = "numpy==1.26.4"
DTYPES = ("bool int8 uint8 int16 uint16 int32 uint32 int64 uint64 float16 float32 float64 complex64 "
          "complex128").split()  # fmt: skip
INTS = [0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535, 65536, -32768, -32769, 2**31 - 1, 2**31,
        2**32 - 1, 2**32, -(2**31), -(2**31) - 1, 2**63 - 1, 2**63, 2**64 - 1, -(2**63)]  # fmt: skip
FLOATS = [0.0, 1.0, -1.5, 3.0, 64999.0, 65000.0, -65000.0, 1e10, 3.3e38, 3.4e38, 1e300, float("inf"), float("-inf"),
          float("nan")]  # fmt: skip
COMPLEX = [1j, 1 + 1j, 1e39j, 3.3e38 + 0j]
PYTHON = [True, False, *INTS, *FLOATS, *COMPLEX]
# Python values beside NumPy scalars: fewer (all-scalar operations do not read values).
PYTHON_BESIDE_SCALARS = [True, 0, 1, -1, 128, 300, 2**40, 1.0, 1e10, 1e300, 1j, 1e39j]
# Values NumPy scalars and 0-d arrays hold, per kind; each dtype takes those it holds.
SCALAR_VALUES = {"b": [True], "i": [1, -1, 100, 200, 40000, -40000, 2**31, 2**40], "u": [1, 200, 40000, 2**31, 2**40],
                 "f": [1.0, 70000.0, 1e10, 1e300, float("inf")], "c": [1j, 1e39j]}  # fmt: skip


def measure() -> dict:
    import numpy as np

    warnings.simplefilter("ignore")

    def held(dtype: str, value):
        """The NumPy scalar of ``dtype`` holding ``value``, if it holds it exactly."""
        try:
            scalar = np.dtype(dtype).type(value)
        except (OverflowError, ValueError, TypeError):
            return None
        same = scalar.item() == value or (value != value and scalar != scalar)
        return scalar if same else None

    def operand(text: str):
        kind, _, rest = text.partition(":")
        if kind == "a":
            return np.ones(3, rest)
        if kind == "p":
            return _number(rest)
        dtype, _, value = rest.partition(":")
        scalar = np.dtype(dtype).type(_number(value))
        return scalar if kind == "s" else np.array(scalar)

    def outcome(left: str, right: str) -> str:
        try:
            result = operand(left) + operand(right)
        except Exception as error:  # every exception is data
            return type(error).__name__
        return np.asarray(result).dtype.name

    scalars = []
    for dtype in DTYPES:
        kind = np.dtype(dtype).kind
        values = SCALAR_VALUES[kind] + (SCALAR_VALUES["f"] if kind == "c" else [])
        scalars += [f"{dtype}:{value!r}" for value in values if held(dtype, value) is not None]
    pairs = [(f"a:{a}", f"a:{b}") for a in DTYPES for b in DTYPES]
    pairs += [pair for a in DTYPES for v in PYTHON for pair in ((f"a:{a}", f"p:{v!r}"), (f"p:{v!r}", f"a:{a}"))]
    pairs += [pair for a in DTYPES for s in scalars for pair in ((f"a:{a}", f"s:{s}"), (f"s:{s}", f"a:{a}"),
                                                                 (f"a:{a}", f"z:{s}"))]  # fmt: skip
    pairs += [pair for s in scalars for v in PYTHON_BESIDE_SCALARS
              for pair in ((f"s:{s}", f"p:{v!r}"), (f"p:{v!r}", f"s:{s}"), (f"z:{s}", f"p:{v!r}"))]  # fmt: skip
    firsts = [s for s in scalars if s.endswith((":1", ":1.0", ":1j", ":True"))]
    pairs += [(f"s:{a}", f"s:{b}") for a in firsts for b in firsts]
    return {
        "numpy": np.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "measured_by": "tests/oracle/numpy1_probe.py",
        "cases": [[left, right, outcome(left, right)] for left, right in pairs],
        "behaviours": _behaviours(np),
    }


def _behaviours(np) -> dict:
    """What NumPy 1 does where NumPy 2 raises OverflowError (or wraps with a warning)."""

    def run(code: str) -> str:
        namespace = {"np": np}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(code, namespace)
            except Exception as error:
                return type(error).__name__
        categories = sorted({w.category.__name__ for w in caught})
        result = namespace["result"]
        described = f"{type(result).__name__} {getattr(result, 'dtype', '')} {result!r}".replace("  ", " ")
        return described + (f" with {', '.join(categories)}" if categories else "")

    return {code: run(code) for code in (
        "a = np.zeros((2, 2), np.uint8); a[0, 1] = 638; result = a[0, 1]",
        "a = np.zeros(3, np.int8); a[:] = -129; result = a[0]",
        "a = np.ones(3, np.int8); a += 128; result = a",
        "a = np.ones(3, np.int8); a += 1000; result = a",
        "result = np.uint8(300)",
        "result = np.int8(-129)",
        "result = np.uint8(200) + 128",
        "result = np.uint8(200) + np.uint8(100)",
        "result = np.int32(2**31 - 1) + 1",
        "a = 0.0; a += np.float32(1); result = a",
    )}  # fmt: skip


def _number(text: str):
    import ast

    return float(text) if text.lstrip("-") in ("inf", "nan") else ast.literal_eval(text)


def _in_venv(venv: Path, argv: list[str]) -> int:
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", NUMPY], check=True)
    return subprocess.run([str(python), __file__, *argv]).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="make (once) and use a virtual environment with NumPy 1 here")
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.venv is not None:
        return _in_venv(args.venv.resolve(), ["--output", str(args.output.resolve())])
    table = measure()
    if not table["numpy"].startswith("1."):
        raise SystemExit(f"this measures NumPy 1; found NumPy {table['numpy']} (use --venv)")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(f"    {json.dumps(case)}" for case in table.pop("cases"))
    header = json.dumps(table, indent=2)[:-2]  # the last key gets the cases after it, one per line
    args.output.write_text(f'{header},\n  "cases": [\n{lines}\n  ]\n}}\n')
    print(f"{args.output}: NumPy {table['numpy']}, {lines.count(chr(10)) + 1} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())

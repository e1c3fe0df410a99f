"""The fixtures of the integer, mixed-precision, NumPy 1 -> 2 and lax rules run for real: what each
finding says happens (a dtype, a wrapped value, a warning, an OverflowError, JAX's TypeError in
its own words) is what NumPy 2.4.6 and jax 0.10.2 do with that statement, in the mode it was
reported in.  (What NumPy 1 did is
checked against NumPy 1.26.4's measured table by ``tests/oracle/test_numpy1_system.py``.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from promolint.driver.config import Config
from promolint.driver.runner import run_check

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
FILES = ["PRM020_mixed_signedness.py", "PRM021_numpy_scalar_overflow.py", "PRM022_int_to_float.py",
         "PRM023_mixed_precision.py", "PRM024_numpy1_compat.py", "PRM006_literal_overflow.py",
         "PRM008_lax_dtype_mismatch.py"]  # fmt: skip
MODES = {
    "default": ({"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "standard"}, {}),
    "x64": ({"JAX_ENABLE_X64": "1", "JAX_NUMPY_DTYPE_PROMOTION": "standard"}, {"x64": "on"}),
    "strict": ({"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "strict"}, {"promotion": "strict"}),
}
CODES = {"PRM004", "PRM006", "PRM008", "PRM020", "PRM021", "PRM022", "PRM023", "PRM024"}

# Runs a file's top-level statements one by one and prints, per line, what the statement gave:
# the exception it raised, the warnings, and the dtype, weak flag and value of what it assigned.
_RUNNER = r"""
import ast, json, sys, warnings
import jax, numpy as np
source = open(sys.argv[1]).read()
namespace, seen = {}, {}
for statement in ast.parse(source).body:
    code = compile(ast.Module([statement], []), sys.argv[1], "exec")
    record = {"error": None, "warnings": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
        except Exception as error:
            record["error"] = type(error).__name__
            record["message"] = str(error).splitlines()[0]
    record["warnings"] = sorted({w.category.__name__ for w in caught})
    target = statement.targets[0] if isinstance(statement, ast.Assign) else getattr(statement, "target", None)
    value = namespace.get(target.id) if isinstance(target, ast.Name) and record["error"] is None else None
    if hasattr(value, "dtype"):
        record["dtype"] = str(value.dtype)
        record["weak"] = bool(getattr(value, "weak_type", False))
        if np.ndim(value) == 0 and value.dtype.kind in "iub":
            record["value"] = int(value)
    seen[statement.lineno] = record
print(json.dumps(seen))
"""


def _run(path: Path, mode: str) -> dict[int, dict]:
    environment = {**os.environ, **MODES[mode][0], "JAX_PLATFORMS": "cpu"}
    result = subprocess.run([sys.executable, "-c", _RUNNER, str(path)], capture_output=True, text=True,
                            env=environment, timeout=300, check=True)  # fmt: skip
    return {int(line): record for line, record in json.loads(result.stdout.splitlines()[-1]).items()}


def _claims(code: str, message: str) -> dict | None:
    """What a finding's message says the statement does, as the run can observe it (None: a
    claim about array elements, which the run does not record)."""
    if code == "PRM008":  # JAX's message, then the rule's advice
        return {"error": "TypeError", "message": re.match(r"(.*?)\.? (Use jnp\.|Cast the)", message)[1]}
    if code == "PRM004":  # the dtypes JAX's TypePromotionError names, as JAX converts them
        named = re.search(r"strict promotion: (.*) have no", message)[1].replace("Python ", "").split(", ")
        return {"error": "TypePromotionError", "dtypes": sorted(named)}
    if code == "PRM006":
        return {"error": "OverflowError"} if "OverflowError at run time" in message else None
    if code == "PRM024" and "raises OverflowError" in message:
        return {"error": "OverflowError"}
    if code == "PRM020":
        match = re.search(r"(computes|compares) in (int32)|gives (int64)", message)
        return {"dtype": "bool" if match[1] == "compares" else match[2] or match[3]}
    if code == "PRM021":
        match = re.search(r"wraps it to (-?\d+) (with a RuntimeWarning|without a warning)", message)
        return {"value": int(match[1]), "runtime_warning": match[2] == "with a RuntimeWarning"}
    if code == "PRM022":
        match = re.search(r"promotes to (weak )?(\w+) in", message)
        return {"dtype": match[2], **({"weak": True} if match[1] else {})}
    if code == "PRM023":
        return {"dtype": re.search(r"becomes (\w+)", message)[1]}
    return {"dtype": re.search(r"NumPy 2 gives (\w+)", message)[1]}


def _holds(claim: dict, seen: dict) -> bool:
    if "dtypes" in claim:  # in the order JAX met them, which may differ from the source's
        return seen["error"] == claim["error"] and sorted(re.findall(r"'(\w+)'", seen["message"])) == claim["dtypes"]
    if "error" in claim:
        return seen["error"] == claim["error"] and seen["message"].startswith(claim.get("message", ""))
    if seen["error"] is not None:
        return False
    if "runtime_warning" in claim and claim["runtime_warning"] != ("RuntimeWarning" in seen["warnings"]):
        return False
    return all(seen.get(key) == expected for key, expected in claim.items() if key != "runtime_warning")


@pytest.mark.parametrize("name", FILES)
def test_every_finding_says_what_the_statement_does(name: str) -> None:
    path = FIXTURES / name
    checked, wrong = 0, []
    for mode in MODES:
        config = Config(root=FIXTURES, extend_select=("PRM023", "PRM024"), **MODES[mode][1])
        findings = [d for d in run_check([path], config, jobs=1, cache=False).diagnostics if d.code in CODES]
        run = _run(path, mode) if findings else {}
        for finding in findings:
            claim = _claims(finding.code, finding.message)
            if claim is None:
                continue
            checked += 1
            if finding.line not in run:
                wrong.append(f"[{mode}] line {finding.line} is not a top-level statement the run can observe")
            elif not _holds(claim, run[finding.line]):
                wrong.append(f"[{mode}] line {finding.line} {finding.code}: claims {claim}, ran {run[finding.line]}")
    assert checked, f"{name}: no finding to check"
    assert not wrong, "\n".join(wrong)

"""The engine's table of refused dtypes (``linter/engine/domains.py``) against the libraries.

``domain_probe.py`` measures, in a subprocess with x64 on, which dtypes every probed NumPy and
JAX function and operator (and Python's operators) refuses and with which exception; this
module writes that down in the table's compact form and asserts it is the engine's table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from promolint.engine.domains import DTYPE_CLASSES, REFUSED, refusal_error
from promolint.systems import get_system
from promolint.systems.jax_versions import facts_for
from promolint.systems.numpy_facts import MEASURED_REFUSALS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def probe() -> dict:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    environment.update(JAX_PLATFORMS="cpu", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(Path(__file__).parent / "domain_probe.py")], env=environment,
                          capture_output=True, text=True, timeout=600, check=True)  # fmt: skip
    return json.loads(done.stdout)


def compact(errors: dict[str, str | None]) -> dict[str, str]:
    """``{dtype: exception or None}`` as the table writes it: ``{exception: "tokens"}``, a token
    being a class of DTYPE_CLASSES whose measured dtypes all raise that exception, or a dtype."""
    out: dict[str, str] = {}
    for error in sorted({e for e in errors.values() if e}):
        refused = {d for d, e in errors.items() if e == error}
        tokens = []
        for name, members in DTYPE_CLASSES.items():
            measured = members & errors.keys()
            if measured and measured <= refused:
                tokens.append(name)
                refused -= measured
        out[error] = " ".join(tokens + sorted(refused))
    return out


def measured(probe: dict) -> dict[str, dict[str, dict[str, str]]]:
    table: dict[str, dict[str, dict[str, str]]] = {}
    for library, functions in probe.items():
        for name, errors in functions.items():
            if library == "numpy" and name.startswith("scalar "):
                continue  # checked to be the arrays' own below
            if library == "numpy" and name in MEASURED_REFUSALS:
                continue  # the NumPy system measures them on the installed versions: checked below
            if any(errors.values()):
                table.setdefault(library, {})[name] = compact(errors)
    return table


def test_table_is_what_the_libraries_refuse(probe):
    runs = facts_for(version("jax")).runs  # what the installed JAX runs where the pinned one refused
    assert {**REFUSED, "jax": {k: v for k, v in REFUSED["jax"].items() if k not in runs}} == measured(probe)


def test_refusals_measured_on_the_installed_numpy_are_the_probes(probe):
    facts = get_system("numpy").facts.refused
    assert set(facts) == set(MEASURED_REFUSALS)
    for name in MEASURED_REFUSALS:
        probed = {error: {d for d, e in probe["numpy"][name].items() if e == error}
                  for error in set(probe["numpy"][name].values()) - {None}}  # fmt: skip
        on_probed = {error: dtypes & probe["numpy"][name].keys() for error, dtypes in facts[name].items()}
        assert {error: dtypes for error, dtypes in on_probed.items() if dtypes} == probed, name


def test_numpy_scalars_refuse_what_numpy_arrays_refuse(probe):
    numpy = probe["numpy"]
    assert {name: numpy[f"scalar {name}"] for name in numpy if f"scalar {name}" in numpy} == {
        name: errors for name, errors in numpy.items() if f"scalar {name}" in numpy
    }


def test_classes_cover_the_dtypes_they_name():
    assert refusal_error("numpy", "cbrt", "complex64") == "TypeError"
    assert refusal_error("jax", "abs(x)", "int4") == "TypeError"
    assert refusal_error("jax", "abs(x)", "uint4") is None
    assert refusal_error("python", "~x", "float64") == "TypeError"
    assert refusal_error("python", "~x", "int64") is None


if __name__ == "__main__":  # print the measured table, to paste into the engine when it changes
    result = subprocess.run([sys.executable, str(Path(__file__).parent / "domain_probe.py")], capture_output=True,
                            text=True, check=True, env={**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)})  # fmt: skip
    for library, functions in measured(json.loads(result.stdout)).items():
        print(f'"{library}": {{')
        for name, errors in functions.items():
            print(f'    "{name}": {errors!r},')
        print("},")

"""`promolint table` and `promolint join` against NumPy and JAX: one naming scheme for dtypes
(what the table prints, join reads, and NumPy reads the same way), one spelling of the modes,
and join's answers as the real functions give them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cli_run import run
from promolint.core.dtypes import DTYPES, LABELS, resolve_name

PAIRS = [("u4", "i8"), ("float32", "float64"), ("int8", "int32"), ("bf16", "f2"), ("i1", "uint1"),
         ("uint32", "int64"), ("c8", "f8")]  # fmt: skip
# jnp.result_type and jnp.promote_types of PAIRS in one JAX mode, as JAX answers (an exception
# is an answer); the names reach JAX as their canonical names (how join reads the short ones is
# checked against NumPy above).
PROBE = """
import json, sys, warnings
import jax.numpy as jnp, numpy as np
warnings.simplefilter("ignore")
def answer(function, a, b):
    try:
        return str(np.dtype(function(jnp.dtype(a), jnp.dtype(b))))
    except Exception as error:
        return type(error).__name__
pairs = json.loads(sys.argv[1])
print(json.dumps([[answer(jnp.result_type, a, b), answer(jnp.promote_types, a, b)] for a, b in pairs]))
"""
JAX_MODES = {  # flags -> JAX's environment
    ("--x64", "off"): {"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "standard"},
    ("--x64", "on"): {"JAX_ENABLE_X64": "1", "JAX_NUMPY_DTYPE_PROMOTION": "standard"},
    ("--x64", "off", "--promotion", "strict"): {"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "strict"},
    ("--x64", "on", "--system", "jax-strict"): {"JAX_ENABLE_X64": "1", "JAX_NUMPY_DTYPE_PROMOTION": "strict"},
}
REFUSED = {"TypePromotionError": "refused"}


@pytest.fixture(scope="module")
def jax_answers() -> dict[tuple[str, ...], list[list[str]]]:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "JAX_EXPLICIT_X64_DTYPES": "warn"}
    canonical = [[resolve_name(a), resolve_name(b)] for a, b in PAIRS]
    running = {flags: subprocess.Popen([sys.executable, "-c", PROBE, json.dumps(canonical)], env={**env, **mode},
                                       stdout=subprocess.PIPE, text=True)  # fmt: skip
               for flags, mode in JAX_MODES.items()}  # fmt: skip
    return {flags: json.loads(process.communicate(timeout=300)[0]) for flags, process in running.items()}


# --- names -----------------------------------------------------------------------------------------
def test_every_name_the_table_prints_reads_back_as_its_dtype(capsys) -> None:
    status, out, _ = run(capsys, "table")
    printed = out.splitlines()[0].split()
    assert status == 0 and set(printed) == set(LABELS.values()) | {"i*", "f*", "c*"}
    assert {label: resolve_name(label) for label in LABELS.values()} == {label: name for name, label in LABELS.items()}


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_a_printed_name_numpy_reads_means_the_same_dtype_to_numpy(name) -> None:
    import ml_dtypes  # noqa: F401  (registers bfloat16 and the small floats with NumPy)

    label = LABELS[name]
    try:
        numpy_reads = np.dtype(label).name
    except TypeError:
        return  # not a NumPy spelling (int4, bf16, f8e4m3fn): no reading to contradict
    assert numpy_reads == name


@pytest.mark.parametrize(("spelling", "numpy_name"), [("u4", "uint32"), ("i8", "int64"), ("f2", "float16"),
                                                      ("c16", "complex128"), ("b1", "bool")])  # fmt: skip
def test_join_reads_short_names_as_numpy_does(capsys, spelling, numpy_name) -> None:
    assert np.dtype(spelling).name == numpy_name  # the premise, from NumPy
    assert run(capsys, "join", spelling, "--x64", "on")[1] == f"{numpy_name}\n"


@pytest.mark.parametrize(("spelling", "hint"), [("f16", "NumPy reads it as a 16-byte float"),
                                                ("i16", "int16 is i2"), ("f32", "float32 is f4")])  # fmt: skip
def test_a_bit_width_name_is_refused_with_the_byte_name(capsys, spelling, hint) -> None:
    status, _, err = run(capsys, "join", spelling, "f4")
    assert status == 2 and f"unknown dtype {spelling!r}" in err and hint in err


# --- one spelling of the modes -------------------------------------------------------------------
@pytest.mark.parametrize(("flags", "expected"), [
    ((), "int32"), (("--x64", "off"), "int32"), (("--x64", "on"), "int64"), (("--x64", "auto"), "int32"),
    (("--x64",), "int64"), (("--x32",), "int32"),  # the older spelling still works
])  # fmt: skip
def test_join_takes_the_modes_as_check_does(capsys, flags, expected) -> None:
    assert run(capsys, "join", "int32", "int64", *flags)[1].splitlines()[0] == expected
    assert run(capsys, "join", *flags, "int32", "int64")[1].splitlines()[0] == expected  # the flag first


def test_table_and_lattice_take_the_same_modes(capsys) -> None:
    assert run(capsys, "table", "--x64", "on", "--format", "csv")[1] == run(capsys, "table", "--x64", "--format",
                                                                             "csv")[1]  # fmt: skip
    strict = run(capsys, "table", "--promotion", "strict", "--format", "csv")[1]
    assert strict == run(capsys, "table", "--system", "jax-strict", "--format", "csv")[1]
    assert run(capsys, "lattice", "draw", "--x64", "on", "--format", "dot")[0] == 0
    status, _, err = run(capsys, "join", "int8", "--system", "numpy", "--promotion", "strict")
    assert status == 2 and "strict is a JAX mode" in err


# --- join answers as JAX does ---------------------------------------------------------------------
@pytest.mark.parametrize("flags", JAX_MODES)
def test_join_prints_jnp_result_type_and_notes_where_promote_types_differs(capsys, jax_answers, flags) -> None:
    for (a, b), (result_type, promote_types) in zip(PAIRS, jax_answers[flags]):
        out = run(capsys, "join", a, b, *flags)[1].splitlines()
        first = "refused" if out[0].startswith("refused") else out[0]
        assert first == REFUSED.get(result_type, result_type), (a, b, flags, out)
        noted = [line.split(", which does not narrow, gives ")[1] for line in out[1:] if "jnp.promote_types" in line]
        if promote_types != result_type:  # what JAX's other function says is written beside it
            (said,) = noted
            assert ("refused" if said.startswith("refused") else said) == REFUSED.get(promote_types, promote_types)
        elif noted:
            assert noted[0].startswith("refused") if first == "refused" else noted[0] == first


def test_join_of_float32_and_float64_under_strict_x32(capsys) -> None:
    status, out, _ = run(capsys, "join", "float32", "float64", "--system", "jax-strict", "--x32")
    result, note = out.splitlines()
    assert status == 0 and result == "float32"  # jnp.result_type narrows float64 first (checked above against JAX)
    assert note.startswith("note: x64 is off: JAX narrows float64 to float32 before promoting, as jnp.result_type")
    assert "jnp.promote_types(float32, float64), which does not narrow, gives refused (strict)" in note

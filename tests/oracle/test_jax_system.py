"""The JAX promotion system against JAX itself and against JAX's published promotion tables.

Expected values come from ``jax_probe.py``, run by this module in one subprocess per mode, and from
JAX's documentation, kept in ``tests/data/jax`` (NOTICE.md there names the source); none are
written here.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jax._src import dtypes as jax_dtypes

from promolint.core.dtypes import DTYPES, PYTHON_SCALAR_TYPES
from promolint.systems.lattice import check_operation
from promolint.systems import Operand, Origin, Reason, Refused, get_system
from promolint.systems.jax_versions import facts_for
from promolint.systems.jax import NODE_ORDER, STANDARD_X32, STANDARD_X64, STRICT, standard_edges, strict_edges

PROBE = Path(__file__).with_name("jax_probe.py")
JAX_DOCS = Path(__file__).resolve().parents[1] / "data" / "jax"

# mode -> (environment of its probe, the system that should answer like it)
MODES = {
    "x32": ({}, get_system("jax")),
    "x64": ({"JAX_ENABLE_X64": "1"}, get_system("jax", x64=True)),
    "strict": ({"JAX_NUMPY_DTYPE_PROMOTION": "strict"}, get_system("jax-strict")),
    "explicit-allow": ({"JAX_EXPLICIT_X64_DTYPES": "allow"}, get_system("jax", explicit_x64="allow")),
}
# Every mode variable is set, so that the environment pytest runs in cannot leak into a mode.
BASE_ENV = {
    "JAX_PLATFORMS": "cpu",
    "JAX_ENABLE_X64": "0",
    "JAX_NUMPY_DTYPE_PROMOTION": "standard",
    "JAX_EXPLICIT_X64_DTYPES": "warn",
}


@pytest.fixture(scope="module")
def probes() -> dict[str, dict]:
    """Each mode's measurements, from probes started together so they run in parallel."""
    running = {
        mode: subprocess.Popen(
            [sys.executable, str(PROBE)],
            env={**os.environ, **BASE_ENV, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for mode, (env, _) in MODES.items()
    }
    measured = {}
    for mode, process in running.items():
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, f"probe for {mode} failed:\n{err}"
        measured[mode] = json.loads(out)
    return measured


# --- JAX's answers and the system's, in one comparable form --------------------------------------
REFUSAL_PHRASES = {
    "when jax_numpy_dtype_promotion=strict": Reason.STRICT,
    "8-bit floats do not support implicit promotion": Reason.FLOAT8,
    "6-bit floats do not support implicit promotion": Reason.FLOAT6,
    "4-bit floats do not support implicit promotion": Reason.FLOAT4,
    "1-bit, 2-bit and 4-bit integers do not support implicit promotion": Reason.INTN,
    "promotion path. Try explicitly casting inputs to the desired output type.": Reason.NO_PATH,
}
LISTED_DTYPES = re.compile(r"^Input dtypes (\(.*?\)) have no")


def refusal(reason: Reason | None, message: str) -> tuple:
    """A refusal with its message's dtype tuple read as a set: JAX builds that tuple from a set."""
    listed = LISTED_DTYPES.search(message)
    if listed is None:
        return ("refused", reason, message)
    return (
        "refused",
        reason,
        frozenset(ast.literal_eval(listed[1])),
        LISTED_DTYPES.sub("Input dtypes (...) have no", message),
    )


def from_jax(measured: dict, *, weak: bool = True) -> tuple:
    if "error" not in measured:
        return ("promoted", measured["dtype"], measured["weak"] if weak else None)
    if measured["error"] != "TypePromotionError":
        return ("raised", measured["error"], measured["message"])
    reasons = [reason for phrase, reason in REFUSAL_PHRASES.items() if phrase in measured["message"]]
    return refusal(reasons[0] if len(reasons) == 1 else None, measured["message"])


def from_system(result) -> tuple:
    if isinstance(result, Refused):
        return refusal(result.reason, result.message)
    if isinstance(result, str):  # promote_types gives a bare dtype name
        return ("promoted", result, None)
    return ("promoted", result.dtype, result.weak)


# --- how the probe's operands are written for the system ------------------------------------------
def node(name: str) -> str:
    """A probe node: a dtype name, or a Python type standing for its weak node."""
    return PYTHON_SCALAR_TYPES.get(name, name)


def dtype_spec(name: str) -> Operand:
    """An argument of result_type: a Python type is a weak value, anything else a requested dtype."""
    return Operand.parse(name) if name in PYTHON_SCALAR_TYPES else Operand(name, origin=Origin.DTYPE)


def expression_operand(origin: str, name: str) -> Operand:
    if origin in ("array", "weak_array"):
        return Operand(name, weak=origin == "weak_array", origin=Origin.ARRAY)
    if origin == "python":  # 1, 1.0 and 1j are weak; True is a strong bool
        return Operand.parse(name)
    return Operand(name)  # NumPy scalars and 0-d arrays are strong values


def mismatches_promote_types(measured: dict, system) -> list:
    return [
        (f"promote_types({a}, {b})", expected, got)
        for a, b, outcome in measured["promote_types"]
        if (expected := from_jax(outcome, weak=False)) != (got := from_system(system.promote_types(node(a), node(b))))
    ]


def mismatches_result_type(measured: dict, system) -> list:
    return [
        (f"result_type{tuple(args)}", expected, got)
        for args, outcome in measured["result_type"]
        if (expected := from_jax(outcome)) != (got := from_system(system.result_type(*map(dtype_spec, args))))
    ]


def mismatches_expressions(measured: dict, system) -> list:
    return [
        (f"{left} + {right}", expected, got)
        for left, right, outcome in measured["expressions"]
        if (expected := from_jax(outcome))
        != (got := from_system(system.lattice_result_type(expression_operand(*left), expression_operand(*right))))
    ]


CHECKS = {
    "promote_types": mismatches_promote_types,
    "result_type": mismatches_result_type,
    "expressions": mismatches_expressions,
}


def report(mismatches: list) -> str:
    lines = [f"{len(mismatches)} mismatches (case: JAX | system):"]
    lines += [f"  {case}: {expected} | {got}" for case, expected, got in mismatches]
    return "\n".join(lines)


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("mode", MODES)
def test_system_answers_like_jax(probes, mode, check):
    mismatches = CHECKS[check](probes[mode], MODES[mode][1])
    assert not mismatches, report(mismatches)


@pytest.mark.parametrize("mode", MODES)
def test_probe_ran_in_its_mode(probes, mode):
    measured, system = probes[mode], MODES[mode][1]
    assert measured["config"] == {
        "x64": system.x64,
        "promotion": "strict" if system.strict else "standard",
        "explicit_x64": system.explicit_x64.value,
    }
    assert [node(name) for name in measured["nodes"]] == system.table_nodes()
    assert measured["defaults"] == {kind: system.default_dtype(kind) for kind in measured["defaults"]}


# --- the lattices, edge for edge ------------------------------------------------------------------
UNMODELLED = facts_for(jax.__version__).unmodelled_dtypes  # a newer JAX's dtypes promolint does not model


def jax_edges(*, strict: bool, x64: bool) -> dict[str, set[str]]:
    def name(t) -> str:  # a node is a dtype, or a Python type for a weak node
        return PYTHON_SCALAR_TYPES[t.__name__] if isinstance(t, type) else t.name

    return {name(low): {name(up) for up in ups} for low, ups in jax_dtypes._type_promotion_lattice(strict, x64).items()}


def above(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each node and every node above it, over the nodes promolint models: two lattices with the
    same order have the same edges, and one with dtypes promolint does not model (a newer JAX's)
    keeps the order of the others through them."""
    def up(node: str, seen: set[str]) -> set[str]:
        for higher in edges.get(node, ()):
            if higher not in seen:
                seen.add(higher)
                up(higher, seen)
        return seen

    return {node: {n for n in up(node, {node}) if n not in UNMODELLED} for node in edges if node not in UNMODELLED}


@pytest.mark.parametrize(
    ("strict", "x64", "edges"),
    [(False, True, standard_edges(x64=True)), (False, False, standard_edges(x64=False)), (True, True, strict_edges())],
)
def test_lattice_edges_are_jaxs(strict, x64, edges):
    ours = {low: set(ups) for low, ups in edges.items()}
    if UNMODELLED:
        assert above(ours) == above(jax_edges(strict=strict, x64=x64))
    else:
        assert ours == jax_edges(strict=strict, x64=x64)


def test_node_order_is_jaxs():
    names = [str(t) for t in jax_dtypes._jax_types]
    assert NODE_ORDER[: len(DTYPES)] == [n for n in names if n not in UNMODELLED]
    assert set(names) - set(DTYPES) == UNMODELLED  # every dtype JAX has is modelled or a fact of its version


# --- the tables of JAX's documentation (generated with x64 on) ------------------------------------
def seed(name: str) -> str:
    return (JAX_DOCS / name).read_text(encoding="utf-8")


TABLE_DTYPES = [
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "bfloat16", "float16", "float32", "float64", "complex64", "complex128",
]  # fmt: skip


def abbreviations(complex_per_part: bool) -> dict[str, str]:
    """Table labels: kind letter and byte size, as the generator in jax-type-promotion.rst writes
    them (``c8`` is complex64); the older table counts a complex's bytes per part (``c8`` is
    complex128 in its legend)."""
    labels = {"bf": "bfloat16", "i*": "i*", "f*": "f*", "c*": "c*"}
    for name in TABLE_DTYPES:
        dtype = np.dtype(name)
        size = dtype.itemsize // 2 if complex_per_part and dtype.kind == "c" else dtype.itemsize
        labels.setdefault(f"{dtype.kind}{size}", name)
    return labels


def check_legend(text: str, legend: re.Pattern, labels: dict[str, str]) -> None:
    """Every label the table uses and its legend explains must decode to the legend's dtype."""
    explained = dict(legend.findall(text))
    assert explained, "legend not found"
    for label, attribute in explained.items():
        if label in labels:
            assert labels[label] == np.dtype(getattr(jnp, attribute)).name, label


def test_seed_table_of_promote_types():
    text = seed("jax-type-promotion-table.txt")
    labels = abbreviations(complex_per_part=True)
    check_legend(text, re.compile(r"“(\w+)” means\s*`np\.(\w+)`"), labels)
    rows = [[c.strip() for c in line.split("|") if c.strip()] for line in text.splitlines() if " | " in line]
    header = rows[0]
    assert len(header) == len(TABLE_DTYPES) == len(rows) - 1
    system = get_system("jax", x64=True)
    cells = [(row[0], column, cell) for row in rows[1:] for column, cell in zip(header, row[1:], strict=True)]
    mismatches = [
        (f"{a} ∨ {b}", labels[cell], got)
        for a, b, cell in cells
        if labels[cell] != (got := system.promote_types(labels[a], labels[b]))
    ]
    assert not mismatches, report(mismatches)


def test_seed_table_of_lattice_result_type():
    text = seed("jax-type-promotion.rst")
    labels = abbreviations(complex_per_part=False)
    check_legend(text, re.compile(r"``(\w+)`` means :code:`np\.(\w+)`"), labels)
    rows = [
        re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", line) for line in text.splitlines() if line.strip().startswith("<tr>")
    ]
    header = rows[0][1:]
    assert len(header) == len(TABLE_DTYPES) + 3 == len(rows) - 1
    system = get_system("jax", x64=True)
    mismatches = [
        (f"{row[0]} ∨ {column}", labels[cell], got)
        for row in rows[1:]
        for column, cell in zip(header, row[1:], strict=True)
        if labels[cell] != (got := system.table_cell(labels[row[0]], labels[column]))
    ]
    assert not mismatches, report(mismatches)


# --- properties of the three lattices --------------------------------------------------------------
LATTICES = {"standard-x64": STANDARD_X64, "standard-x32": STANDARD_X32, "strict": STRICT}


@pytest.mark.parametrize("lattice", LATTICES.values(), ids=LATTICES)
def test_join_is_a_partial_lattice_join(lattice):
    # Not a lattice: intN and small floats are dead ends with no join (int4 ∨ int8). Where joins
    # exist they are unique, commutative, associative and idempotent.
    found = check_operation(lattice.nodes, lattice.join)
    assert found.no_result
    assert (found.ambiguous, found.not_commutative, found.not_associative, found.not_idempotent) == ([], [], [], [])


def join_outcome(joined):
    return joined if isinstance(joined, str) else joined.candidates  # a NoJoin also lists its inputs


@pytest.mark.parametrize("lattice", LATTICES.values(), ids=LATTICES)
@settings(deadline=None)  # a loaded CI machine must not turn slowness into failure
@given(data=st.data())
def test_n_ary_join_is_the_least_common_upper_bound(lattice, data):
    nodes = data.draw(st.lists(st.sampled_from(lattice.nodes), min_size=1, max_size=5))
    joined = lattice.join(*nodes)
    assert join_outcome(lattice.join(*data.draw(st.permutations(nodes)))) == join_outcome(joined)
    common = frozenset.intersection(*(lattice.upper_bounds[n] for n in nodes))
    least = [c for c in common if all(lattice.leq(c, bound) for bound in common)]
    assert [joined] == least if isinstance(joined, str) else least == []
    folded = nodes[0]
    for n in nodes[1:]:
        folded = lattice.join(folded, n) if isinstance(folded, str) else folded
    if isinstance(folded, str):  # where a chain of binary joins is defined, it agrees
        assert folded == joined


def operands():
    operand = st.builds(Operand, st.sampled_from(list(DTYPES)), st.booleans(), st.sampled_from(list(Origin)))
    return st.lists(operand, min_size=1, max_size=4)


@pytest.mark.parametrize("mode", MODES)
@settings(deadline=None)
@given(data=st.data())
def test_result_type_ignores_operand_order(mode, data):
    # JAX joins a set of nodes, so the order of the operands can change only the message.
    system = MODES[mode][1]
    ops = data.draw(operands())
    first, second = system.result_type(*ops), system.result_type(*data.draw(st.permutations(ops)))
    assert from_system(first) == from_system(second)

"""How branches merge (``promolint.engine.flow.frames``): after ``if``/``else`` a name holds what
either branch left in it, and the JAX modes are the ones the branches agree on."""

from __future__ import annotations

from promolint.engine.context import X64_BY_CODE, X64_BY_DEFAULT, X64_BY_USER, Context
from promolint.engine.flow.frames import Frame, merge
from promolint.engine.symbolic import EvaluationState, Symbolic, variable
from promolint.engine.values import UNKNOWN, Array, Library

FLOAT32 = Array(frozenset({"float32"}), Library.JAX, False)
FLOAT16 = Array(frozenset({"float16"}), Library.JAX, False)
DEFAULT_MODES = Context(x64=False, x64_by=X64_BY_DEFAULT)


def _branches(before: Frame, *bindings: dict) -> list[Frame]:
    branches = []
    for names in bindings:
        branch = before.copy()
        branch.names.update(names)
        branches.append(branch)
    return branches


def test_a_name_both_branches_leave_alone_keeps_its_very_value() -> None:
    frame = Frame({"x": FLOAT32}, DEFAULT_MODES)
    merge(frame, _branches(frame, {}, {}))
    assert frame.names["x"] is FLOAT32


def test_a_name_the_branches_bind_differently_holds_either_value() -> None:
    frame = Frame({}, DEFAULT_MODES)
    merge(frame, _branches(frame, {"x": FLOAT32}, {"x": FLOAT16}))
    merged = frame.names["x"]
    assert isinstance(merged, Array) and merged.dtypes == {"float32", "float16"} and merged.dtype is None


def test_a_name_only_one_branch_binds_is_unknown_after() -> None:
    frame = Frame({}, DEFAULT_MODES)
    merge(frame, _branches(frame, {"x": FLOAT32}, {}))
    assert frame.names["x"] is UNKNOWN


def test_a_name_one_branch_binds_to_a_variable_is_either_at_each_member() -> None:
    state = EvaluationState()
    x = variable("x", (1, "x"), state.domain((Library.JAX,), DEFAULT_MODES, frozenset({"float16", "int8"})),
                 state=state)  # fmt: skip
    frame = Frame({"y": FLOAT32}, DEFAULT_MODES)
    merge(frame, _branches(frame, {"y": x}, {}))
    merged = frame.names["y"]
    assert type(merged) is Symbolic
    (var,) = merged.variables
    for member in var.domain:
        assert merged.at({var: member}).dtypes == member.dtypes | {"float32"}


def test_a_mode_one_branch_switches_is_the_mode_after_but_not_for_sure() -> None:
    frame = Frame({}, DEFAULT_MODES)
    switched = frame.copy()
    switched.ctx = Context(x64=True, x64_by=X64_BY_CODE)
    merge(frame, [switched, frame.copy()])
    assert frame.ctx.x64 and frame.ctx.x64_by == X64_BY_DEFAULT


def test_a_forced_mode_stays_whatever_a_branch_does() -> None:
    forced = Context(x64=False, x64_by=X64_BY_USER)
    frame = Frame({}, forced)
    switched = frame.copy()
    switched.ctx = Context(x64=True, x64_by=X64_BY_CODE)
    merge(frame, [switched, frame.copy()])
    assert not frame.ctx.x64 and frame.ctx.x64_by == X64_BY_USER

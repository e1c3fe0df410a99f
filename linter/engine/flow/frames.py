"""The state that flows through statements, and how branches merge it."""

from __future__ import annotations

from dataclasses import dataclass, field

from promolint.engine.context import Context
from promolint.engine.symbolic import join
from promolint.engine.values import UNKNOWN, Value

_ABSENT = object()  # a name a branch does not bind


@dataclass
class Frame:
    """Variables and the JAX modes in force at a point of a program; ``returns`` collects what
    the function's ``return`` statements give."""

    names: dict[str, Value]
    ctx: Context
    returns: list[Value] = field(default_factory=list)
    in_function: bool = False

    def copy(self) -> Frame:
        return Frame(dict(self.names), self.ctx, self.returns, self.in_function)


def merge(frame: Frame, branches: list[Frame]) -> None:
    """``frame`` becomes what holds after any of ``branches``: each name's value is the first
    branch's where every branch kept that very value (the common case, found without comparing
    values), else the join of all; the modes stay where the branches disagree."""
    first = branches[0].names
    differing = set()
    for branch in branches[1:]:
        names = branch.names
        if names is first:
            continue
        for name, value in names.items():
            if first.get(name, _ABSENT) is not value:
                differing.add(name)
        differing.update(name for name in first.keys() - names.keys() if first[name] is not UNKNOWN)
    merged = dict(first)
    for name in differing:
        merged[name] = join([b.names.get(name, UNKNOWN) for b in branches])
    frame.names.clear()
    frame.names.update(merged)
    frame.ctx = branches[0].ctx if all(b.ctx == branches[0].ctx for b in branches) else frame.ctx

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
    values), else the join of all; the modes are merged by ``_merged_modes``."""
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
    frame.ctx = _merged_modes(frame.ctx, [b.ctx for b in branches])


def _merged_modes(entry: Context, modes: list[Context]) -> Context:
    """The modes after branches: theirs when they agree; else the modes the switching branches
    agree on (``if args.x64: jax.config.update("jax_enable_x64", True)``: the code goes on in
    the mode it asked for, as every path that switched does); the entry's when those disagree.
    A frame holds one set of modes: the path that did not switch is not followed apart."""
    if all(m == modes[0] for m in modes):
        return modes[0]
    switched = {m for m in modes if m != entry}
    return switched.pop() if len(switched) == 1 else entry

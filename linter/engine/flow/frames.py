"""The state that flows through statements, and how branches merge it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from promolint.engine.context import X64_BY_DEFAULT, X64_BY_USER, Context
from promolint.engine.symbolic import join
from promolint.engine.symbolic.choice import Split, join_or_none
from promolint.engine.values import UNKNOWN, Elements, Items, Keyed, Value

_ABSENT = object()  # a name a branch does not bind


@dataclass
class Frame:
    """Variables and the JAX modes in force at a point of a program; ``returns`` collects what
    the function's ``return`` statements give."""

    names: dict[str, Value]
    ctx: Context
    returns: list[Value] = field(default_factory=list)
    in_function: bool = False
    inputs: tuple[tuple[str, Value], ...] = ()  # a function's parameters as its body got them
    # The names of the functions a nested function is defined in, innermost first: what its
    # body reads of them (a closure reads a variable when it runs, so these are the frames' own).
    enclosing: tuple[dict[str, Value], ...] = ()
    # A function's dicts and lists given as arguments, changed in place by its body: the caller's
    # object changes too (``ChangedInputs``); shared by the frames of its branches.
    changed: ChangedInputs | None = None
    # Inside a ``try`` body: the states its branches that end in ``raise`` leave in, where a
    # handler may start (``Flow.attempt``); shared by the frames of its branches.
    raised: list[Frame] | None = None

    def copy(self) -> Frame:
        return Frame(dict(self.names), self.ctx, self.returns, self.in_function, self.inputs, self.enclosing,
                     self.changed, self.raised)  # fmt: skip

    def lookup(self, name: str) -> Value | None:
        """A local name's value, else that of the innermost enclosing function that binds it."""
        if name in self.names:
            return self.names[name]
        for scope in self.enclosing:
            if name in scope:
                return scope[name]
        return None

    def changed_in_place(self, container: Value, after: Value) -> None:
        """``container`` (a dict or list) was changed in place (``d[k] = v``, ``d.update(...)``)
        through one name, and becomes ``after`` there: every other name holding that very value
        may be the same object (``st = state``, a loop's variable) or only an equal one (a memoized
        call's result), so each holds either afterwards."""
        joined = None
        for name, value in self.names.items():
            if value is container:
                joined = join([container, after]) if joined is None else joined
                self.names[name] = joined
        if self.changed is not None:
            self.changed.note(container, after, joined)


class ChangedInputs:
    """The containers a function's body got as arguments (its parameters' dicts and lists) that
    it changes in place, each with what it holds after the latest change: the caller's names
    that hold the object they passed hold that too, or still the old value (``Frame.
    changed_in_place``).  A change is through the object itself or one of its versions since (a
    name holding it after an earlier change, or the join of both)."""

    def __init__(self, inputs: tuple[tuple[str, Value], ...]) -> None:
        self._versions: dict[int, tuple[str, Value]] = {}  # (the parameter, the version kept alive)
        for name, value in inputs:
            if isinstance(value, (Keyed, Items, Elements)):
                self._versions.setdefault(id(value), (name, value))
        self.after: dict[str, Value] = {}

    def note(self, container: Value, after: Value, joined: Value | None) -> None:
        version = self._versions.get(id(container))
        if version is None or version[1] is not container:
            return
        name = version[0]
        self.after[name] = after
        for value in (after, joined):
            if value is not None:
                self._versions[id(value)] = (name, value)


def merge(frame: Frame, branches: list[Frame], split: Split | None = None) -> None:
    """``frame`` becomes what holds after any of ``branches``: each name's value is the first
    branch's where every branch kept that very value (the common case, found without comparing
    values), else the join of all (chosen by the ``split``, where whether a variable is None
    tells the branches apart); the modes are merged by ``merged_modes``."""
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
        values = [b.names.get(name, UNKNOWN) for b in branches]
        merged[name] = join_or_none(values) if split is None else split.merged(values)
    frame.names.clear()
    frame.names.update(merged)
    frame.ctx = merged_modes(frame.ctx, [b.ctx for b in branches])


def merged_modes(before: Context, after: list[Context]) -> Context:
    """The modes after branches that may leave them differently: theirs when they agree.  A mode
    they disagree on is the one the switching branches agree on (``if args.x64:
    jax.config.update("jax_enable_x64", True)``: the code goes on in the mode it asked for, as
    every path that switched does), else the entry's; an x64 mode so merged is not known for
    sure.  A frame holds one set of modes: the path that did not switch is not followed apart."""
    first = after[0]
    if all(ctx == first for ctx in after[1:]):
        return first

    def agreed(name: str) -> object:
        settings = {getattr(ctx, name) for ctx in after}
        if len(settings) == 1:
            return settings.pop()
        switched = settings - {getattr(before, name)}
        return switched.pop() if len(switched) == 1 else getattr(before, name)

    if before.x64_by == X64_BY_USER:  # forced: a branch only the other mode runs is dead code
        x64, by = before.x64, X64_BY_USER
    elif len({ctx.x64 for ctx in after}) == 1:
        bys = {ctx.x64_by for ctx in after}
        x64, by = first.x64, bys.pop() if len(bys) == 1 else X64_BY_DEFAULT
    else:
        x64, by = agreed("x64"), X64_BY_DEFAULT
    return replace(before, x64=x64, x64_by=by, strict=agreed("strict"), explicit_x64=agreed("explicit_x64"))

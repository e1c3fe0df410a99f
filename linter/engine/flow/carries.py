"""A loop's carry against what its body returns, and branches' outputs against each other.

JAX requires a loop's body to return its carry with the structure and dtypes it received, weak
flags aside (a weak leaf that comes back with another dtype is promoted, and the body traced
again), and branches to return one structure and the same dtypes.  ``Match`` compares two
pytrees leaf by leaf; ``decided`` says what a loop gives or raises once both traces are known.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.engine import operations
from promolint.engine.context import Context
from promolint.engine.flow.trees import leaves, rebuild, sorted_entries
from promolint.engine.symbolic import Symbolic
from promolint.engine.symbolic import outcomes as outcomes_of
from promolint.engine.values import UNKNOWN, Array, Items, Keyed, Library, Reference, Refusal, Value, is_none, join

# The reasons of the refusals lax's control flow makes (``promolint.engine.flow.control``): rules
# tell them from those of the operations inside the bodies.
CARRY = "carry"
BRANCHES = "branches"
PREDICATE = "predicate"


def _shape_of(value: Value) -> object:
    """A pytree's structure: tuples and lists by kind and length, dicts by their keys, ``None``,
    leaves."""
    if isinstance(value, Items):
        return (value.is_tuple, tuple(_shape_of(item) for item in value.items))
    if isinstance(value, Keyed):
        return tuple((key, _shape_of(member)) for key, member in sorted_entries(value) or ())
    return None if is_none(value) else "leaf"


def _paths(value: Value, prefix: str = "") -> list[str]:
    if isinstance(value, Items):
        return [path for i, item in enumerate(value.items) for path in _paths(item, f"{prefix}[{i}]")]
    if isinstance(value, Keyed):
        return [path for key, item in sorted_entries(value) or () for path in _paths(item, f"{prefix}[{key!r}]")]
    return [] if is_none(value) else [prefix]


def _settled(leaf: Value) -> Value:
    """A symbolic leaf as the join of what it is at every assignment of its variables where the
    program goes on: two leaves whose joins share no dtype differ whatever the variables are."""
    if type(leaf) is not Symbolic:
        return leaf
    outcomes = outcomes_of(leaf)
    exact = [outcome for _, outcome in outcomes or () if not isinstance(outcome, Refusal)]
    return join(exact) if outcomes is not None and exact else UNKNOWN


def pinned(value: Value) -> Value:
    """A traced carry or operand whose symbolic leaves have one dtype and weak flag whatever their
    variables are (``jnp.asarray(x, jnp.float32)``) with those leaves as that exact value: the
    body then computes exactly from them."""
    found = leaves(value)
    if found is None or not any(type(leaf) is Symbolic for leaf in found):
        return value
    settled = [_settled(leaf) for leaf in found]
    return rebuild(value, [new if isinstance(new, Array) and new.exact else old for old, new in zip(found, settled)])


def _exact_leaves(value: Value) -> list[Value] | None:
    """The leaves, symbolic ones settled (``_settled``)."""
    found = leaves(value)
    return [_settled(leaf) for leaf in found] if found is not None else None


def where(path: str) -> str:
    return f" at {path}" if path else ""


class Match:
    """How the leaves of two pytrees compare: the positions where they differ for sure, where
    the received one is weak and differs (JAX may promote it), and where the engine cannot tell.
    Candidate sets differ for sure when they share no dtype."""

    def __init__(self, received: Value, returned: Value):
        self.structure_differs = False
        self.undecided = False
        self.differ: list[tuple[str, Array, Array]] = []
        self.promote: list[int] = []
        self.unknown: set[int] = set()
        got, back = _exact_leaves(received), _exact_leaves(returned)
        if got is None or back is None:
            self.undecided = True
            self.differ = _known_differences(received, returned)
            return
        if _shape_of(received) != _shape_of(returned):
            # Only arrays are leaves for sure: anything else (an object, an unknown) may be a pytree.
            if all(isinstance(leaf, Array) for leaf in got + back):
                self.structure_differs = True
            else:
                self.undecided = True
            return
        for index, (path, a, b) in enumerate(zip(_paths(received), got, back)):
            if not (isinstance(a, Array) and a.dtypes and isinstance(b, Array) and b.dtypes):
                self.unknown.add(index)
            elif a.dtypes & b.dtypes:
                if a.dtype is None or b.dtype is None:
                    self.unknown.add(index)  # the same dtype, or not
            elif a.weak is False:
                self.differ.append((path, a, b))
            elif a.weak and a.dtype and b.dtype:
                self.promote.append(index)
            else:
                self.unknown.add(index)


def _known_differences(received: Value, returned: Value, path: str = "") -> list[tuple[str, Array, Array]]:
    """Where two pytrees whose leaves are not all known (an unknown value in them may be a
    pytree itself) differ for sure: strong leaves of different dtypes at the same place of the
    tuples, lists and dicts around them, which an unknown part beside them does not move."""
    if isinstance(received, Items) and isinstance(returned, Items):
        if received.is_tuple != returned.is_tuple or len(received.items) != len(returned.items):
            return []
        pairs = [(f"{path}[{i}]", a, b) for i, (a, b) in enumerate(zip(received.items, returned.items))]
    elif isinstance(received, Keyed) and isinstance(returned, Keyed):
        got, back = sorted_entries(received), sorted_entries(returned)
        if got is None or back is None or [k for k, _ in got] != [k for k, _ in back]:
            return []
        pairs = [(f"{path}[{key!r}]", a, b) for (key, a), (_, b) in zip(got, back)]
    else:
        a, b = _settled(received), _settled(returned)
        known = isinstance(a, Array) and a.dtypes and isinstance(b, Array) and b.dtypes
        return [(path, a, b)] if known and a.weak is False and not a.dtypes & b.dtypes else []  # type: ignore[union-attr]
    return [found for place, a, b in pairs for found in _known_differences(a, b, place)]


def promoted(carry: Value, returned: Value, positions: list[int], ctx: Context) -> Value:
    """The carry JAX traces again: each weak leaf at ``positions`` converted to the strong dtype
    it promotes to with what the body returned there."""
    got, back = _exact_leaves(carry) or [], _exact_leaves(returned) or []
    new: list[Value] = list(leaves(carry) or [])
    for index in positions:
        outcome = operations.collect(operations.promote([got[index], back[index]], Library.JAX, ctx), Library.JAX)
        if isinstance(outcome, Refusal):
            return outcome
        new[index] = replace(got[index], dtypes=outcome.dtypes, weak=False) if isinstance(outcome, Array) else UNKNOWN
    return rebuild(carry, new)


def _carry_refusal(what: str, match: Match) -> Refusal:
    if match.structure_differs:
        return Refusal("TypeError", f"{what}'s body returns its carry in another structure than it received "
                       "(tuple or list, length): JAX requires the same pytree structure.", CARRY)  # fmt: skip
    path, received, returned = match.differ[0]
    return Refusal("TypeError", f"{what}'s body returns its carry{where(path)} as {returned.describe()} where it "
                   f"received {received.describe()}: JAX requires the carry to keep its dtype.", CARRY)  # fmt: skip


def forwarded(init: Value, carry: Value, raw: Value, returned: Value, again: Callable[[Value], Value]) -> list[Value]:
    """The loop's result leaves.  JAX hands back a carry leaf the body returns unchanged as the
    initial value itself (a Python float stays one); that matters where the initial value is
    not JAX's.  The body returned it unchanged when it gave back the very value it received;
    one equal to it may be a new value computed alike (``c + 1``) or the same one from a
    memoized call: ``again`` runs the body, unrecorded, with a value nothing else can be at
    those places, and they are unchanged where it comes back."""
    initial, given, out, back = leaves(init) or [], leaves(carry) or [], leaves(raw) or [], leaves(returned) or []
    result = list(back)
    unsure = []
    for index, (first, received, value) in enumerate(zip(initial, given, out)):
        if isinstance(first, Array) and first.library is Library.JAX:
            continue
        if value is received:
            result[index] = first
        elif value == received:
            unsure.append(index)
    if unsure:
        markers: dict[int, Reference] = {}  # its identity, unique while the probe runs, tells this loop from others
        markers.update((index, Reference(f"<carry leaf {index} of loop {id(markers)}>")) for index in unsure)
        probed = leaves(again(rebuild(carry, [markers.get(i, leaf) for i, leaf in enumerate(given)])))
        for index, marker in markers.items():
            kept = probed is not None and len(probed) == len(given) and probed[index] == marker
            result[index] = initial[index] if kept else back[index]
    return result


def decided(what: str, carry: Value, returned: Value, carry_again: Value | None,
             returned_again: Value | None) -> Refusal | Match:  # fmt: skip
    """How the body's carry compares with what it received: on the second trace where weak
    leaves were promoted (``carry_again``, None where the body ran once), else on the first."""
    match = Match(carry, returned)
    if match.promote and not match.structure_differs and carry_again is not None:
        match = Match(carry_again, returned_again)
        match.differ += weak_differences(carry_again, returned_again, match)
    if match.structure_differs or match.differ:
        return _carry_refusal(what, match)
    return match


def weak_differences(first: Value, other: Value, match: Match) -> list[tuple[str, Array, Array]]:
    """Branches are never promoted: a weak leaf of the first branch that differs in dtype raises."""
    got, back, paths = _exact_leaves(first) or [], _exact_leaves(other) or [], _paths(first)
    found = [(paths[i], got[i], back[i]) for i in match.promote]
    match.promote = []
    return found  # type: ignore[return-value]

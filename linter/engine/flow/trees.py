"""Pytrees: the leaves of a value whose structure is known (tuple and list displays, dicts with
literal keys, nested), and a value rebuilt from new leaves in the same structure.  JAX flattens a
dict in the order of its sorted keys."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from promolint.engine.values import UNKNOWN, Elements, Items, Keyed, Refusal, Unknown, Value, is_none


def sorted_entries(value: Keyed) -> list[tuple[object, Value]] | None:
    """A dict's entries in JAX's order, its keys sorted; None where they do not sort."""
    try:
        return sorted(value.entries, key=lambda entry: entry[0])  # type: ignore[arg-type,return-value]
    except TypeError:
        return None


def children(value: Value) -> list[Value] | None:
    """A tuple's, list's or dict's members in JAX's order; None for anything else."""
    if isinstance(value, Items):
        return list(value.items)
    if isinstance(value, Keyed):
        entries = sorted_entries(value)
        return [member for _, member in entries] if entries is not None else None
    return None


def leaves(value: Value) -> list[Value] | None:
    """The leaves in order: a tuple's, list's or dict's, recursively; ``None`` has none; any other
    value is one leaf.  None when the structure is not known (an unknown value, ``x.shape``)."""
    if isinstance(value, (Items, Keyed)):
        members = children(value)
        if members is None:
            return None
        out: list[Value] = []
        for item in members:
            inner = leaves(item)
            if inner is None:
                return None
            out += inner
        return out
    if is_none(value):
        return []
    if isinstance(value, (Unknown, Elements, Refusal)):
        return None
    return [value]


def unknown_leaf(tree: Value) -> Value:
    """What a leaf of ``tree`` is when its structure is not known: an element of ``x.shape`` is a
    Python int; any other leaf is unknown (the place for a dtype variable)."""
    if isinstance(tree, Elements):
        return tree.element
    return UNKNOWN


def rebuild(template: Value, values: Sequence[Value]) -> Value:
    """``template`` with its leaves (``leaves(template)``, in order) replaced by ``values``."""
    return _rebuild(template, iter(values))


def _rebuild(template: Value, values: Iterator[Value]) -> Value:
    if isinstance(template, Items):
        return Items(tuple(_rebuild(item, values) for item in template.items), template.is_tuple)
    if isinstance(template, Keyed):
        return Keyed(tuple((key, _rebuild(member, values)) for key, member in sorted_entries(template) or ()))
    if is_none(template):
        return template
    return next(values)

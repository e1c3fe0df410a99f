"""Pytrees: the leaves of a value whose structure is known (tuple and list displays, nested),
and a value rebuilt from new leaves in the same structure."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from promolint.engine.values import UNKNOWN, Elements, Items, Reference, Refusal, Unknown, Value


def is_none(value: Value | None) -> bool:
    return isinstance(value, Reference) and value.qualname == "builtins.None"


def leaves(value: Value) -> list[Value] | None:
    """The leaves in order: a tuple's or list's, recursively; ``None`` has none; any other value
    is one leaf.  None when the structure is not known (an unknown value, ``x.shape``)."""
    if isinstance(value, Items):
        out: list[Value] = []
        for item in value.items:
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
    if is_none(template):
        return template
    return next(values)

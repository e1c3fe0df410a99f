"""Dicts with literal keys, and lists a variable holds: what storing an item, a display and a
method that changes them do.

The engine follows a dict whose keys are string or integer literals entry by entry, and a list
a variable holds item by item; a key it cannot read, or a change it cannot follow, makes the
container unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from promolint.engine.calls import as_traced
from promolint.engine.catalog import LIST_MUTATORS
from promolint.engine.context import Context
from promolint.engine.values import NONE, UNKNOWN, Array, Elements, Items, Keyed, Unknown, Value, join

SPREAD = object()  # the key of a ``**other`` entry of a dict display


def stored(container: Value, key: object, value: Value, named: bool) -> Value | None:
    """The container after ``container[key] = value`` (``key``: the index's literal, None when
    it is none): a dict with literal keys gets the entry, any other key makes it unknown.  A
    list a variable holds (``named``; see ``mutated``) gets the item at a literal position of a
    display, stays a list of unknown length where the item is what it holds already, and is no
    longer followed otherwise.  None when the container is not one the engine follows."""
    if isinstance(container, Keyed):
        return container.with_entry(key, value) if followed(key) else UNKNOWN
    if not named:
        return None
    if isinstance(container, Items):
        if type(key) is int and -len(container.items) <= key < len(container.items) and not container.is_tuple:
            items = list(container.items)
            items[key] = value
            return Items(tuple(items))
        return UNKNOWN
    if isinstance(container, Elements):
        return container if container.element == value else UNKNOWN
    return None


def dict_display(entries: Sequence[tuple[object, Value]]) -> Value:
    """``{k: v, **other}``: each key its literal (None when it is none, ``SPREAD`` for a
    ``**`` entry) with its value."""
    result = Keyed(())
    for key, value in entries:
        if key is SPREAD:
            if not isinstance(value, Keyed):
                return UNKNOWN
            for k, v in value.entries:
                result = result.with_entry(k, v)
        elif followed(key):
            result = result.with_entry(key, value)
        else:
            return UNKNOWN
    return result


def mutated(container: Value, method: str, named: bool) -> bool:
    """Whether calling ``container.method(...)`` changes a dict the engine follows, or a list a
    variable holds (``named``).  A list an attribute holds is left alone: its class's methods are
    run again until what they read settles, and a list unknown once no longer says it changes."""
    return (isinstance(container, Keyed) and method in DICT_MUTATORS
            or named and isinstance(container, (Items, Elements)) and method in LIST_MUTATORS)  # fmt: skip


DICT_METHODS = frozenset({"items", "values", "keys", "get", "copy"})
DICT_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear"})


def followed(key: object) -> bool:
    """A dict key the engine follows: a string or an integer literal."""
    return type(key) is str or type(key) is int


def dict_call(args: Sequence[Value], kwargs: Mapping[str, Value]) -> Value:
    """``dict(w=..., b=...)``, ``dict(other, w=...)``."""
    if len(args) > 1 or (args and not isinstance(args[0], Keyed)):
        return UNKNOWN
    result = args[0] if args else Keyed(())
    for key, value in kwargs.items():
        result = result.with_entry(key, value)
    return result


def device_put(value: Value, ctx: Context) -> Value:
    """``jax.device_put(tree)``: the same pytree, its leaves JAX arrays as ``jnp.asarray`` makes
    them (a list stays a list of arrays)."""
    if isinstance(value, Keyed):
        entries = tuple((k, device_put(v, ctx)) for k, v in value.entries)
        return UNKNOWN if any(isinstance(v, Unknown) for _, v in entries) else Keyed(entries)
    if isinstance(value, (Array, Items)):
        return as_traced(value, ctx)
    return UNKNOWN


def dict_method(container: Keyed, method: str, args: Sequence[Value]) -> Value:
    """``d.values()``, ``d.items()`` (iterated: keys unknown, values their join), ``d.copy()``,
    ``d.get(i)`` with an integer literal, ``d.get(k, default)`` with any other key (one of the
    values or the default, None where none is given: their join)."""
    values = [v for _, v in container.entries]
    if method == "values":
        return Elements(join(values)) if values else UNKNOWN
    if method == "items":
        return Elements(Items((UNKNOWN, join(values)), is_tuple=True)) if values else UNKNOWN
    if method == "copy":
        return container
    if method == "get" and args and isinstance(args[0], Array) and type(args[0].literal) is int:
        found = container.get(args[0].literal)
        if found is None:
            return UNKNOWN
        return found if len(args) == 1 else join([found, args[1]])
    if method == "get" and 1 <= len(args) <= 2 and values:
        return join([*values, args[1] if len(args) == 2 else NONE])
    return UNKNOWN

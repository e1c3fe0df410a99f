"""What a class definition says: its kind, how its methods are called, its fields.

A class is plain, an enumeration, or dataclass-like (``@dataclass``, flax ``nn.Module``, equinox
``Module``, ``NamedTuple``), by its bases and decorators; a method is an instance, class or
static method or a property, by its decorators, which may keep what its body computes or not.
These are the records ``promolint.engine.flow.objects`` keeps of the program's classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from promolint.engine.catalog import COPY_METHODS
from promolint.engine.flow.higher_order import TRANSPARENT, keeps_body
from promolint.engine.values import UNKNOWN, Array, Function, Library, Reference, Value

# How a class gets dataclass fields: a base (flax, equinox, NamedTuple) or a decorator.
FIELD_BASES = MappingProxyType({
    "flax.linen.Module": "flax", "flax.linen.module.Module": "flax", "flax.struct.PyTreeNode": "dataclass",
    "equinox.Module": "equinox", "typing.NamedTuple": "namedtuple", "typing_extensions.NamedTuple": "namedtuple",
})  # fmt: skip
DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass",
                                  "jax_dataclasses.pytree_dataclass"})
# A function these decorate makes dataclasses of the classes it decorates (PEP 681: pgx's and
# probdiffeq's copies of flax.struct.dataclass), as type checkers read it.
DATACLASS_TRANSFORMS = frozenset({"typing.dataclass_transform", "typing_extensions.dataclass_transform"})
# Enumerations: what a class body binds is a member (`Face.UP.value` is the int), not the value.
ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag", "enum.StrEnum"})
# Bases that define no attribute a subclass could read or assign differently.
PLAIN_BASES = frozenset({"builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing.Any"})
# Class decorators that return the class itself (others may return anything).
KEEP_CLASS = DATACLASS_DECORATORS | {
    "jax.tree_util.register_pytree_node_class", "jax.tree_util.register_dataclass", "typing.final",
    "functools.total_ordering", "dataclasses.dataclass",
}  # fmt: skip
# Method decorators: how the method is called, and those that keep what its body computes.
_STATIC, _CLASS, _PROPERTY = "builtins.staticmethod", "builtins.classmethod", "builtins.property"
_PROPERTIES = frozenset({_PROPERTY, "functools.cached_property"})
_KEEP_METHOD = TRANSPARENT | {"flax.linen.compact", "flax.linen.nowrap", "flax.linen.module.compact",
                              "abc.abstractmethod", "typing.override"}  # fmt: skip
# ``field(default=...)`` of these gives the field its default; other arguments say nothing of it.
FIELD_FUNCTIONS = frozenset({"dataclasses.field", "flax.struct.field", "equinox.field", "chex.field"})
# The fields flax's Module has of its own: given to the constructor, never array values.
FLAX_OWN = frozenset({"parent", "name"})


@dataclass(frozen=True)
class Method:
    function: Function
    kind: str  # "instance", "class", "static", "property"
    keeps_body: bool  # its decorators keep what its body computes: calls of it can be evaluated


@dataclass(frozen=True)
class FieldCall(Value):
    """``dataclasses.field(default=...)`` in a class body: a field's declaration, not a value
    the program computes with (the class attribute ``@dataclass`` leaves is its default)."""

    default: Value | None
    factory: bool = False
    init: bool = True  # False: ``field(init=False)``, which the constructor does not take


@dataclass(frozen=True)
class FieldSpec:
    """An annotated field of a dataclass-like class: the value its annotation says, and its
    default (None: it has none; UNKNOWN: one the engine cannot follow, ``default_factory``)."""

    name: str
    annotation: Value
    default: Value | None
    init: bool = True

    @staticmethod
    def declared(name: str, annotation: Value, value: Value | None) -> FieldSpec:
        """The field ``name: annotation [= value]`` of a class body."""
        if isinstance(value, FieldCall):
            default = value.default if value.default is not None else UNKNOWN if value.factory else None
            return FieldSpec(name, annotation, default, value.init)
        return FieldSpec(name, annotation, value)


@dataclass
class ClassInfo:
    name: str
    kind: str  # "plain", "dataclass", "flax", "equinox", "namedtuple"
    bases: tuple[int, ...]  # the program's classes among its bases, in order
    opaque: bool  # a base the engine does not know: it may define attributes of its own
    values: dict[str, Value]  # class-level names (not methods)
    methods: dict[str, Method]
    fields: tuple[FieldSpec, ...] = ()
    family: int = 0


def decorated_function(function: Function, decorators: Sequence[str | None]) -> Value:
    """What a ``def`` with these decorators (qualified names) binds its name to: a maker of
    dataclasses for ``typing.dataclass_transform``, the function where they keep what its body
    computes, else unknown."""
    if any(name in DATACLASS_TRANSFORMS for name in decorators):
        return Reference("dataclasses.dataclass")
    return function if keeps_body(decorators) else UNKNOWN


def method_of(function: Function, decorators: Sequence[str | None]) -> Method:
    kind = "instance"
    if _STATIC in decorators:
        kind = "static"
    elif _CLASS in decorators:
        kind = "class"
    elif any(d in _PROPERTIES for d in decorators):
        kind = "property"
    kept = {_STATIC, _CLASS} | _PROPERTIES | _KEEP_METHOD
    return Method(function, kind, all(d in kept for d in decorators))


def replaces(kind: str, method: str) -> bool:
    """Whether ``method`` of an object of a class of ``kind`` is a copy with fields replaced."""
    return method in COPY_METHODS.get(kind, ())


def enum_member(name: str, value: Value) -> bool:
    """Whether an enumeration's class body binding is a member whose value is known: a Python
    scalar (not `auto()`, whose numbering the engine does not follow), not a `_sunder_` name."""
    return not name.startswith("_") and isinstance(value, Array) and value.library is Library.PYTHON and value.exact


def qualname(value: Value) -> str:
    return value.qualname if isinstance(value, Reference) else ""

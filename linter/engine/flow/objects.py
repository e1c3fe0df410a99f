"""Objects of the program's own classes, and dicts with literal keys.

A class is known by what its body defines: methods, class-level values and, for dataclass-like
classes (``@dataclass``, flax ``nn.Module``, equinox ``Module``, ``NamedTuple``), annotated
fields with their defaults.  What an attribute of an object holds is the join of every value the
methods of its class assign to it through ``self`` (``__init__``, flax's ``setup``,
``__post_init__``, classmethods, any other method), of what code outside assigns to it
(``obj.x = ...``), of its class-level value, and, for a field, of what the object was made with.

Classes related by inheritance share one table of assigned attributes (a *family*): a method of
a base class may run on an object of a subclass.  The table is settled, for each JAX mode, the
first time an attribute is read: every method of the family runs once for what it assigns, its
parameters as their annotations say (unknown without one), the initialisers first so that other
methods read what they assign; a method that read a value the pass had not yet assigned in full
runs again (at most ``_MAX_PASSES`` passes; past them the family's attributes are unknown).
Whatever is unsure is unknown: an attribute no method assigns, a class whose table does not
settle, a call of a method whose decorator may change it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from promolint.engine.calls import as_traced
from promolint.engine.catalog import COPY_METHODS, LIST_MUTATORS
from promolint.engine.context import Context
from promolint.engine.flow.modules import Modules
from promolint.engine.flow.functions import Functions
from promolint.engine.flow.higher_order import TRANSPARENT, keeps_body
from promolint.engine.values import (
    UNKNOWN,
    Array,
    Bound,
    Class,
    Elements,
    Function,
    Instance,
    Items,
    Keyed,
    Library,
    Member,
    Reference,
    Refusal,
    Unknown,
    Value,
    join,
)
from promolint.engine.symbolic import attribute_variable, is_symbolic, lowered, settled


def _outside(value: Value) -> Value:
    """What a value computed in a function is to code elsewhere (the class's other methods, other
    objects): a dtype that depends on the function's parameters is unknown there, unless it is
    the same for every dtype they may have where the function goes on (``jnp.zeros(n,
    jnp.int32)`` of an ``n: int``: its rank differs with what ``n`` is, not its dtype)."""
    if not is_symbolic(value):
        return value
    known = settled(value)
    return UNKNOWN if is_symbolic(known) else known


# Methods that assign what the others read: flax runs ``setup`` before any other method.
_INITIALIZERS = ("__new__", "setup", "__init__", "__post_init__")
_MAX_PASSES = 3

# How a class gets dataclass fields: a base (flax, equinox, NamedTuple) or a decorator.
_FIELD_BASES = {
    "flax.linen.Module": "flax", "flax.linen.module.Module": "flax", "flax.struct.PyTreeNode": "dataclass",
    "equinox.Module": "equinox", "typing.NamedTuple": "namedtuple", "typing_extensions.NamedTuple": "namedtuple",
}  # fmt: skip
_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})
# A function these decorate makes dataclasses of the classes it decorates (PEP 681: pgx's and
# probdiffeq's copies of flax.struct.dataclass), as type checkers read it.
_DATACLASS_TRANSFORMS = frozenset({"typing.dataclass_transform", "typing_extensions.dataclass_transform"})
# Enumerations: what a class body binds is a member (`Face.UP.value` is the int), not the value.
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag", "enum.StrEnum"})
# Bases that define no attribute a subclass could read or assign differently.
_PLAIN_BASES = frozenset({"builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing.Any"})
# Class decorators that return the class itself (others may return anything).
_KEEP_CLASS = _DATACLASS_DECORATORS | {
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
_FLAX_OWN = frozenset({"parent", "name"})


class Host(Protocol):
    """What objects need of the flow (``promolint.engine.flow.flow.Flow``)."""

    recording: bool
    functions: Functions
    modules: Modules


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


@dataclass
class _Table:
    """The attributes a family's methods assign, settled in one mode."""

    values: dict[str, Value] = field(default_factory=dict)
    settling: bool = False
    passed: dict[str, Value] = field(default_factory=dict)  # the previous pass's values, while settling
    reads: list[tuple[str, Value]] = field(default_factory=list)  # what the current pass read
    opaque: bool = False  # it did not settle, or read a family still settling: every attribute unknown


class Objects:
    def __init__(self, flow: Host):
        self._flow = flow
        self._classes: list[ClassInfo] = []
        self._tables: dict[tuple[int, Context], _Table] = {}
        self._external: dict[tuple[int, str], Value] = {}  # family, attribute -> joined outside assignments
        # family, field -> what objects were made with, by the function whose recording made them
        # (None: the module's top level), so that what a recording made from a guess can be
        # forgotten (``Functions.read_fact``); a field holds their join (``_made``).
        self._made_by: dict[tuple[int, str], dict[object, Value]] = {}
        flow.functions.on_record_again(self._unmake)
        self._settling: list[tuple[int, Context]] = []
        self.widened: set[int] = set()  # families whose attributes code outside widened
        self._unfollowed: set[int] = set()  # families whose attributes code sets by name: all unknown
        self._members_of: dict[int, list[int]] = {}
        self._index: dict[int, int] = {}  # id of a class statement's handle -> its class
        self._descent: dict[tuple[int, int], bool] = {}

    def methods_of(self, families: set[int]) -> list[int]:
        """The function keys of the methods of ``families``' classes."""
        return [m.function.key for info in self._classes if info.family in families for m in info.methods.values()]

    # --- classes ---------------------------------------------------------------------------
    def define(self, handle: object, name: str, bases: Sequence[Value], decorators: Sequence[str | None],
               values: Mapping[str, Value], methods: Sequence[tuple[str, Function, Sequence[str | None]]],
               fields: Sequence[FieldSpec], hidden: bool = False) -> Value:  # fmt: skip
        """A class statement (``handle``: the front end's node): its bases' values, its
        decorators (qualified names), the values its body binds, its methods (name, function,
        decorators) and annotated names in order; ``hidden``: its body may define methods not
        among them (under an ``if``).  Returns what the class's name is bound to (unknown when a
        decorator may replace it).  A class statement run again (in a function called twice) is
        the same class: its class-level values join."""
        key = self._index.get(id(handle))
        if key is not None:
            info = self._classes[key]
            for value_name in info.values.keys() | values.keys():
                joined = join([info.values.get(value_name, UNKNOWN), _outside(values.get(value_name, UNKNOWN))])
                if joined != info.values.get(value_name):
                    info.values[value_name] = joined
                    self._flow.functions.forget()
            return Class(key) if all(d in _KEEP_CLASS for d in decorators) else UNKNOWN
        key = self._index[id(handle)] = len(self._classes)
        self._members_of.clear()
        program = tuple(b.cls for b in bases if isinstance(b, Class))
        kinds = [self._classes[b].kind for b in program] + [
            "enum" if _qualname(b) in _ENUM_BASES else _FIELD_BASES.get(_qualname(b), "") for b in bases]
        kind = next((k for k in kinds if k and k != "plain"), "")
        if not kind:
            kind = "dataclass" if any(d in _DATACLASS_DECORATORS for d in decorators) else "plain"
        opaque = any(self._classes[b].opaque for b in program) or any(
            not isinstance(b, Class) and _qualname(b) not in _PLAIN_BASES and _qualname(b) not in _FIELD_BASES
            for b in bases)  # fmt: skip
        values = {n: (v.default or UNKNOWN) if isinstance(v, FieldCall) else v for n, v in values.items()}
        if kind == "enum":  # its members are no values the engine models, but their `.value`s are
            values = {n: Member(v) if _enum_member(n, v) else UNKNOWN for n, v in values.items()}
        info = ClassInfo(name, kind, program, opaque, {n: _outside(v) for n, v in values.items()}, {}, family=key)
        for method_name, function, method_decorators in methods:
            info.methods[method_name] = _method(function, method_decorators)
        if kind != "plain":
            inherited = [f for b in program for f in self._classes[b].fields]
            own = {f.name for f in fields}
            info.fields = tuple(f for f in inherited if f.name not in own) + tuple(fields)
        self._classes.append(info)
        if not self._flow.modules.current.depth:
            # Another module's class stays a family of its own: settling one of this module's
            # families runs its bases' methods, never those of every class a loaded module defines.
            self._join_families(key, program)
        if hidden:
            self._unfollow(info.family)
        functions = self._flow.functions
        for method in info.methods.values():
            if method.kind == "instance" or method.kind == "property":
                functions.set_receiver(method.function.key, Instance(key, exact=False))
            elif method.kind == "class":
                functions.set_receiver(method.function.key, Class(key))
        if all(d in _KEEP_CLASS for d in decorators):
            return Class(key)
        return UNKNOWN

    def _join_families(self, key: int, bases: tuple[int, ...]) -> None:
        families = {self._classes[b].family for b in bases}
        if not families:
            return
        root = min(families)
        if families & self._unfollowed:
            self._unfollowed.add(root)
        for info in self._classes:
            if info.family in families:
                info.family = root
        self._classes[key].family = root
        self._invalidate(families)  # tables settled without this class's methods

    def _invalidate(self, families: set[int]) -> None:
        stale = [k for k in self._tables if k[0] in families and not self._tables[k].settling]
        for k in stale:
            del self._tables[k]
        if stale:
            self._flow.functions.forget()

    def _members(self, family: int) -> list[int]:
        members = self._members_of.get(family)
        if members is None:
            members = self._members_of[family] = [k for k, info in enumerate(self._classes) if info.family == family]
        return members

    def _lookup_class(self, cls: int, name: str, what: str) -> tuple[int, object] | None:
        """``name`` among the methods or class values (``what``) of ``cls`` and its bases, in
        method resolution order (depth first, enough for the program's own hierarchies)."""
        info = self._classes[cls]
        table = info.methods if what == "methods" else info.values
        if name in table:
            return cls, table[name]
        for base in info.bases:
            found = self._lookup_class(base, name, what)
            if found is not None:
                return found
        return None

    # --- reading ---------------------------------------------------------------------------
    def _candidates(self, instance: Instance) -> list[int]:
        """The classes an object may be of: its own, or for ``self`` its class and the
        program's subclasses of it."""
        if instance.exact:
            return [instance.cls]
        family = self._classes[instance.cls].family
        return [k for k in self._members(family) if self._descends(k, instance.cls)]

    def _descends(self, cls: int, ancestor: int) -> bool:
        key = (cls, ancestor)
        found = self._descent.get(key)
        if found is None:  # a class's bases never change: memoized
            found = self._descent[key] = cls == ancestor or any(self._descends(b, ancestor)
                                                                  for b in self._classes[cls].bases)  # fmt: skip
        return found

    def attribute(self, base: Value, name: str, ctx: Context) -> Value | None:
        """``base.name`` when ``base`` is an object, a class or a dict of the program; else None."""
        if isinstance(base, Member):
            return base.value if name == "value" else UNKNOWN
        if isinstance(base, Keyed):
            return Bound(base, name) if name in _DICT_METHODS or name in _DICT_MUTATORS else UNKNOWN
        if isinstance(base, Class):
            if self._lookup_class(base.cls, name, "methods") is not None:
                return Bound(base, name)
            value = self._lookup_class(base.cls, name, "values")
            return value[1] if value is not None else UNKNOWN
        if not isinstance(base, Instance):
            return None
        candidates = self._candidates(base)
        methods = {self._lookup_class(c, name, "methods") for c in candidates} - {None}
        if methods:
            if len(methods) > 1:
                return UNKNOWN  # overridden in a subclass: which one runs is not known
            method = methods.pop()[1]
            if method.kind == "property":
                return self._call_method(method, base, [], {}, ctx)
            return Bound(base, name)
        info = self._classes[base.cls]
        if _replaces(info.kind, name) or (info.kind, name) == ("flax", "apply"):
            return Bound(base, name)
        parts = []
        has_field = False
        for cls in candidates:
            spec = next((f for f in self._classes[cls].fields if f.name == name), None)
            if spec is not None:
                has_field = True
                parts.append(self._field(base, cls, spec, ctx))
            else:
                value = self._lookup_class(cls, name, "values")
                if value is not None:
                    parts.append(value[1])
        if name == "__dict__":
            self._unfollow(info.family)
        assigned = self._assigned(info.family, name, ctx)
        if assigned is not None:
            parts.append(assigned)
        if not parts or (info.opaque and not has_field and assigned is None):
            return UNKNOWN
        return join(parts)

    def _field(self, instance: Instance, cls: int, spec: FieldSpec, ctx: Context) -> Value:
        """What field ``spec`` of an object of ``cls`` holds (``_typed_field``); where nothing
        types it, for a parameter's object, a variable of its own."""
        value, typed = self._typed_field(instance, cls, spec)
        if typed or instance.origin is None:
            return value
        annotation = spec.annotation
        library = annotation.library if isinstance(annotation, Array) and annotation.library is not Library.PYTHON else None
        return attribute_variable(instance.origin, spec.name, ctx, library)

    def _typed_field(self, instance: Instance, cls: int, spec: FieldSpec) -> tuple[Value, bool]:
        """What field ``spec`` of an object of ``cls`` holds: what it was made with; for
        ``self``, what the program makes objects with, else the default, else what the
        annotation says; and whether any of them types it (what objects are made with is
        unknown, or only the annotation speaks and names no dtype: not typed).  A class with an
        ``__init__`` of its own assigns its fields there: the default is a class attribute until
        then."""
        own = instance.field(spec.name)
        if own is not None:
            return own, True
        if self._lookup_class(cls, "__init__", "methods") is not None:
            return (spec.default if spec.default is not None else UNKNOWN), True
        if not instance.exact:
            key = (self._classes[cls].family, spec.name)
            made = self._made(key)
            self._flow.functions.read_fact(("made", key), made, lambda: self._made(key), self._made_by.get(key, ()))
            if made is not None:
                return made, made is not UNKNOWN
        if spec.default is not None:
            return spec.default, True
        # A field annotated `int` or `float` is a pytree leaf, traced under jit: a JAX array
        # there (gymnax's `paddle_y: int` is int32 in the state), not only a Python scalar.
        annotation = spec.annotation
        if isinstance(annotation, Array) and annotation.library is Library.PYTHON:
            return UNKNOWN, False
        return annotation, not (annotation is UNKNOWN or isinstance(annotation, Array) and not annotation.dtypes)

    def has_untyped_fields(self, instance: Instance) -> bool:
        """Whether an object like ``instance`` has a field nothing types (``_typed_field``): only
        then does a parameter's object keep where it came from (``Instance.origin``), which the
        calls given it are memoized by."""
        return not all(self._typed_field(instance, cls, spec)[1]
                       for cls in self._candidates(instance) for spec in self._classes[cls].fields)  # fmt: skip

    def _assigned(self, family: int, name: str, ctx: Context) -> Value | None:
        """What the family's methods and outside code assign to ``name`` (None: nothing)."""
        table = self._table(family, ctx)
        external = self._external.get((family, name))
        if table.opaque or family in self._unfollowed:
            return UNKNOWN
        if table.settling:
            now, before = table.values.get(name), table.passed.get(name)
            value = now if before is None else before if now is None else join([now, before])
            table.reads.append((name, value))
        else:
            value = table.values.get(name)
        if external is not None:
            value = external if value is None else join([value, external])
        return value

    def _table(self, family: int, ctx: Context) -> _Table:
        key = (family, ctx)
        table = self._tables.get(key)
        if table is not None:
            if table.settling and self._settling and self._settling[-1] != key:
                # Read by another family's settling, while this one settles: that one depends
                # on values not yet settled.
                self._tables[self._settling[-1]].opaque = True
            return table
        table = self._tables[key] = _Table()
        self._settle(family, ctx, table)
        return table

    def _settle(self, family: int, ctx: Context, table: _Table) -> None:
        functions = self._flow.functions
        runs = []
        for cls in self._members(family):
            methods = self._classes[cls].methods
            order = sorted(methods, key=lambda n: _INITIALIZERS.index(n) if n in _INITIALIZERS else len(_INITIALIZERS))
            for name in order:
                method = methods[name]
                if method.kind == "static":
                    continue
                receiver = Class(cls) if method.kind == "class" else Instance(cls, exact=False)
                runs.append((method.function.key, receiver))
        table.settling = True
        self._settling.append((family, ctx))
        try:
            for _ in range(_MAX_PASSES):
                table.passed, table.values, table.reads = table.values, {}, []
                functions.forget()  # results computed from the previous pass's values
                for key, receiver in runs:
                    functions.run_for_effects(key, receiver, ctx)
                if all(table.values.get(name) == value for name, value in table.reads):
                    break
            else:
                table.opaque = True
        finally:
            table.settling = False
            table.passed, table.reads = {}, []
            self._settling.pop()
            functions.forget()

    # --- assigning -------------------------------------------------------------------------
    def assign(self, base: Value, name: str, value: Value, ctx: Context) -> None:
        """``base.name = value``."""
        value = _outside(value)
        if isinstance(base, Class):  # a class attribute, set from outside or in a classmethod
            info = self._classes[base.cls]
            joined = join([info.values[name], value]) if name in info.values else value
            if joined != info.values.get(name):
                info.values[name] = joined
                self.widened.add(info.family)
                self._flow.functions.forget()
            return
        if not isinstance(base, Instance):
            return
        family = self._classes[base.cls].family
        table = self._tables.get((family, ctx))
        if table is not None and table.settling and not base.exact:
            old = table.values.get(name)
            table.values[name] = value if old is None else join([old, value])
            return
        if not base.exact:
            return  # a method analysed on its own: its assignments are in the settled table already
        known = self._assigned(family, name, ctx)
        if known is not None and join([known, value]) == known:
            return
        key = (family, name)
        self._external[key] = value if key not in self._external else join([self._external[key], value])
        self.widened.add(family)
        self._flow.functions.forget()

    def _unfollow(self, family: int) -> None:
        """Code sets attributes of the family's objects by name (``setattr``, ``__dict__``,
        ``vars``): none of them is followed any more."""
        if family not in self._unfollowed:
            self._unfollowed.add(family)
            self.widened.add(family)
            self._flow.functions.forget()

    # --- calling ---------------------------------------------------------------------------
    def call(self, func: Value, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> Value | None:
        """``func(*args, **kwargs)`` for a class of the program (a new object), an object (its
        ``__call__``), a method bound to either, ``dict(...)``; None for anything else."""
        if isinstance(func, Class):
            return self._make(func.cls, args, kwargs, ctx)
        if isinstance(func, Instance):
            method = self._lookup_class(func.cls, "__call__", "methods")
            return self._call_method(method[1], func, args, kwargs, ctx) if method else UNKNOWN
        if isinstance(func, Reference) and func.qualname == "builtins.dict":
            return _dict_call(args, kwargs)
        if isinstance(func, Reference) and func.qualname in FIELD_FUNCTIONS:
            init = kwargs.get("init")
            return FieldCall(kwargs.get("default"), "default_factory" in kwargs,
                             not (isinstance(init, Array) and init.literal is False))  # fmt: skip
        if isinstance(func, Reference) and func.qualname == "dataclasses.replace" and args:
            return self._replace(args[0], kwargs)
        if isinstance(func, Reference) and func.qualname == "jax.device_put" and len(args) == 1 and not kwargs:
            return _device_put(args[0], ctx)
        if isinstance(func, Reference) and func.qualname in _BY_NAME:
            if args and isinstance(args[0], Instance):
                self._unfollow(self._classes[args[0].cls].family)
            return None
        if not isinstance(func, Bound):
            return None
        receiver = func.receiver
        if isinstance(receiver, Keyed):
            return _dict_method(receiver, func.method, args)
        if not isinstance(receiver, (Instance, Class)):
            return None
        found = self._lookup_class(receiver.cls, func.method, "methods")
        if found is not None:
            return self._call_method(found[1], receiver, args, kwargs, ctx)
        if isinstance(receiver, Instance) and _replaces(self._classes[receiver.cls].kind, func.method):
            return self._replace(receiver, kwargs)
        if isinstance(receiver, Instance) and func.method == "apply" and self._classes[receiver.cls].kind == "flax":
            return self._flax_apply(receiver, args, kwargs, ctx)
        return UNKNOWN

    def _call_method(self, method: Method, receiver: Value, args: Sequence[Value], kwargs: Mapping[str, Value],
                     ctx: Context) -> Value:  # fmt: skip
        if not method.keeps_body:
            return UNKNOWN
        if method.kind == "static":
            return self._flow.functions.call(method.function, args, kwargs, ctx)
        if method.kind == "class" and isinstance(receiver, Instance):
            receiver = Class(receiver.cls)
        return self._flow.functions.call(method.function, [receiver, *args], kwargs, ctx)

    def _flax_apply(self, module: Instance, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> Value:
        """``module.apply(variables, *args)`` runs ``module.__call__(*args)`` (another method
        when ``method=`` names one: not followed)."""
        if "method" in kwargs or "mutable" in kwargs or not args:
            return UNKNOWN  # another method, or (output, variables)
        keywords = {k: v for k, v in kwargs.items() if k != "rngs"}
        found = self._lookup_class(module.cls, "__call__", "methods")
        return self._call_method(found[1], module, args[1:], keywords, ctx) if found else UNKNOWN

    def _make(self, cls: int, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> Value:
        """``Cls(*args, **kwargs)``: an object whose fields hold the arguments (dataclass-like
        classes without an ``__init__`` of their own); ``__init__`` runs, for its call sites."""
        info = self._classes[cls]
        init = self._lookup_class(cls, "__init__", "methods")
        fields: tuple[tuple[str, Value], ...] = ()
        if info.kind != "plain" and init is None:
            fields = self._bind_fields(info, args, kwargs)
            self._note_made(info.family, fields)
        instance = Instance(cls, fields)
        if init is not None:
            self._call_method(init[1], instance, args, kwargs, ctx)
        return instance

    def _bind_fields(self, info: ClassInfo, args: Sequence[Value], kwargs: Mapping[str, Value]
                     ) -> tuple[tuple[str, Value], ...]:  # fmt: skip
        specs = [f for f in info.fields if not (info.kind == "flax" and f.name in _FLAX_OWN)]
        bound: dict[str, Value] = {}
        for spec, value in zip([f for f in specs if f.init], args):
            bound[spec.name] = value
        for spec in specs:
            if spec.name in kwargs and spec.init:
                bound[spec.name] = kwargs[spec.name]
            elif spec.name not in bound:
                bound[spec.name] = spec.default if spec.default is not None else spec.annotation
        return tuple(bound.items())

    def _note_made(self, family: int, fields: tuple[tuple[str, Value], ...]) -> None:
        """Objects the program makes tell what ``self``'s fields hold in their methods."""
        if not self._flow.recording:
            return
        changed = False
        source = self._flow.functions.recorded
        for name, value in fields:
            if isinstance(lowered(value), Refusal):
                continue  # it raises whatever the parameters are: no object is made with it
            key, value = (family, name), _outside(value)
            before, by = self._made(key), self._made_by.setdefault(key, {})
            by[source] = value if source not in by else join([by[source], value])
            changed = changed or self._made(key) != before
        if changed:
            self._flow.functions.forget()

    def _made(self, key: tuple[int, str]) -> Value | None:
        """What objects of a family were made with in a field (None: none was made)."""
        by = self._made_by.get(key)
        return join(list(by.values())) if by else None

    def _unmake(self, source: object) -> None:
        """Forget what the recording of ``source`` made objects with (it is recorded again)."""
        for by in self._made_by.values():
            by.pop(source, None)
        self._flow.functions.forget()

    def _replace(self, instance: Value, kwargs: Mapping[str, Value]) -> Value:
        """``obj._replace(x=...)`` / ``dataclasses.replace(obj, x=...)``: the same fields, those
        named replaced; a new object of the class, made with what they are replaced with."""
        if not isinstance(instance, Instance):
            return UNKNOWN
        info = self._classes[instance.cls]
        names = {f.name for f in info.fields}
        if not set(kwargs) <= names:
            return UNKNOWN
        self._note_made(info.family, tuple((name, kwargs[name]) for name in sorted(kwargs)))
        if instance.exact:
            if not instance.fields:
                return UNKNOWN
            return Instance(instance.cls, tuple((n, kwargs.get(n, v)) for n, v in instance.fields))
        # An object of the class or a subclass: the fields not replaced hold what such objects are made with.
        fields = dict(instance.fields) | dict(kwargs)
        return Instance(instance.cls, tuple(fields.items()), exact=False, origin=instance.origin)

    # --- containers ------------------------------------------------------------------------
    def item(self, base: Value, key: object) -> Value | None:
        """``base[key]`` (``key``: the index's literal, None when it is none) for a dict with
        literal keys or a NamedTuple; None for any other base."""
        if isinstance(base, Keyed):
            value = base.get(key) if _followed(key) else None
            return value if value is not None else UNKNOWN
        items = self.as_items(base)
        if items is not None:
            if type(key) is int and -len(items.items) <= key < len(items.items):
                return items.items[key]
            return UNKNOWN
        return None

    def as_items(self, value: Value) -> Items | None:
        """A NamedTuple object as the tuple it is (for indexing and unpacking)."""
        if not isinstance(value, Instance) or self._classes[value.cls].kind != "namedtuple" or not value.fields:
            return None
        return Items(tuple(v for _, v in value.fields), is_tuple=True)


SPREAD = object()  # the key of a ``**other`` entry of a dict display


def stored(container: Value, key: object, value: Value, named: bool) -> Value | None:
    """The container after ``container[key] = value`` (``key``: the index's literal, None when
    it is none): a dict with literal keys gets the entry, any other key makes it unknown.  A
    list a variable holds (``named``; see ``mutated``) gets the item at a literal position of a
    display, stays a list of unknown length where the item is what it holds already, and is no
    longer followed otherwise.  None when the container is not one the engine follows."""
    if isinstance(container, Keyed):
        return container.with_entry(key, value) if _followed(key) else UNKNOWN
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
        elif _followed(key):
            result = result.with_entry(key, value)
        else:
            return UNKNOWN
    return result


def mutated(container: Value, method: str, named: bool) -> bool:
    """Whether calling ``container.method(...)`` changes a dict the engine follows, or a list a
    variable holds (``named``).  A list an attribute holds is left alone: its class's methods are
    run again until what they read settles, and a list unknown once no longer says it changes."""
    return (isinstance(container, Keyed) and method in _DICT_MUTATORS
            or named and isinstance(container, (Items, Elements)) and method in LIST_MUTATORS)  # fmt: skip


# Functions that set or expose an object's attributes by name.
_BY_NAME = frozenset({"builtins.setattr", "builtins.object.__setattr__", "builtins.vars", "builtins.delattr"})
_DICT_METHODS = frozenset({"items", "values", "keys", "get", "copy"})
_DICT_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear"})


def _followed(key: object) -> bool:
    """A dict key the engine follows: a string or an integer literal."""
    return type(key) is str or type(key) is int


def _dict_call(args: Sequence[Value], kwargs: Mapping[str, Value]) -> Value:
    """``dict(w=..., b=...)``, ``dict(other, w=...)``."""
    if len(args) > 1 or (args and not isinstance(args[0], Keyed)):
        return UNKNOWN
    result = args[0] if args else Keyed(())
    for key, value in kwargs.items():
        result = result.with_entry(key, value)
    return result


def _device_put(value: Value, ctx: Context) -> Value:
    """``jax.device_put(tree)``: the same pytree, its leaves JAX arrays as ``jnp.asarray`` makes
    them (a list stays a list of arrays)."""
    if isinstance(value, Keyed):
        entries = tuple((k, _device_put(v, ctx)) for k, v in value.entries)
        return UNKNOWN if any(isinstance(v, Unknown) for _, v in entries) else Keyed(entries)
    if isinstance(value, (Array, Items)):
        return as_traced(value, ctx)
    return UNKNOWN


def _dict_method(container: Keyed, method: str, args: Sequence[Value]) -> Value:
    """``d.values()``, ``d.items()`` (iterated: keys unknown, values their join), ``d.copy()``,
    ``d.get(i)`` with an integer literal."""
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
    return UNKNOWN


def decorated_function(function: Function, decorators: Sequence[str | None]) -> Value:
    """What a ``def`` with these decorators (qualified names) binds its name to: a maker of
    dataclasses for ``typing.dataclass_transform``, the function where they keep what its body
    computes, else unknown."""
    if any(name in _DATACLASS_TRANSFORMS for name in decorators):
        return Reference("dataclasses.dataclass")
    return function if keeps_body(decorators) else UNKNOWN


def _method(function: Function, decorators: Sequence[str | None]) -> Method:
    kind = "instance"
    if _STATIC in decorators:
        kind = "static"
    elif _CLASS in decorators:
        kind = "class"
    elif any(d in _PROPERTIES for d in decorators):
        kind = "property"
    kept = {_STATIC, _CLASS} | _PROPERTIES | _KEEP_METHOD
    return Method(function, kind, all(d in kept for d in decorators))


def _replaces(kind: str, method: str) -> bool:
    """Whether ``method`` of an object of a class of ``kind`` is a copy with fields replaced."""
    return method in COPY_METHODS.get(kind, ())


def _enum_member(name: str, value: Value) -> bool:
    """Whether an enumeration's class body binding is a member whose value is known: a Python
    scalar (not `auto()`, whose numbering the engine does not follow), not a `_sunder_` name."""
    return not name.startswith("_") and isinstance(value, Array) and value.library is Library.PYTHON and value.exact


def _qualname(value: Value) -> str:
    return value.qualname if isinstance(value, Reference) else ""

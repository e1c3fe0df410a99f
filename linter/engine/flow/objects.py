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
from dataclasses import dataclass, field, replace
from typing import Protocol

from promolint.engine.context import Context
from promolint.engine.flow.classes import (DATACLASS_DECORATORS, ENUM_BASES, FIELD_BASES, FIELD_FUNCTIONS, FLAX_OWN,
                                           KEEP_CLASS, PLAIN_BASES, ClassInfo, FieldCall, FieldSpec, Method,
                                           enum_member, method_of, qualname, replaces)
from promolint.engine.flow.containers import DICT_METHODS, DICT_MUTATORS, device_put, dict_call, dict_method, followed
from promolint.engine.flow.modules import Modules
from promolint.engine.flow.functions import Functions
from promolint.engine.values import (UNKNOWN, Among, Array, Bound, Class, Function, Instance, Items, Keyed, Library,
                                     Member, Reference, Refusal, Unknown, Value, join, python_scalar)
from promolint.engine.symbolic import (EvaluationState, Symbolic, alike_but_weak, attribute_variable, extended_key,
                                      going_on_among, is_symbolic, lowered, settled)


def _outside(value: Value) -> Value:
    """What a value computed in a function is to code elsewhere (the class's other methods, other
    objects): a dtype that depends on the function's parameters is unknown there, unless it is
    the same for every dtype they may have where the function goes on (``jnp.zeros(n,
    jnp.int32)`` of an ``n: int``: its rank differs with what ``n`` is, not its dtype)."""
    if not is_symbolic(value):
        return value
    known = settled(value)
    if type(known) is Symbolic:  # one dtype wherever the function goes on, weak or strong
        known = alike_but_weak(known)
    return UNKNOWN if is_symbolic(known) else known


def _held(value: Value) -> Value:
    """What an object's field given ``value`` holds to code elsewhere (``_outside``), and where
    that is unknown, one of the arrays ``value`` is where the function goes on (``Among``): the
    object's methods read it as a variable over them (``self.dimension = dimension`` of an
    ``int``, in an object the program makes with its own caller's ``int``)."""
    known = _outside(value)
    return going_on_among(value) if type(value) is Symbolic and type(known) is Unknown else known


# Methods that assign what the others read: flax runs ``setup`` before any other method.
_INITIALIZERS = ("__new__", "setup", "__init__", "__post_init__")
_MAX_PASSES = 3

class Host(Protocol):
    """What objects need of the flow (``promolint.engine.flow.flow.Flow``)."""

    recording: bool
    functions: Functions
    modules: Modules
    evaluation_state: EvaluationState  # where the fields' variables are evaluated


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
            return Class(key) if all(d in KEEP_CLASS for d in decorators) else UNKNOWN
        key = self._index[id(handle)] = len(self._classes)
        self._members_of.clear()
        program = tuple(b.cls for b in bases if isinstance(b, Class))
        kinds = [self._classes[b].kind for b in program] + [
            "enum" if qualname(b) in ENUM_BASES else FIELD_BASES.get(qualname(b), "") for b in bases]
        kind = next((k for k in kinds if k and k != "plain"), "")
        if not kind:
            kind = "dataclass" if any(d in DATACLASS_DECORATORS for d in decorators) else "plain"
        opaque = any(self._classes[b].opaque for b in program) or any(
            not isinstance(b, Class) and qualname(b) not in PLAIN_BASES and qualname(b) not in FIELD_BASES
            for b in bases)  # fmt: skip
        values = {n: (v.default or UNKNOWN) if isinstance(v, FieldCall) else v for n, v in values.items()}
        if kind == "enum":  # its members are no values the engine models, but their `.value`s are
            values = {n: Member(v) if enum_member(n, v) else UNKNOWN for n, v in values.items()}
        info = ClassInfo(name, kind, program, opaque, {n: _outside(v) for n, v in values.items()}, {}, family=key)
        for method_name, function, method_decorators in methods:
            info.methods[method_name] = method_of(function, method_decorators)
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
        if all(d in KEEP_CLASS for d in decorators):
            return Class(key)
        return UNKNOWN

    def class_of(self, handle: object) -> Class | None:
        """The class a class statement (``handle``: the front end's node) defined."""
        key = self._index.get(id(handle))
        return None if key is None else Class(key)

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
    def operator_method(self, base: Value, name: str) -> Value | None:
        """``base``'s operator method ``name`` (``__add__``) where ``base`` is an object of the
        program's class: the method bound to it where every class the object may be of finds the
        same one, unknown where they find several (a subclass overrides it), None where none of
        them defines it."""
        if not isinstance(base, Instance):
            return None
        found = {self._lookup_class(c, name, "methods") for c in self._candidates(base)}
        if found == {None}:
            return None
        return Bound(base, name) if len(found) == 1 else UNKNOWN

    def _isinstance(self, instance: Instance, kinds: Value) -> Value:
        """``isinstance(obj, kinds)`` of an object of the program's class: True where every class
        it may be of descends from one of the program's classes in ``kinds``, False where it is
        of exactly one class that descends from none of them and ``kinds`` names only the program's
        classes, else a bool."""
        kinds = kinds.items if isinstance(kinds, Items) else (kinds,)
        candidates = self._candidates(instance)
        if any(isinstance(k, Class) and all(self._descends(c, k.cls) for c in candidates) for k in kinds):
            return python_scalar("bool", True)
        if instance.exact and all(isinstance(k, Class) and not self._descends(instance.cls, k.cls) for k in kinds):
            return python_scalar("bool", False)
        return python_scalar("bool")

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
            return Bound(base, name) if name in DICT_METHODS or name in DICT_MUTATORS else UNKNOWN
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
        if replaces(info.kind, name) or (info.kind, name) == ("flax", "apply"):
            return Bound(base, name)
        parts = []
        has_field = False
        for cls in candidates:
            spec = next((f for f in self._classes[cls].fields if f.name == name), None)
            if spec is not None:
                has_field = True
                value = self._field(base, cls, spec, ctx)
                if value is not None:
                    parts.append(value)
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
            value = UNKNOWN
        else:
            value = join(parts)
        owner = base.origin or base.receiver
        if owner is not None and not name.startswith("__") and (isinstance(value, Unknown) or (
                type(value) is Array and not value.dtypes and value.library is not Library.PYTHON)
                or _made_elsewhere(value, owner)):  # fmt: skip
            # what a parameter's object holds there, of a dtype nothing in the program gives (or
            # given by another function's arguments, its constructor's): a variable of its own (of
            # every dtype of its library, where that is known; one of the arrays the program's
            # code gives it, where it says)
            library = value.library if type(value) is Array else None
            given = going_on_among(value) if type(value) is Symbolic else value
            members = given.members if type(given) is Among else ()
            return attribute_variable(owner, name, ctx, library, state=self._flow.evaluation_state, members=members)
        if type(value) is Among:  # no parameter's object: nothing more is known
            return UNKNOWN
        if owner is not None and not name.startswith("__") and type(value) is Instance and value.origin is None \
                and value.receiver is None:  # fmt: skip
            # an object a parameter's object holds (a Field's NamedArray): what it holds of no
            # known dtype is a variable there too
            return replace(value, receiver=extended_key(owner, f".{name}"))
        return value

    def _field(self, instance: Instance, cls: int, spec: FieldSpec, ctx: Context) -> Value | None:
        """What field ``spec`` of an object of ``cls`` holds (``_typed_field``); where nothing
        types it, for a parameter's object, a variable of its own; None where only what the
        class's methods assign speaks (an ``__init__`` of its own, no default)."""
        value, typed = self._typed_field(instance, cls, spec)
        if typed or instance.origin is None:
            return value
        annotation = spec.annotation if isinstance(spec.annotation, Array) else None
        library = annotation.library if annotation is not None and annotation.library is not Library.PYTHON else None
        return attribute_variable(instance.origin, spec.name, ctx, library, state=self._flow.evaluation_state,
                                  annotation=annotation)  # fmt: skip

    def _typed_field(self, instance: Instance, cls: int, spec: FieldSpec) -> tuple[Value | None, bool]:
        """What field ``spec`` of an object of ``cls`` holds: what it was made with; for
        ``self``, what the program makes objects with, else the default, else what the
        annotation says; and whether any of them types it (what objects are made with is
        unknown, or only the annotation speaks and names no dtype: not typed).  A class with an
        ``__init__`` of its own assigns its fields there: the default is a class attribute until
        then, and without one the field is nothing but what the methods assign (None)."""
        own = instance.field(spec.name)
        if own is not None:
            return own, True
        if self._lookup_class(cls, "__init__", "methods") is not None:
            return spec.default, True
        if not instance.exact:
            key = (self._classes[cls].family, spec.name)
            made = self._made(key)
            self._flow.functions.read_fact(("made", key), made, lambda: self._made(key), self._made_by.get(key, ()))
            if made is not None:
                return made, not isinstance(made, Unknown)  # None or an array (OrNone) types nothing either
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
        value = _held(value)
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
    def call(self, func: Value, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context,
             open_keywords: bool = False) -> Value | None:  # fmt: skip
        """``func(*args, **kwargs)`` for a class of the program (a new object), an object (its
        ``__call__``), a method bound to either, ``dict(...)``; None for anything else.
        ``open_keywords``: the call passes ``**`` a mapping the engine does not know."""
        if isinstance(func, Class):
            return self._make(func.cls, args, kwargs, ctx, open_keywords)
        if isinstance(func, Instance):
            method = self._lookup_class(func.cls, "__call__", "methods")
            return self._call_method(method[1], func, args, kwargs, ctx) if method else UNKNOWN
        if isinstance(func, Reference) and func.qualname == "builtins.dict":
            return dict_call(args, kwargs)
        if (isinstance(func, Reference) and func.qualname == "builtins.isinstance" and len(args) == 2 and not kwargs
                and isinstance(args[0], Instance)):  # fmt: skip
            return self._isinstance(args[0], args[1])
        if isinstance(func, Reference) and func.qualname in FIELD_FUNCTIONS:
            init = kwargs.get("init")
            return FieldCall(kwargs.get("default"), "default_factory" in kwargs,
                             not (isinstance(init, Array) and init.literal is False))  # fmt: skip
        if isinstance(func, Reference) and func.qualname == "dataclasses.replace" and args:
            return self._replace(args[0], kwargs)
        if isinstance(func, Reference) and func.qualname == "jax.device_put" and len(args) == 1 and not kwargs:
            return device_put(args[0], ctx)
        if isinstance(func, Reference) and func.qualname in _BY_NAME:
            if args and isinstance(args[0], Instance):
                self._unfollow(self._classes[args[0].cls].family)
            return None
        if not isinstance(func, Bound):
            return None
        receiver = func.receiver
        if isinstance(receiver, Keyed):
            return dict_method(receiver, func.method, args)
        if not isinstance(receiver, (Instance, Class)):
            return None
        found = self._lookup_class(receiver.cls, func.method, "methods")
        if found is not None:
            return self._call_method(found[1], receiver, args, kwargs, ctx)
        if isinstance(receiver, Instance) and replaces(self._classes[receiver.cls].kind, func.method):
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

    def _make(self, cls: int, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context,
              open_keywords: bool = False) -> Value:  # fmt: skip
        """``Cls(*args, **kwargs)``: an object whose fields hold the arguments (dataclass-like
        classes without an ``__init__`` of their own); ``__init__`` runs, for its call sites."""
        info = self._classes[cls]
        init = self._lookup_class(cls, "__init__", "methods")
        fields: tuple[tuple[str, Value], ...] = ()
        if info.kind != "plain" and init is None:
            fields = self._bind_fields(info, args, kwargs, open_keywords)
            self._note_made(info.family, fields)
        instance = Instance(cls, fields)
        if init is not None:
            self._call_method(init[1], instance, args, kwargs, ctx)
        return instance

    def _bind_fields(self, info: ClassInfo, args: Sequence[Value], kwargs: Mapping[str, Value],
                     open_keywords: bool) -> tuple[tuple[str, Value], ...]:  # fmt: skip
        """The fields an object is made with: the arguments, else the defaults, else what the
        annotations say; a field a ``**`` mapping the engine does not know may give is unknown."""
        specs = [f for f in info.fields if not (info.kind == "flax" and f.name in FLAX_OWN)]
        bound: dict[str, Value] = {}
        for spec, value in zip([f for f in specs if f.init], args):
            bound[spec.name] = value
        for spec in specs:
            if spec.name in kwargs and spec.init:
                bound[spec.name] = kwargs[spec.name]
            elif spec.name not in bound and open_keywords and spec.init:
                bound[spec.name] = UNKNOWN
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
            key, value = (family, name), _held(value)
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
        literal keys or a NamedTuple; None for any other base.  A dict indexed by a key that is
        no literal gives one of its values (or raises KeyError): their join."""
        if isinstance(base, Keyed):
            if key is None and base.entries:
                return join([v for _, v in base.entries])
            value = base.get(key) if followed(key) else None
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


# Functions that set or expose an object's attributes by name.
_BY_NAME = frozenset({"builtins.setattr", "builtins.object.__setattr__", "builtins.vars", "builtins.delattr"})


def _made_elsewhere(value: Value, owner: object) -> bool:
    """Whether ``value`` is computed from the parameters of functions other than the one whose
    parameter ``owner`` is (``self._data = to_array(data)`` in ``__init__``, read by a method):
    none of them is that function's, and no call of it settles them."""
    if type(value) is not Symbolic or not isinstance(owner, tuple):
        return False
    return all(not isinstance(var.key, tuple) or var.key[0] != owner[0] for var in value.variables)

"""The program's own functions: defined where the front end meets them, evaluated at their call
sites (bounded, memoized) and once more on their own, their parameters from seeds, annotations,
call sites or defaults."""

from __future__ import annotations

import itertools

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from promolint.engine import calls, sources
from promolint.engine.annotations import ARRAY_LIKE, MAPPING
from promolint.engine.context import Context
from promolint.core.dtypes import DTYPES
from promolint.engine.flow.frames import ChangedInputs, Frame
from promolint.engine.flow.modules import Modules, Scope
from promolint.engine.records import Seeds
from promolint.engine.symbolic import NUMERIC, EvaluationState, is_symbolic, join, rekeyed, variable
from promolint.engine.symbolic.domains import COUNTS
from promolint.engine.symbolic.variables import extended_key
from promolint.engine.values import UNKNOWN, Array, Elements, Function, Instance, Items, Keyed, Library, Refusal, Value

_MAX_CALL_DEPTH = 3
# Evaluations of local functions at call sites, per module and per definition: beyond these,
# calls give unknown, which keeps modules of many mutually calling functions linear in size.
_CALL_BUDGET_PER_DEFINITION = 4
_CALL_BUDGET_BASE = 64
# A function recorded again makes as many calls as its first record did, up to this many, whatever
# the file's code before it spent (``_record``).
_RECORD_AGAIN_CALLS = 16
_MAX_FED_ROUNDS = 2


class Body(Protocol):
    """What the front end does for the flow: run a function's body, read an annotation."""

    def run_body(self, handle: object, frame: Frame) -> Value:
        """Evaluate the body of the function at ``handle`` in ``frame``; its result."""

    def annotation(self, handle: object, ctx: Context) -> Value:
        """The value an annotation (the front end's handle on it) gives a parameter."""

    def names(self, handle: object) -> frozenset[str]:
        """The names (and attribute names) the code of the function at ``handle`` reads."""


class ObjectFacts(Protocol):
    """What functions ask of the program's objects (``promolint.engine.flow.objects.Objects``)."""

    def has_untyped_fields(self, instance: Instance) -> bool: ...


class Host(Protocol):
    """What functions need of the flow that holds them (``promolint.engine.flow.flow.Flow``)."""

    recording: bool
    modules: Modules
    objects: ObjectFacts
    anchor: object | None  # the call in progress
    trial: list | None  # set while a call is evaluated again for a rule: nothing memoized is reused
    final_ctx: Context
    evaluation_state: EvaluationState  # where the parameters' variables are evaluated
    seeds: Seeds
    failures: list[object]

    def record(self, handle: object, value: Value, target: bool = False) -> None: ...

    def record_again(self, run: Callable[[], object]) -> None: ...


@dataclass(frozen=True)
class Param:
    """A named parameter: its name, the front end's handles on it and on its annotation."""

    name: str
    handle: object
    annotation: object | None = None


@dataclass
class Definition:
    handle: object  # the front end's node
    params: tuple[Param, ...]
    transparent: bool  # no decorator, or only ones that keep what the body computes
    place: Hashable  # what its parameters' variables are keyed by: its ``def`` line, a lambda's (line, column)
    scope: Scope  # the module whose names its body reads
    call_args: list[dict[str, Value]] = field(default_factory=list)
    call_modes: set[Context] = field(default_factory=set)  # the modes its call sites run it in
    defaults: dict[str, Value] = field(default_factory=dict)  # evaluated where the function is defined
    receiver: Value | None = None  # what a method's first parameter holds when analysed on its own
    # A nested function: the frames it is defined in (where it was defined last), the names it
    # may read of them, and what those were at each call made while recording.
    enclosing: tuple[dict[str, Value], ...] = ()
    free: tuple[str, ...] = ()
    call_closures: list[dict[str, Value]] = field(default_factory=list)
    # What its body counts with (``jnp.arange(n)``, ``arange(self.size)``): integers, as if annotated so.
    counts: frozenset[str] = frozenset()

    @property
    def names(self) -> list[str]:
        return [param.name for param in self.params]

    @property
    def line(self) -> int | None:
        """The line of its ``def``, which seeds name; None for a lambda."""
        return self.place if type(self.place) is int else None


class Functions:
    def __init__(self, flow: Host, body: Body):
        self._flow = flow
        self._body = body
        self._definitions: list[Definition] = []
        self._index: dict[int, int] = {}
        self._memo: dict[tuple, tuple[Value, dict[str, Value], dict[str, tuple]]] = {}
        # What the latest call's body left in the dicts and lists it was given, by parameter
        # (``ChangedInputs``): the caller's objects change too.
        self.changed_arguments: tuple[tuple[Value, Value], ...] = ()
        self._changed: dict[str, Value] = {}
        self._calls_left = _CALL_BUDGET_BASE
        self._calls_made = 0  # the calls charged to the budget so far
        self._spent: dict[int, int] = {}  # the calls each function's first record made
        self._depth = 0
        self._active: set[tuple] = set()
        self._callers_run: set[int] | None = None  # while the callers run: the definitions they ran
        self._fed: set[int] = set()  # the functions whose calls the module's callers note
        # Those of them that code uses as values: calls out of the engine's sight may reach them.
        self._open: set[int] = set()
        self._unseen: list[tuple] | None = None  # while the callers run: such calls, until _open is known
        self.watching = False  # whether the flow reports calls out of its sight (out_of_sight)
        self._fed_calls: dict[int, tuple[int, int]] = {}  # where in each one's calls theirs are
        self._seeded: dict[int, dict[str, Value]] = {}  # the parameters each function was last recorded with
        self._loose: set[int] = set()  # those whose parameters are variables, whatever the calls
        # Facts a recording read that code recorded later may change (what objects are made with):
        # per function, each fact's key, the value it read and how to read it again.
        self._read: dict[int, dict[object, tuple[Value | None, Callable[[], Value | None]]]] = {}
        self.recorded: int | None = None  # the function whose recording is in progress
        # Those whose recording read such a fact before anything had added to it, or a part of it
        # one of them added: what they added is forgotten (``_again``) before they record again.
        self._provisional: set[int] = set()
        self._again: list[Callable[[int], None]] = []

    def define(self, handle: object, params: Sequence[Param], transparent: bool, place: Hashable,
               enclosing: tuple[dict[str, Value], ...] = (),
               free: Callable[[], tuple[str, ...]] = tuple,
               counts: Callable[[], frozenset[str]] = frozenset) -> int:  # fmt: skip
        """The key of the definition at ``handle``, registered once: bodies are evaluated
        repeatedly (loops, calls) and must not register their nested functions again.  A
        function defined inside others reads the names ``free`` lists (asked once) from the
        ``enclosing`` frames of its latest definition.  ``place`` is what its parameters'
        variables are keyed by, unique in its module, so that the run-time shim can give them a
        call's arguments.  ``counts`` (asked once): the parameters, and their fields, that its
        body counts with."""
        key = self._index.get(id(handle))
        if key is None:
            key = self._index[id(handle)] = len(self._definitions)
            scope = self._flow.modules.current
            self._definitions.append(Definition(handle, tuple(params), transparent, place, scope, free=free(),
                                                counts=counts()))  # fmt: skip
            if scope.depth == 0:  # another module's functions run only where this one calls them
                self._calls_left += _CALL_BUDGET_PER_DEFINITION
        self._definitions[key].enclosing = enclosing
        return key

    def set_defaults(self, key: int, defaults: Mapping[str, Value]) -> None:
        """Defaults are evaluated once, where the function is defined; a call that omits the
        argument gets them."""
        self._definitions[key].defaults = dict(defaults)

    def parameter_names(self, key: int) -> list[str]:
        return self._definitions[key].names

    def set_receiver(self, key: int, receiver: Value) -> None:
        """``key`` is a method: analysed on its own, its first parameter (``self``, ``cls``)
        holds ``receiver``."""
        self._definitions[key].receiver = receiver

    def apart(self, run: Callable[[], object]) -> None:
        """Run ``run`` (more passes over code analysed already) without spending the call budget
        of the code after it."""
        left = self._calls_left
        try:
            run()
        finally:
            self._calls_left = left

    def forget(self) -> None:
        """Drop memoized call results: a fact they were computed from (an attribute's value)
        has changed."""
        self._memo.clear()

    def run_for_effects(self, key: int, receiver: Value, ctx: Context) -> None:
        """Run method ``key`` once for what it assigns (``promolint.engine.flow.objects``): its
        first parameter holds ``receiver``, the others what their annotations say, unknown
        without one (call sites and defaults are no facts about every call); never memoized
        nor cut short by the call budget, which would lose assignments."""
        definition = self._definitions[key]
        if not definition.params:
            return
        bound = {definition.params[0].name: receiver}
        for param in definition.params[1:]:
            bound[param.name] = UNKNOWN if param.annotation is None else self._body.annotation(param.annotation, ctx)
        self._run(definition, bound, ctx, record=False)

    def call(self, function: Function, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context,
             open_keywords: bool = False) -> Value:  # fmt: skip
        """The value of a call of the program's own function, made where the modes are ``ctx``
        (JAX's modes are global state: the body runs, and a jitted function traces, in the
        modes in force at the call); with ``open_keywords`` (``**`` a mapping the engine does not
        know), the callers' note of it has the parameters it does not name unknown."""
        self.changed_arguments = ()
        definition = self._definitions[function.key]
        bound = given = self.bind(function, args, kwargs)
        if function.traced:
            bound = self.traced(function, bound, ctx)
            refused = next((v for v in bound.values() if isinstance(v, Refusal)), None)
            if refused is not None:
                return refused
        noted = bound
        if open_keywords and self._callers_run is not None and function.key in self._fed:
            named = {*definition.names[:len(args)], *kwargs}
            noted = {name: bound[name] if name in named else UNKNOWN for name in definition.names}
        self._note_call(function.key, noted, ctx)
        result = self.invoke(function.key, bound, ctx, record=False)
        # (a traced body changes the very objects passed, not the tracers it reads them as)
        self.changed_arguments = tuple((given[name], after) for name, after in self._changed.items() if name in given)
        return calls.as_traced(result, ctx) if function.traced else result

    def bind(self, function: Function, args: Sequence[Value], kwargs: Mapping[str, Value]) -> dict[str, Value]:
        """The parameters a call of ``function`` binds, by name, defaults included."""
        definition = self._definitions[function.key]
        names = definition.names
        bound = dict(zip(names, args))
        bound.update({k: v for k, v in kwargs.items() if k in names})
        for name, value in definition.defaults.items():
            bound.setdefault(name, value)
        return bound

    @staticmethod
    def traced(function: Function, bound: Mapping[str, Value], ctx: Context) -> dict[str, Value]:
        """What the body of a function jax.jit and friends wrap gets: JAX arrays (tracers), all
        but the static parameters."""
        return {k: v if k in function.static else calls.as_traced(v, ctx) for k, v in bound.items()}

    def run_callers(self, modules: Sequence[str], complete: bool, ctx: Context) -> None:
        """The project's modules that import this one (``modules``, farthest first) run every
        function they define, each as its own analysis would (parameters from annotations, else
        variables), but one a farther module's functions called already: what their code passes
        to this module's top-level functions joins what its own calls pass (only the functions
        that name one of them, where no call out of sight may reach them).  (A caller's
        parameters are variables, so a call that passes them passes what every caller of it may;
        a function whose run a call cut short, for the call budget or depth, runs on its own.)
        A function that code there uses as a value (``Modules.escaping``) also hears from the
        calls the flow does not follow (``out_of_sight``), where ``modules`` are ``complete`` (all
        that import it: another may call what it is handed); else, and where the module's own
        code uses it so, from none of them (its own top level ran before)."""
        flow = self._flow
        top = {name: value.key for name, value in flow.module_names.items()
               if isinstance(value, Function) and self._definitions[value.key].scope.depth == 0}  # fmt: skip
        if not (modules and top):
            return
        self._fed = set(top.values())
        self.forget()  # results computed before did not note their calls of this module's functions
        start = {key: len(self._definitions[key].call_args) for key in self._fed}
        self._callers_run, self._unseen, self.watching = set(), [], True
        left, self._calls_left = self._calls_left, _CALL_BUDGET_BASE
        with flow.modules.callers_running():
            try:
                scopes = [scope for scope in map(flow.modules.load_whole, modules) if scope is not None and scope.depth]
                own, escaped = flow.modules.escaping(scopes, top)
                if not complete:
                    own |= escaped
                # Where no call out of sight may reach them, only code that names one of the
                # module's functions (they may call the others) calls them.
                named = None if escaped - own else set(top)
                for scope in scopes:
                    key = 0
                    while key < len(self._definitions):  # the list grows as bodies run
                        definition = self._definitions[key]
                        if definition.scope is scope and key not in self._callers_run and (
                                named is None or not named.isdisjoint(self._body.names(definition.handle))):
                            self._calls_left = max(self._calls_left, 0) + _CALL_BUDGET_PER_DEFINITION
                            self.invoke(key, self._seeds(definition, ctx), ctx, record=False)
                        key += 1
            except RecursionError:  # nested too deeply for the stack: what they noted is not all
                own, escaped = set(self._fed), set()
            finally:
                self._callers_run, self._calls_left, unseen, self._unseen = None, left, self._unseen, None
                self.forget()
        for key in own:  # calls out of sight may reach them: as without callers
            del self._definitions[key].call_args[start[key]:]
        self._fed -= own
        self._open = escaped & self._fed
        self._fed_calls = {key: (start[key], len(self._definitions[key].call_args)) for key in self._fed}
        self.watching = bool(self._open)
        for event in unseen:
            self.out_of_sight(*event)

    def out_of_sight(self, unseen: bool, given: frozenset[object], args: Sequence[Value],
                     kwargs: Mapping[str, Value]) -> None:
        """A call the flow does not follow (``higher_order.out_of_sight``) may call the fed
        functions that code uses as values: an ``unseen`` callee with its arguments (by
        position and name; the parameters it does not name with whatever a ``partial`` may have
        bound), a function ``given`` to it with any arguments."""
        if self._unseen is not None:
            self._unseen.append((unseen, given, tuple(args), dict(kwargs)))
            return
        for key in self._open:
            definition = self._definitions[key]
            if key in given:
                definition.call_args.append(dict.fromkeys(definition.names, UNKNOWN))
            elif unseen:
                bound = dict.fromkeys(definition.names, UNKNOWN)
                bound.update(zip(definition.names, args))
                bound.update((name, value) for name, value in kwargs.items() if name in bound)
                definition.call_args.append(bound)

    def _note_call(self, key: int, bound: dict[str, Value], ctx: Context) -> None:
        definition = self._definitions[key]
        if self._flow.recording or (self._callers_run is not None and key in self._fed):
            definition.call_args.append(bound)
            definition.call_modes.add(ctx)
            if definition.free:
                definition.call_closures.append(dict(_closure(definition.free, definition.enclosing)))

    def invoke(self, key: int, bound: dict[str, Value], ctx: Context, record: bool) -> Value:
        """The body of definition ``key`` run with ``bound`` parameters in modes ``ctx``;
        ``record`` keeps its sites and operations (once per definition), else only its result
        counts (memoized)."""
        self._changed = _every_container_changed(bound)  # where the body does not run, it may change any
        if self._flow.modules.loading and not record:  # see promolint.engine.flow.modules
            return UNKNOWN
        definition = self._definitions[key]
        enclosing = self._own_enclosing(definition) if record else definition.enclosing
        closure = _closure(definition.free, enclosing) if definition.free else ()
        # An object a parameter holds (``self`` of a method analysed on its own) gives variables
        # where one the program made gives unknowns: equal as objects, they are not one call; a
        # call memoized for another parameter's object reads this one's.
        owners = {name: value.receiver for name, value in bound.items() if type(value) is Instance and value.receiver}
        memo_key = (key, tuple(sorted(bound.items(), key=lambda kv: kv[0])), ctx, record, closure, tuple(owners))
        again = self._flow.trial is not None  # the body's operations are what is asked: run it
        if not record and not again and memo_key in self._memo:
            result, changed, first = self._memo[memo_key]
            renames = {first[name]: owners[name] for name in owners if first[name] != owners[name]}
            state = self._flow.evaluation_state
            self._changed = {k: rekeyed(v, renames, state) for k, v in changed.items()} if renames else changed
            return rekeyed(result, renames, state)
        if memo_key in self._active or self._depth >= _MAX_CALL_DEPTH:
            return UNKNOWN
        if not record and not again:
            if self._calls_left <= 0:
                return UNKNOWN
            self._calls_left -= 1
            self._calls_made += 1
        if self._callers_run is not None:
            self._callers_run.add(key)
        self._active.add(memo_key)
        try:
            result, changed = self._run(definition, bound, ctx, record, enclosing)
        finally:
            self._active.discard(memo_key)
        if not record:
            self._memo[memo_key] = (result, changed, owners)
        self._changed = changed
        return result

    @staticmethod
    def _own_enclosing(definition: Definition) -> tuple[dict[str, Value], ...]:
        """What a nested function analysed on its own reads of its enclosing functions: the join
        of what its calls made while recording read (as its parameters are the join of what
        they passed), else what the frames of its latest definition hold now."""
        if not definition.call_closures:
            return definition.enclosing
        names = set.intersection(*(set(c) for c in definition.call_closures))
        seen = {name: join([c[name] for c in definition.call_closures]) for name in sorted(names)}
        return (seen, *definition.enclosing)

    def _run(self, definition: Definition, bound: dict[str, Value], ctx: Context, record: bool,
             enclosing: tuple[dict[str, Value], ...] = ()) -> tuple[Value, dict[str, Value]]:  # fmt: skip
        """The body's result, and what it left in the dicts and lists it was given (by parameter)."""
        flow = self._flow
        # Locals only: module names are read through the flow's module frame, so merges stay small.
        frame = Frame({}, ctx, [], in_function=True, enclosing=enclosing)
        for param in definition.params:
            value = frame.names[param.name] = bound.get(param.name, UNKNOWN)
            if record:
                flow.record(param.handle, value, target=True)
        frame.inputs = tuple((param.name, frame.names[param.name]) for param in definition.params)
        frame.changed = ChangedInputs(frame.inputs)
        saved, caller, here = flow.recording, flow.modules.current, flow.modules.here
        flow.recording, self._depth = record, self._depth + 1
        try:
            with flow.modules.entered(definition.scope):
                result = self._body.run_body(definition.handle, frame)
        finally:
            flow.recording, self._depth = saved, self._depth - 1
        if definition.scope is not caller:  # its 64 bits were made in another file: they arrive at the call
            result = sources.anchored(result, flow.anchor, here)
        return result, frame.changed.after

    def analyze_all(self, keys: Sequence[int] | None = None) -> None:
        """Record every function's body (nested ones too: the list grows as bodies run), or
        those of ``keys`` again, in the modes after the module's top level, where code that
        imports the module calls it, and in every other mode the module's own calls run it in:
        its values join over them.  A function recorded before code recorded after it called it
        with other arguments is recorded again: one the module's callers fed with its parameters
        joining every call, until ``_MAX_FED_ROUNDS``; past them, or one they did not feed (a
        nested function a sibling calls), with its parameters as variables, which no call
        unsettles.  A
        function a fact it read has changed since (``read_fact``: what objects are made with) is
        recorded again too, for as many rounds, after what was made from guesses is forgotten."""
        self._record(keys)
        if keys is not None:
            return
        final = self._flow.final_ctx
        for round in itertools.count():
            reseeded = [key for key, seeded in self._seeded.items()
                        if self._seeds(self._definitions[key], final) != seeded]  # fmt: skip
            unsettled = self._unsettled() if round < _MAX_FED_ROUNDS else []
            if not (reseeded or unsettled):
                return
            if unsettled:  # start again from what no guess went into
                unsettled += self._provisional
                for key, forget in itertools.product(sorted(self._provisional), self._again):
                    forget(key)
                self._provisional.clear()
            # One its callers did not feed (a method, say) holds what the module's own calls
            # pass, which the calls of other modules may not: it claims nothing of calls made
            # after its first record.
            self._loose.update(key for key in reseeded if round >= _MAX_FED_ROUNDS or key not in self._fed)
            self._record(sorted({*reseeded, *unsettled}))

    def on_record_again(self, forget: Callable[[int], None]) -> None:
        """``forget(key)`` drops what the recording of function ``key`` added to the facts."""
        self._again.append(forget)

    def read_fact(self, fact: object, value: Value | None, again: Callable[[], Value | None],
                  sources: Iterable[object] = ()) -> None:  # fmt: skip
        """The recording in progress read ``value`` for ``fact`` (None: nothing has added to it
        yet), which code recorded later may change (``again`` reads it then): the function is
        recorded again if it does.  ``sources``: the recordings that added to it."""
        if self.recorded is None:
            return
        self._read[self.recorded].setdefault(fact, (value, again))
        if value is None or not self._provisional.isdisjoint(sources):
            self._provisional.add(self.recorded)

    def _unsettled(self) -> list[int]:
        """The functions a fact they read has changed since their recording."""
        return [key for key, reads in self._read.items()
                if any(again() != value for value, again in reads.values())]  # fmt: skip

    def _record(self, keys: Sequence[int] | None) -> None:
        flow = self._flow
        for key, definition in enumerate(self._definitions):
            if (keys is not None and key not in keys) or definition.scope.depth:
                continue
            seeds = self._seeded[key] = self._seeds(definition, flow.final_ctx)
            self._read[key], self.recorded = {}, key
            # A function recorded again (a later round) may make as many calls as its first record
            # did (up to _RECORD_AGAIN_CALLS), whatever the file's code before it spent: else the
            # record that counts is cut shorter than the first (craftax's `update_mobs`, its third
            # record, ran no scan body).  The calls past the budget left are not charged to it.
            left, made = self._calls_left, self._calls_made
            again = self._spent.get(key)
            if again is not None:
                self._calls_left = max(left, min(again, _RECORD_AGAIN_CALLS))
            try:
                self.invoke(key, seeds, flow.final_ctx, record=True)
                for ctx in sorted(definition.call_modes - {flow.final_ctx}, key=repr):
                    seeds = self._seeds(definition, ctx)
                    flow.record_again(lambda ctx=ctx, seeds=seeds: self.invoke(key, seeds, ctx, record=True))
            except RecursionError:  # nested too deeply for the stack: the others go on
                flow.failures.append(definition.handle)
            finally:
                self.recorded = None
                if again is None:
                    self._spent[key] = self._calls_made - made
                else:
                    self._calls_left = min(left, self._calls_left)

    def _seeds(self, definition: Definition, ctx: Context) -> dict[str, Value]:
        """A definition's parameters in modes ``ctx``: from the analysis's seeds, else the
        annotation, else the join of what its call sites passed, else the default; a parameter
        still without a dtype is a variable (over every numeric value, or every dtype of the
        library its annotation names)."""
        flow = self._flow
        state = flow.evaluation_state
        line = definition.line if not definition.scope.depth else None  # seeds are the module's own
        given = flow.seeds.parameters.get(line, {}) if line is not None else {}
        declared = flow.seeds.declared.get(line, {}) if line is not None else {}
        key = self._index.get(id(definition.handle))
        start, end = self._fed_calls.get(key, (0, 0))
        from_callers = start < end
        calls = [] if key in self._loose else definition.call_args
        state.counted.update(self._counted(definition))
        seeds: dict[str, Value] = {}
        for index, param in enumerate(definition.params):
            name = param.name
            if name in given:
                seeds[name] = given[name]
            elif index == 0 and definition.receiver is not None:  # `self`, a method analysed on its own
                receiver = definition.receiver
                if isinstance(receiver, Instance):
                    receiver = replace(receiver, receiver=self._key(definition, param))
                seeds[name] = self._followed(receiver, definition, param) or receiver
            elif param.annotation is not None:
                seeds[name] = self._body.annotation(param.annotation, ctx)
                if seeds[name] is UNKNOWN and name in declared:
                    seeds[name] = declared[name]
                passed = _typed_arguments(calls, name, seeds[name])
                if passed is not None:
                    seeds[name] = passed
                elif (followed := self._followed(seeds[name], definition, param)) is not None:
                    seeds[name] = followed  # an object of the class the annotation names
                else:
                    members = state.annotated_domain(seeds[name], ctx) if isinstance(seeds[name], Array) else None
                    if members:  # x: float admits NumPy scalars and JAX tracers too
                        scalar = seeds[name].library is Library.PYTHON
                        members = state.counting(self._key(definition, param), members)
                        seeds[name] = variable(name, self._key(definition, param), members, scalar, state=state)
            else:
                seen = [args[name] for args in calls if name in args]
                if seen:
                    seeds[name] = join(seen)
                    if from_callers and (is_symbolic(seeds[name]) or seeds[name] is UNKNOWN):
                        # What callers elsewhere pass depends on their own parameters: no narrower
                        # than a variable, which a caller's types can settle (the shim's).
                        seeds[name] = UNKNOWN
                elif name in definition.defaults and key not in self._loose:
                    seeds[name] = self._default(definition, param, ctx, state)
            seeds[name] = self._variable(definition, param, seeds.get(name, UNKNOWN), ctx, state)
        return seeds

    @staticmethod
    def _counted(definition: Definition) -> Iterator[tuple]:
        """The keys of the variables ``definition``'s body counts with: its parameters', and
        their fields' (``self.size``)."""
        params = {param.name: param for param in definition.params}
        for name in definition.counts:
            head, _, rest = name.partition(".")
            if head in params:
                key = Functions._key(definition, params[head])
                yield extended_key(key, f".{rest}") if rest else key

    def _followed(self, value: Value, definition: Definition, param: Param) -> Instance | None:
        """A parameter's object of one of the program's classes (``self``, or one its annotation
        names), keeping where it came from: where a field of it is typed by nothing, as its
        origin (those fields are variables of their own: ``self.scale``, annotated ``Array |
        float``), else as its receiver (what its class assigns of no known dtype is read there as
        ``self`` reads it); None for anything else."""
        if not isinstance(value, Instance) or value.exact or value.fields or value.origin is not None:
            return None
        if self._flow.objects.has_untyped_fields(value):
            return replace(value, origin=self._key(definition, param))
        return replace(value, receiver=self._key(definition, param))

    @staticmethod
    def _default(definition: Definition, param: Param, ctx: Context, state: EvaluationState) -> Value:
        """What a parameter no call of the module passes holds: its default where only the
        default can come; a Python number as default says the kind, as an annotation would
        (``y=0.0`` is some float: a caller may pass a float32 array, optax's ``_l2``)."""
        default = definition.defaults[param.name]
        if not (isinstance(default, Array) and default.library is Library.PYTHON and default.dtypes
                and DTYPES[next(iter(default.dtypes))].kind in "iufc"):  # fmt: skip
            return default
        members = state.annotated_domain(replace(default, literal=None), ctx)
        if not members:
            return default
        key = Functions._key(definition, param)
        return variable(param.name, key, state.counting(key, members), True, state=state)

    @staticmethod
    def _variable(definition: Definition, param: Param, value: Value, ctx: Context, state: EvaluationState) -> Value:
        """``value``, or a variable where it has no dtype: an untyped parameter (or one its call
        sites disagree on) ranges over every numeric value, as does one annotated ``ArrayLike``;
        one annotated with a library only
        (``jax.Array``) over that library's dtypes.  ``self`` and ``cls`` are the objects of
        their class, not numbers.  What the code does with non-numeric values is not claimed."""
        key = Functions._key(definition, param)
        if value is MAPPING:
            return variable(param.name, key, state.domain(NUMERIC, ctx), state=state, mapping=True)
        if isinstance(value, Array) and not value.dtypes:
            return variable(param.name, key, state.domain((value.library,), ctx), state=state)
        # Unknowns compare equal whatever their provenance: ArrayLike, an annotation the engine
        # cannot resolve, no annotation at all; `self` and `cls` without one are objects.
        if value == ARRAY_LIKE and (param.annotation is not None or param.name not in ("self", "cls")):
            # `jnp.arange(n)` of an unannotated `n`: an integer, as if annotated `int`
            counted = param.annotation is None and key in state.counted
            return variable(param.name, key, state.domain(NUMERIC, ctx, COUNTS if counted else None), counted,
                            state=state)  # fmt: skip
        return value

    @staticmethod
    def _key(definition: Definition, param: Param) -> tuple:
        """A parameter's variable: its definition's place (in another module, with the module's
        name) and name."""
        place = definition.place
        return (f"{definition.scope.module}:{place}" if definition.scope.depth else place, param.name)


def _every_container_changed(bound: Mapping[str, Value]) -> dict[str, Value]:
    """What a body that does not run may leave in the dicts and lists it is given: anything."""
    return {name: UNKNOWN for name, value in bound.items() if isinstance(value, (Keyed, Items, Elements))}


def _closure(free: tuple[str, ...], enclosing: tuple[dict[str, Value], ...]) -> tuple[tuple[str, Value], ...]:
    """The values the names ``free`` have in the ``enclosing`` frames (innermost first), for the
    names they bind."""
    found = []
    for name in free:
        for scope in enclosing:
            if name in scope:
                found.append((name, scope[name]))
                break
    return tuple(found)


def _typed_arguments(calls: list[dict[str, Value]], name: str, annotated: Value) -> Value | None:
    """The join of what the ``calls`` noted pass for a parameter whose annotation names no dtype
    (``x: jax.Array``, or one the engine cannot read), when every call passes an array of a
    known dtype that the annotation admits; for one annotated with a class of the program (or
    one the engine cannot read), when every call passes an object of that class and their
    fields join to known values; else None."""
    seen = [args[name] for args in calls if name in args]
    if seen and (annotated is UNKNOWN or isinstance(annotated, Instance)) and all(
            isinstance(v, Instance) and v.exact and v.cls == seen[0].cls for v in seen):  # fmt: skip
        joined = join(seen)
        # A field some call leaves unknown: what the class is made with says more.
        settled = isinstance(joined, Instance) and not any(
            value is UNKNOWN or is_symbolic(value) for _, value in joined.fields)  # fmt: skip
        return joined if settled and (annotated is UNKNOWN or annotated.cls == seen[0].cls) else None
    if not (annotated is UNKNOWN or (isinstance(annotated, Array) and not annotated.dtypes)):
        return None
    if not seen or not all(isinstance(v, Array) and v.dtypes and v.library is not Library.PYTHON for v in seen):
        return None
    if isinstance(annotated, Array) and any(v.library is not annotated.library for v in seen):
        return None
    return join(seen)

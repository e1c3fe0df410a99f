"""One analysis's flow: the values it records, its functions, branches, loops and ``try``."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from promolint.engine.flow import higher_order
from promolint.engine.flow.frames import Frame, merge
from promolint.engine.flow.functions import Body, Functions
from promolint.engine.flow.modules import Modules
from promolint.engine.flow.objects import Objects
from promolint.engine.flow.modes import Settings
from promolint.engine import calls, expressions, sources, symbolic
from promolint.engine.catalog import NUMBER_ATTRIBUTES, REPLACE_METHODS
from promolint.engine.context import Context
from promolint.engine.records import Carried, Evaluation, LoopCall, Operation, OperationKind, Returned, Seeds, Site
from promolint.engine.symbolic import Symbolic, is_symbolic, join, lowered, passed_on, raised_in, settled
from promolint.engine.symbolic.choice import Split
from promolint.engine.values import (UNKNOWN, Alternatives, Bound, Class, Function, Imported, Instance, Items, Keyed,
                                     Reference, Returns, Value)

# A loop body runs until its values settle, at most this often; loops nested in a loop run
# once per pass of the outer one (the outer passes already feed them settled values).
_LOOP_PASSES = 3

Run = Callable[[Frame], None]
# Top-level packages whose import says the module works on JAX arrays.
_JAX_LIBRARIES = frozenset({"jax", "jaxlib", "flax", "equinox", "optax", "haiku", "chex", "jaxtyping", "jraph",
                            "distrax", "numpyro", "blackjax", "diffrax", "lineax", "optimistix", "orbax"})


@dataclass
class _JitCall:
    """What one pass of a loop's body gives a call of a jitted function: its arguments as the
    trace sees them (static ones left out), and for those held in a variable, that variable's
    name and the very value it held."""

    handle: object
    arguments: dict[str, Value]
    held: dict[str, tuple[str, Value]]
    ctx: Context


class Flow:
    """What a front end drives while it walks one module: ``sites`` and ``operations`` are its
    results, keyed by the front end's handles (``id`` of a syntax node).

    The flow owns its functions, modules and objects, which refer back to it (and to the front
    end) weakly: an analysis holds no reference cycle, and is freed as soon as it is dropped,
    without the cyclic collector (which would traverse each of its objects)."""

    def __init__(self, body: Body, settings: Settings = Settings(), seeds: Seeds = Seeds()):
        self.evaluation_state = symbolic.EvaluationState()  # the symbolic values' evaluations, dropped with the flow
        self.settings = settings
        self.seeds = seeds
        self.sites: dict[int, Site] = {}
        self.operations: dict[int, Operation] = {}
        self.returns: list[Returned] = []  # what the functions' own analyses return, for rules
        self.invocations: dict[int, Operation] = {}  # calls of the program's own functions, for rules
        self.trial: list[Operation] | None = None  # while a call is evaluated again: every operation it evaluates
        self._indirect: set[int] = set()  # calls that call functions they are given (lax.scan(f, ...), partial)
        self.recording = True  # off while a call site evaluates a body: only the body's own run records
        self.module_names: dict[str, Value] = {}  # the names of the module whose code runs
        self.anchor: object | None = None  # the call in progress: where another module's values arrive
        # The dicts and lists the latest call's body changed in place, with what they hold after it.
        self.changed_by_call: tuple[tuple[Value, Value], ...] = ()
        self.final_ctx = settings.initial()  # the modes after the module's top level: a function's own analysis runs in them
        self._itself = weakref.proxy(self)  # what the flow's parts and records hold of it
        front_end = weakref.proxy(body)
        self.functions = Functions(self._itself, front_end)
        facts = settings.facts
        self.modules = Modules(self._itself, front_end, seeds.module or facts.module, dict(facts.modules))
        self.objects = Objects(self._itself)
        self._read_by_rules: dict[Symbolic, Value] = {}  # symbolic values as rules read them
        self.failures: list[object] = []  # handles of statements and functions too deep to analyze
        self.imported_modules: set[str] = set()  # what the module imports, anywhere in it
        self.loop_calls: list[LoopCall] = []  # jitted calls in loops, on their first two passes, for rules
        self._loop_depth = 0
        self._watched: dict[int, _JitCall] | None = None  # the jitted calls the loop pass in progress makes
        self._probing = False  # a loop's second pass is running: it watches its jitted calls unrecorded

    def module_frame(self) -> Frame:
        return Frame(self.module_names, self.settings.initial())

    def statement(self, handle: object, run: Run, frame: Frame) -> None:
        """Run one statement of the module's top level; one nested too deeply for the stack is
        recorded as a failure and the next one goes on."""
        try:
            run(frame)
        except RecursionError:
            self.failures.append(handle)

    def finish(self, frame: Frame) -> None:
        """The module's top level is done: record every function's body in the final modes."""
        self.final_ctx = frame.ctx
        facts = self.settings.facts
        self.functions.run_callers(facts.callers, facts.callers_complete, self.settings.initial())
        self.objects.widened.clear()
        self.functions.analyze_all()
        if self.objects.widened:  # code analysed after them widened what methods read: again
            self.functions.analyze_all(self.objects.methods_of(self.objects.widened))

    # --- calls ------------------------------------------------------------------------
    def call(self, func: Value, args: list[Value], kwargs: dict[str, Value], frame: Frame, handle: object,
             static: Callable[[list[str]], frozenset[str]], open_keywords: bool = False) -> Value:  # fmt: skip
        """``func(*args, **kwargs)``: the program's own functions run their bodies; JAX's
        higher-order functions run theirs (``static`` names the parameters ``jax.jit(f, ...)``
        keeps static, given f's parameter names); catalogued calls are operations rules read.
        ``open_keywords``: the call passes ``**`` a mapping the engine does not know, which may
        name any parameter that ``kwargs`` does not."""
        saved, self.anchor = self.anchor, handle
        try:
            self.changed_by_call = ()
            return self._call(func, args, kwargs, frame, handle, static, open_keywords)
        finally:
            self.anchor = saved

    def _call(self, func: Value, args: list[Value], kwargs: dict[str, Value], frame: Frame, handle: object,
              static: Callable[[list[str]], frozenset[str]], open_keywords: bool) -> Value:  # fmt: skip
        raised = raised_in((func, *args, *kwargs.values()))
        if raised is not None:
            return raised
        if type(func) is Alternatives:
            return self._each_option(func, args, kwargs, frame, handle, static, open_keywords)
        if isinstance(func, Function):
            if func.compiled and self._watched is not None and (self.recording or self._probing):
                self._watch(func, args, kwargs, frame, handle)
            result = self.functions.call(func, args, kwargs, frame.ctx, open_keywords)
            self.changed_by_call = self.functions.changed_arguments
            for container, after in self.changed_by_call:  # the body changed them in place
                frame.changed_in_place(container, after)
            if (self.recording or self.trial is not None) and id(handle) not in self._indirect:
                self._invoked(func, args, kwargs, result, frame, handle)
            return result
        if self.functions.watching:  # the module's callers run, or its functions they fed record
            self.functions.out_of_sight(*higher_order.out_of_sight(func, args, kwargs, open_keywords), args, kwargs)
        result = self.objects.call(func, args, kwargs, frame.ctx, open_keywords)
        if result is not None:
            return result
        if (type(func) is Bound and func.method in REPLACE_METHODS and type(func.receiver) is Symbolic
                and not args and kwargs and not open_keywords):  # fmt: skip
            return calls.replaced(func.receiver, kwargs)
        if isinstance(func, Returns):
            return func.result
        indirect = id(handle) in self._indirect
        self._indirect.add(id(handle))  # the functions it calls get other arguments than the call's
        try:
            if self._watched is not None and not isinstance(func, higher_order.Partial):
                # JAX calls the functions given to it (a scan's body, tree_map's function): not the loop.
                result = self._watching(None, lambda: higher_order.call(self, func, args, kwargs, frame, handle,
                                                                        static))  # fmt: skip
            else:
                result = higher_order.call(self, func, args, kwargs, frame, handle, static)
        finally:
            if not indirect:
                self._indirect.discard(id(handle))
        if result is not None:
            return result
        result, call = calls.call(func, args, kwargs, frame.ctx)
        if call is None and (self.recording or self.trial is not None) and is_symbolic(result):
            # The value stays symbolic; rules read the call made with every variable unknown.
            call = calls.call(lowered(func), lowered(args), lowered(kwargs), frame.ctx)[1]
        if call is not None:
            receiver = (func.receiver,) if isinstance(func, Bound) else ()
            result = sources.traced(result, call.bound.values(), handle, frame.ctx, self.modules.here)  # keywords too
            result = self.operation(OperationKind.CALL, call.name, (*receiver, *args), result, frame, handle, call=call)
        elif type(func) is Bound and func.at_update and args:
            # x.at[i].set(v) and its kin: JAX promotes the update with x before casting it to x's
            # dtype, so strict promotion refuses what it refuses in `x + v`; rules read it.
            result = self.operation(OperationKind.CALL, func.method, (func.receiver, args[0]), result, frame, handle)
        return result

    def _each_option(self, func: Alternatives, args: list[Value], kwargs: dict[str, Value], frame: Frame,
                     handle: object, static: Callable[[list[str]], frozenset[str]],
                     open_keywords: bool) -> Value:  # fmt: skip
        """A call of one of several functions: the join of what each option's call gives.  Rules
        read no operation there (which one runs is not known), and the options' bodies get no
        call arguments from it."""
        return join(self.unrecorded(lambda: [self._call(option, list(args), dict(kwargs), frame, handle, static,
                                                        open_keywords) for option in func.options]))  # fmt: skip

    def unrecorded(self, run: Callable[[], Value]) -> Value:
        """``run()`` recording no site and no operation: what the engine reads to decide, not code
        the program runs there."""
        saved = self.recording, self.trial
        self.recording, self.trial = False, None
        try:
            return run()
        finally:
            self.recording, self.trial = saved

    def through_decorators(self, defined: Function | Class, makers: Sequence[Value], ctx: Context) -> Value:
        """What a ``def`` or ``class`` statement binds its name to where its decorators
        (``makers``, outermost first) are the program's own functions: what it defined, where
        each gives back what it is given (``@utils.export``, a registry's ``@register``), else
        unknown."""
        for maker in reversed(makers):
            if not isinstance(maker, Function) or maker.compiled:
                return UNKNOWN
            if self.unrecorded(lambda maker=maker: self.functions.call(maker, [defined], {}, ctx)) != defined:
                return UNKNOWN
        return defined

    def _invoked(self, func: Function, args: list[Value], kwargs: dict[str, Value], result: Value, frame: Frame,
                 handle: object) -> None:  # fmt: skip
        """Record a call of the program's own function made by the call's syntax itself (not by a
        function it was given), which rules can evaluate again with other arguments or modes
        (``Operation.evaluate``): where a body refuses, the fix may be a cast at the call."""
        invocation = Operation(OperationKind.INVOKE, "", tuple(args), result, frame.ctx, handle,
                               in_function=frame.in_function, module=self.modules.here,
                               evaluate=functools.partial(Flow._evaluate, self._itself, func,
                                                          dict(kwargs)))  # fmt: skip
        if self.recording:
            self.invocations[id(handle)] = invocation
        if self.trial is not None:
            self.trial.append(invocation)

    def _evaluate(self, func: Function, kwargs: dict[str, Value], args: Sequence[Value], ctx: Context) -> Evaluation:
        """``func(*args, **kwargs)`` evaluated again in modes ``ctx``, recording nothing: its result
        and every operation its body, and the bodies it calls, evaluated (none memoized)."""
        saved = self.trial, self.recording
        self.trial, self.recording = [], False
        try:
            result = self.functions.call(func, list(args), kwargs, ctx)
        except RecursionError:
            result = UNKNOWN
        finally:
            trial = self.trial
            self.trial, self.recording = saved
        return Evaluation(result, tuple(trial))

    # --- names of other modules --------------------------------------------------------
    def record_import(self, module: str) -> None:
        """The module imports ``module`` (or names from it); another module's imports, run as
        the project pass loads it, are that module's."""
        if not self.modules.current.depth:
            self.imported_modules.add(module)

    def uses_jax(self) -> bool:
        """Whether the module imports JAX or a library built on it: where a value of unknown
        dtype may be a JAX array that a leak reaches."""
        return any(m.split(".")[0] in _JAX_LIBRARIES for m in self.imported_modules)

    def imported(self, module: str, name: str) -> Value:
        """What ``from module import name`` binds: a value the seeds know, else the name of the
        program's module (read when used), else the reference."""
        value = self.seeds.names.get(f"{module}.{name}")
        if value is None:
            value = self.modules.bind(module, name)
        return value if value is not None else calls.resolve_reference(f"{module}.{name}")

    def star_imported(self, module: str) -> dict[str, Value]:
        """What ``from module import *`` binds: each name the program's module exports, read
        when used; nothing for third-party modules (their names stay unknown)."""
        return {name: self.imported(module, name) for name in self.modules.exported(module)}

    def resolve(self, value: Imported, handle: object) -> Value:
        """The value a name imported from the program's module stands for, read at ``handle``."""
        return sources.anchored(self.modules.resolve(value), handle, self.modules.here)

    def attribute(self, base: Value, name: str, ctx: Context, handle: object | None = None) -> Value:
        """``base.name`` (read at ``handle``); a module's name the seeds know
        (``helpers.WEIGHTS``) has their value, one of the program's other modules its own; an
        object's attribute what its class assigns (``promolint.engine.flow.objects``)."""
        if type(base) is Alternatives:  # `xp.zeros` where `xp` is one of NumPy and JAX
            return join([self.attribute(option, name, ctx, handle) for option in base.options])
        value = self.objects.attribute(base, name, ctx)
        if value is not None:  # an object of another module's class: its methods made the value
            return sources.anchored(value, handle, self.modules.here)
        if (type(base) is Reference and self.modules.is_module(base.qualname)
                and f"{base.qualname}.{name}" not in self.seeds.names):  # fmt: skip
            return sources.anchored(self.modules.attribute(base.qualname, name), handle, self.modules.here)
        parts = calls.replaced_parts(base)
        owner = _owner(base) if type(base) is Symbolic else None
        if name in REPLACE_METHODS and (owner is not None or parts is not None):
            return Bound(base, name)
        if parts is not None:  # `state.replace(cows=...)`: the field replaced, or the receiver's
            receiver, fields = parts
            return fields[name] if name in fields else self.attribute(receiver, name, ctx, handle)
        if owner is not None and name not in NUMBER_ATTRIBUTES and name[0] != "_":
            key, traced = owner
            found = symbolic.attribute_variable(key, name, ctx, state=self.evaluation_state)
            return calls.as_traced_field(found, ctx) if traced else found  # traced: a scan's `state.count`
        value = calls.attribute(base, name)
        if type(value) is Reference and self.seeds.names:
            return self.seeds.names.get(value.qualname, value)
        return value

    def absolute_module(self, module: str | None, level: int) -> str | None:
        """The module ``from .module import ...`` names, ``level`` dots up from the package of
        the module whose code runs (the seeds name the module analysed and its path)."""
        if not level:
            return module
        package = self.modules.current.package
        parts = package.split(".") if package else []
        if len(parts) < level - 1 or not (parts or module):
            return None
        base = ".".join(parts[: len(parts) - level + 1])
        return f"{base}.{module}" if base and module else base or module

    # --- records ----------------------------------------------------------------------
    def record(self, handle: object, value: Value, target: bool = False) -> None:
        if self.recording:
            self.sites[id(handle)] = Site(handle, value, "", target)

    def record_again(self, run: Callable[[], object]) -> None:
        """Run ``run`` recording again what is recorded already (a function's body in another
        mode): each site's value becomes the join of both; the operations rules read stay the
        first ones."""
        sites, operations, invocations = self.sites, self.operations, self.invocations
        self.sites, self.operations, self.invocations = {}, {}, {}
        try:
            run()
        finally:
            again, self.sites, self.operations, self.invocations = self.sites, sites, operations, invocations
        for key, site in again.items():
            old = sites.get(key)
            sites[key] = site if old is None else replace(old, value=join([old.value, site.value]))

    def operation(self, kind: OperationKind, op: str, operands: tuple[Value, ...], result: Value, frame: Frame,
                  handle: object, **extra) -> Value:  # fmt: skip
        """Record an evaluated operation; its result, with the source of its 64 bits (which the
        front end passes on)."""
        result = sources.traced(result, operands, handle, frame.ctx, self.modules.here)
        if self.trial is not None:
            self.trial.append(Operation(kind, op, operands, result, frame.ctx, handle, in_function=frame.in_function,
                                        module=self.modules.here))  # fmt: skip
        if self.recording:
            recorded_operands, recorded = operands, result
            if is_symbolic(operands) or is_symbolic(result) or is_symbolic(extra.get("chain")):
                recorded_operands = tuple(self._for_rules(v) for v in operands)
                recorded = sources.traced(self._for_rules(result), recorded_operands, handle, frame.ctx)
                if sources.made_at(recorded, handle) and not sources.made_at_some_member(operands, result, handle, frame.ctx):
                    recorded = replace(recorded, source=None)  # from what the variables made: origin unknown
                if type(result) is Symbolic:
                    self._read_by_rules[result] = recorded
                if "chain" in extra:
                    extra["chain"] = tuple(self._for_rules(v) for v in extra["chain"])
                extra["members"] = functools.partial(symbolic.weighed, operands, result)
                extra["symbolic_operands"] = operands
                extra["symbolic_result"] = result
            self.operations[id(handle)] = Operation(kind, op, recorded_operands, recorded, frame.ctx, handle,
                                                    in_function=frame.in_function, **extra)  # fmt: skip
        return result

    def _for_rules(self, value: Value) -> Value:
        """What rules read of a value: they conclude only from what holds whatever the
        variables are.  A symbolic value an operation made is what rules read there (with the
        source of its 64 bits); else one that is the same at every member is that value; else it
        is computed with every variable unknown."""
        if type(value) is not Symbolic:
            return lowered(value)
        read = self._read_by_rules.get(value)
        if read is None:  # asked again in each mode and pass: settled once per analysis
            read = lowered(settled(value))
            read = self._read_by_rules[value] = UNKNOWN if passed_on(read) else read
        return read

    def returned(self, frame: Frame, handle: object, value: Value) -> None:
        """``return value`` (``handle``: the returned expression) in a function's body."""
        frame.returns.append(value)
        if self.recording and frame.in_function:
            self.returns.append(Returned(handle, value, frame.inputs, frame.ctx))

    # --- control flow -------------------------------------------------------------------
    def branches(self, frame: Frame, runs: Sequence[Run], fall_through: bool = False,
                 leaving: Sequence[str | None] = (), split: Split | None = None) -> None:  # fmt: skip
        """Each of ``runs`` may happen (``if``/``elif``/``else``, ``match`` cases); with
        ``fall_through`` none of them may (a ``match`` without a catch-all).  A run that
        ``leaving`` marks as always ending in ``"raise"`` or ``"return"``: what follows runs only
        after the others (after all of them where every run leaves, which code after them never
        sees); the state a raise leaves in is where a ``try``'s handlers may start.  A ``split``
        says which runs happen where its test holds; where that test is known, the runs it rules
        out are walked for their sites, and nothing they bind or return comes after them."""
        truth = split.truth if split is not None else None
        states, where_true = [], []
        for index, run in enumerate(runs):
            branch = frame.copy()
            returned = len(frame.returns)
            run(branch)
            if truth is not None and split.runs_where_true[index] is not truth:
                del frame.returns[returned:]  # a branch a known test never takes: its sites only
                continue
            left = leaving[index] if index < len(leaving) else None
            if left is None:
                states.append(branch)
                if split is not None:
                    where_true.append(split.runs_where_true[index])
            elif left == "raise" and branch.raised is not None:
                branch.raised.append(branch)
        if fall_through:
            states.append(frame.copy())
            split = None
        kept = Split(split.test, tuple(where_true)) if split is not None and truth is None and states else None
        merge(frame, states or [frame.copy()], kept)

    def loop(self, frame: Frame, step: Run, orelse: Run) -> None:
        """A loop whose every pass is ``step`` (binding the loop variable and running the body),
        run until its values settle; then ``orelse``.  Where the first pass calls jitted
        functions, the body runs once more, unrecorded, from where that pass left: what those
        calls get on the loop's second pass (``loop_calls``)."""
        entry = frame.copy()
        states = [entry]
        current = frame.copy()
        watch = self.recording
        first_calls: dict[int, _JitCall] | None = None
        self._loop_depth += 1
        try:
            for index in range(_LOOP_PASSES if self._loop_depth == 1 else 1):
                before = dict(current.names)
                watched: dict[int, _JitCall] | None = {} if watch and index == 0 else None
                self._watching(watched, lambda: step(current))
                if index == 0:
                    first_calls = watched
                states.append(current.copy())
                merge(current, [entry, current.copy()])
                if current.names == before:
                    break
            if first_calls:
                self._second_pass(step, entry, states[1], first_calls)
        finally:
            self._loop_depth -= 1
        merge(frame, states)
        orelse(frame)

    def _watching(self, watched: dict[int, _JitCall] | None, run: Callable[[], Value | None]) -> Value | None:
        """``run()``, noting in ``watched`` (None: nowhere) the jitted calls it makes itself, not
        those of the loops nested in it, which watch their own."""
        outer, self._watched = self._watched, watched
        try:
            return run()
        finally:
            self._watched = outer

    def _watch(self, func: Function, args: list[Value], kwargs: dict[str, Value], frame: Frame, handle: object) -> None:
        """Note what the jitted call at ``handle`` gets, the first time the pass reaches it."""
        if self._watched is None or id(handle) in self._watched:
            return
        bound = self.functions.bind(func, args, kwargs)
        arguments = {name: self._traced_tree(value, frame.ctx) for name, value in bound.items()
                     if name not in func.static}  # fmt: skip
        held = {}
        for param, value in bound.items():
            name = next((name for name, current in frame.names.items() if current is value), None)
            if name is not None:
                held[param] = (name, value)
        self._watched[id(handle)] = _JitCall(handle, arguments, held, frame.ctx)

    def _traced_tree(self, value: Value, ctx: Context) -> Value:
        """An argument as a jitted function's trace sees it: each leaf traced, a NamedTuple a
        pytree of its fields; another object of the program's is unknown (JAX may not flatten it
        into its fields)."""
        if isinstance(value, Instance):
            if self.objects.as_items(value) is None:
                return UNKNOWN
            return replace(value, fields=tuple((name, self._traced_tree(v, ctx)) for name, v in value.fields))
        if isinstance(value, Items):
            return Items(tuple(self._traced_tree(v, ctx) for v in value.items), value.is_tuple)
        if isinstance(value, Keyed):
            return Keyed(tuple((key, self._traced_tree(v, ctx)) for key, v in value.entries))
        return calls.as_traced(value, ctx)

    def _second_pass(self, step: Run, entry: Frame, after: Frame, first_calls: dict[int, _JitCall]) -> None:
        """The loop's body once more from the state its first pass left (``after``), recording
        nothing (nor spending the call budget of the code after it): the arguments its jitted
        calls get on the loop's second pass, compared with the first pass's in ``loop_calls``."""
        probe = Frame(dict(after.names), after.ctx, [], after.in_function, after.inputs, after.enclosing)
        saved = self.recording, self._probing
        self.recording, self._probing = False, True
        try:
            second: dict[int, _JitCall] = {}
            self._watching(second, lambda: self.functions.apart(lambda: step(probe)))
        finally:
            self.recording, self._probing = saved
        for key, first in first_calls.items():
            later = second.get(key)
            if later is None:
                continue
            carried = tuple((param, Carried(name, self._binding(value))) for param, (name, value) in first.held.items()
                            if entry.names.get(name) is value and after.names.get(name) is not value)  # fmt: skip
            self.loop_calls.append(LoopCall(first.handle, tuple(first.arguments.items()),
                                            tuple(later.arguments.items()), carried, first.ctx))  # fmt: skip

    def _binding(self, value: Value) -> object | None:
        """Where ``value`` (that very value) was bound to a name, as recorded: the first place."""
        return next((site.node for site in self.sites.values() if site.target and site.value is value), None)

    def attempt(self, frame: Frame, body: Run, handlers: Sequence[Run], orelse: Run, final: Run) -> None:
        """``try``: a handler may start from the entry state or from any point of the body
        (where it ends, and where a branch of it raises)."""
        entry = frame.copy()
        outer, frame.raised = frame.raised, []
        try:
            body(frame)
        finally:
            raised, frame.raised = frame.raised, outer
        if outer is not None:
            outer.extend(raised)  # what the handlers do not catch goes on to an enclosing try's
        branches = [frame.copy()]
        for handler in handlers:
            branch = entry.copy()
            merge(branch, [entry, frame.copy(), *raised])
            handler(branch)
            branches.append(branch)
        orelse(branches[0])
        merge(frame, branches)
        final(frame)


def _owner(value: Symbolic) -> tuple[object, bool] | None:
    """The key of the variable whose object ``value`` may be, where an attribute no number has
    read on it is a variable of its own (``Flow.attribute``): a variable, an element of one
    (`rng, state = rng_and_state`), or one JAX traced (True: its fields are traced too)."""
    if value.variable is not None:
        return value.variable.key, False
    element = expressions.unpacked_key(value)
    if element is not None:
        return element, False
    traced = calls.traced_variable(value)
    return (traced.key, True) if traced is not None else None

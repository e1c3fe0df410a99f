"""Instrumented units: a :class:`ModuleUnit` is one source file, instrumented and compiled once,
with the engine's predictions for its sites; a :class:`FunctionUnit` is one of its functions, and
the argument types its sites are predicted with.

Every expression the engine types (an array, a refusal, or unknown) becomes
``__promolint_check__(__promolint_enter__(ID), EXPR)`` (:func:`promolint.runtime.instrument.instrument`),
and the file is compiled with its own line numbers, so tracebacks and warnings point at the real
source.  The import hook runs the whole module from that code; ``@verify`` takes one function's
code object out of it.  ``__promolint_check__`` is the unit's :meth:`ModuleUnit.check`:

* it reads the run-time value's (dtype, weak, library) and the JAX modes in force *now*
  (``jax.config.jax_enable_x64``, ``jax.config.jax_numpy_dtype_promotion``), so a program that
  switches modes is judged in the mode each value was made in;
* it looks up the engine's prediction for the site in that mode (computed on first need and
  cached): from the code alone, or, when the session predicts from arguments, inside a function
  with its parameters typed by the call's arguments (those the ``@verify`` wrapper saw, else
  those the function's frame holds);
* it files the outcome (agree, disagree, unknown, unchecked) with the active
  :class:`~promolint.runtime.session.Session`, which warns, raises or keeps it for a report.

Repeated evaluations of a site with the same types cost a dictionary lookup.  The value always
comes back unchanged: a failure inside the shim becomes a ``ShimError`` record and a
``ShimWarning``, never a different value (in ``raise`` mode it is raised, as a mismatch is).
"""

from __future__ import annotations

import ast
import collections
import contextvars
import functools
import operator
import re
import sys
import threading
import types
from collections.abc import Callable

from promolint.runtime.instrument import ARGUMENTS, CHECK, ENTER, instrument
from promolint.runtime.observe import (
    KINDS,
    NO_JAX,
    Mode,
    current_mode,
    device_platform,
    kind_of,
    observe_value,
    wide_dtypes,
)
from promolint.runtime.predict import (ArgumentType, Bindings, Definition, Opaque, Predictor, Signature, Span,
                                       argument_type, describe_mode, opaque, package_facts)
from promolint.runtime.session import (
    ACTIVE,
    AGREE,
    DISAGREE,
    PromotionMismatch,
    RaisedRecord,
    ShimError,
    SiteRecord,
    active_session,
    default_session,
    describe,
    judge,
)

_reentry = threading.local()  # set while the shim works out a first sighting
_MODULES = sys.modules


class ModuleUnit:
    """One source file, instrumented and compiled once, and the predictions for its sites."""

    _by_path: dict[str, ModuleUnit] = {}
    _registry_lock = threading.Lock()

    def __init__(self, path: str, source: str, name: str = "",
                 compiler: Callable[[str, str], types.CodeType] | None = None):  # fmt: skip
        """``compiler`` turns the instrumented source into code (another import hook's transform,
        such as jaxtyping's, applied on top); by default Python's own ``compile``."""
        from promolint.engine.walker.source import ParseFailure, parse_text

        self.path = path
        self.name = name
        parsed = parse_text(source)
        if isinstance(parsed, ParseFailure):
            raise SyntaxError(f"promolint: {path}:{parsed.line}: {parsed.message}")
        self.predictor = Predictor(parsed, package_facts(path))
        texts = self.predictor.typed_spans()
        self.functions = [FunctionUnit(self, index, d) for index, d in enumerate(self.predictor.definitions())]
        # A function whose body assigns to a parameter has its arguments read at the call (a
        # `def`: a lambda has no statement to read them in).
        by_line: dict[int, list[FunctionUnit]] = {}
        for function in self.functions:
            by_line.setdefault(function.line, []).append(function)
        self._rebinding = {line: found[0] for line, found in by_line.items()
                           if len(found) == 1 and not found[0].is_lambda
                           and found[0].rebound.intersection(found[0].parameters)}  # fmt: skip
        lambdas_by_line = collections.Counter(function.first_line for function in self.functions if function.is_lambda)
        for function in self.functions:
            function.shares_line = function.is_lambda and lambdas_by_line[function.first_line] > 1
        # By frame id: what its call passed (its arrays; what its other arguments hold, where the
        # session predicts from the code alone: objects_in).
        self.entered: dict[int, tuple[types.CodeType, Signature, Signature]] = {}
        code, ids = instrument(source, texts.__contains__, self._rebinding)
        if any(function.shares_line for function in self.functions):
            _locate_lambda_bodies(code, [function for function in self.functions if function.is_lambda])
        self.spans: list[Span] = [ids[site] for site in range(len(ids))]
        self.texts = [texts[span] for span in self.spans]
        self.code = compiler(code, path) if compiler else compile(code, path, "exec", dont_inherit=True)
        # Each site belongs to the innermost function around it, whose arguments type it: from
        # the code alone, a lambda's too (its parameters are variables of their own); predicted
        # from the arguments, the innermost `def` (the analysis seeds a def's parameters).
        self.owners = self._innermost(self.functions)
        self._by_place = {function.line: function for function in self.functions}
        self.seeded_owners = self._innermost([f for f in self.functions if not f.is_lambda])
        for function in self.functions:
            around = [f for f in self.functions if f is not function and _contains(f.span, function.span)]
            function.enclosing = tuple(sorted(around, key=lambda f: f.span[:2], reverse=True))  # innermost first
        self._predictions: dict[tuple, dict[Span, dict]] = {}
        self._lock = threading.Lock()

    def _innermost(self, functions: list[FunctionUnit]) -> list[FunctionUnit | None]:
        owners: list[FunctionUnit | None] = [None] * len(self.spans)
        for function in sorted(functions, key=lambda f: (f.span[:2], (-f.span[2], -f.span[3]))):
            for site, span in enumerate(self.spans):
                if _contains(function.span, span):
                    owners[site] = function  # outer functions come first: the innermost stays
        return owners

    @classmethod
    def register(cls, unit: ModuleUnit) -> ModuleUnit:
        with cls._registry_lock:
            cls._by_path[unit.path] = unit
        return unit

    @classmethod
    def of_function(cls, fn: types.FunctionType) -> ModuleUnit:
        """The unit of ``fn``'s file: the one its module was imported through, if the import
        hook instrumented it, else a new one from the source (``linecache`` also knows
        notebook cells and other sources without a file)."""
        import linecache

        path = fn.__code__.co_filename
        with cls._registry_lock:
            unit = cls._by_path.get(path)
        if unit is None:
            source = "".join(linecache.getlines(path, fn.__globals__))
            if not source:
                raise TypeError(f"promolint: no source for {fn.__qualname__} ({path}): cannot verify it")
            unit = cls.register(ModuleUnit(path, source, fn.__globals__.get("__name__", "")))
        unit.install(fn.__globals__)
        return unit

    def install(self, namespace: dict) -> None:
        """The names instrumented code calls.  ``enter`` only hands the site id on (the
        instrumentation's enter/check protocol): ``operator.index`` does that in C."""
        namespace[CHECK] = self.check
        namespace[ENTER] = operator.index
        namespace[ARGUMENTS] = self.arguments

    def arguments(self, line: int) -> None:
        """The first statement of the function defined at ``line`` (one that assigns to a
        parameter): the types of the arguments its call passed, kept for its frame."""
        frame = sys._getframe(1)
        if getattr(_reentry, "busy", False):  # the shim's own call: no types, and none of an older frame
            self.entered.pop(id(frame), None)
            return
        _reentry.busy = True
        try:
            function = self._rebinding[line]
            values = frame.f_locals
            passed = {name: values[name] for name in function.parameters if name in values}
            objects = () if active_session().from_arguments else function.objects_in(passed)
            self.entered[id(frame)] = (frame.f_code, _signature(passed), objects)
        except Exception as error:  # noqa: BLE001 - the call goes on; its sites read the frame instead
            self.entered.pop(id(frame), None)
            active_session().shim_error(f"typing the arguments of the function at {self.path}:{line}", error)
        finally:
            _reentry.busy = False

    # The hot path: one call per evaluated site.
    def check(self, site: int, value):
        try:
            kind = KINDS.get(type(value)) or kind_of(value)
            if kind == "python":
                fast: object = type(value)
            elif kind == "jax":
                dtype = value.dtype
                fast = (type(value), dtype, getattr(value, "weak_type", None))  # PRNG keys have none
                if dtype in wide_dtypes():  # where it lives matters only for these
                    fast += (device_platform(value),)
            elif kind in ("numpy", "cupy"):
                fast = (type(value), value.dtype)
            else:
                return value  # no dtype: nothing to compare
            session = ACTIVE.get() or default_session()
            jax = _MODULES.get("jax")  # current_mode(), inlined: this runs for every evaluation
            mode = NO_JAX if jax is None else (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion == "strict")
            # From the arguments: the function's parameters are seeded with the call's types.  From
            # the code alone: nothing is seeded, but a prediction that depends on the function's
            # parameters (the dtype of x) is evaluated at the call's types.
            if session.from_arguments:
                owner = self.seeded_owners[site]
            else:
                owner = self.owners[site] if self._depends(site, mode) else None
            signature: Signature | Bindings | None = owner.signature.get() if owner is not None else None
            key = (id(self), site, mode, signature, fast)
            record = session.records.get(key)
            if record is not None:
                record.count += 1
                return value
            if getattr(_reentry, "busy", False):
                return value  # instrumented code the shim itself called (a user's dtype property)
            _reentry.busy = True
            try:
                if owner is not None and not session.from_arguments:
                    signature = self._with_callers(site, mode, sys._getframe(1),
                                                   owner.bindings_in(sys._getframe(1), signature))  # fmt: skip
                elif owner is not None and signature is None:  # no @verify call in progress: read the arguments
                    signature = owner.signature_in(sys._getframe(1))
                record = self._first_sight(site, value, owner, signature, mode)
            finally:
                _reentry.busy = False
        except Exception as error:  # noqa: BLE001 - the program's value stands; the failure is reported
            active_session().shim_error(f"checking {self._where(site)}", error)
            return value
        session.file(key, record)  # warns or raises: outside the guard, so it is never mistaken for a shim error
        return value

    def _first_sight(self, site: int, value, owner: FunctionUnit | None, signature: Signature | Bindings | None,
                     mode: Mode) -> SiteRecord:  # fmt: skip
        observed = observe_value(value)
        predicted = self.prediction(site, mode, owner, signature)
        line, column, end_line, end_column = self.spans[site]
        arguments = ", ".join(f"{_parameter(name, owner)}: {_shown(t)}" for name, t in signature or ())
        return SiteRecord(self.path, line, column, end_line, end_column, self.texts[site], describe_mode(mode),
                          observed, predicted, judge(predicted, observed), arguments)  # fmt: skip

    def _with_callers(self, site: int, mode: Mode, frame: types.FrameType, bindings: Bindings) -> Bindings:
        """``bindings`` and the parameters of the module's other functions that the code-alone
        prediction depends on, from the innermost running call of each: the analysis passes a
        caller's values down into what it calls (``self.target_grid.centers`` of the method that
        calls a module function), so they are that call's where it is on the stack."""
        wanted = self.predictor.variable_places(mode, self.spans[site]) - {place for (place, _), _ in bindings}
        if not wanted:
            return bindings
        found = dict(bindings)
        for place in wanted:
            function = self._by_place.get(place)
            caller = function._frame_in(frame) if function is not None else None
            if caller is not None:
                found.update(((place, name), t) for part in function._signature_of(caller) for name, t in part)
        return tuple(found.items())

    def _depends(self, site: int, mode: Mode) -> bool:
        """Whether the code-alone prediction of a site depends on variables (parameters)."""
        return self.spans[site] in self.predictor.symbolic_spans(mode)

    def prediction(self, site: int, mode: Mode, owner: FunctionUnit | None,
                   signature: Signature | Bindings | None) -> dict:  # fmt: skip
        """The engine's description of a site in ``mode``: reveal's dtype/weak/library/error;
        within a function, with its parameters seeded by the call's argument types (a
        ``signature``), or, from the code alone, a prediction that depends on them (and on those
        of the functions around it) evaluated at those types (``bindings``).  A site the
        analysis gives no value is unknown."""
        if not (ACTIVE.get() or default_session()).from_arguments:
            return self.predictor.from_code(mode, self.spans[site], signature or ())  # type: ignore[arg-type]
        seeded = owner is not None and bool(signature)
        key = (mode, owner.index if seeded else None, signature if seeded else None)
        table = self._predictions.get(key)
        if table is None:
            with self._lock:
                table = self._predictions.get(key)
                if table is None:
                    table = self.predictor.predict(mode, owner.node if seeded else None, signature or ())
                    self._predictions[key] = table
        return table.get(self.spans[site], {"dtype": None, "weak": None, "library": None, "error": None})

    def escaped(self, error: BaseException) -> None:
        """An exception left instrumented code: where the engine predicted that refusal on the
        line it was raised from, they agree; an unpredicted TypePromotionError is a
        disagreement; other exceptions are no question of promotion and are not filed."""
        try:
            # The innermost instrumented frame judges; the units the exception passes on its
            # way out (an `import`, a call) have nothing to say about it.
            instrumented = [tb for tb in _traceback(error.__traceback__)
                            if tb.tb_frame.f_code.co_filename in ModuleUnit._by_path]  # fmt: skip
            if not instrumented or instrumented[-1].tb_frame.f_code.co_filename != self.path:
                return
            if isinstance(error, (PromotionMismatch, ShimError)):
                return
            line = instrumented[-1].tb_lineno
            mode = current_mode()
            owner = self._owner_of_line(line) if active_session().from_arguments else None
            signature = owner.signature.get() if owner is not None else None
            if owner is not None and signature is None:
                signature = owner.signature_in(instrumented[-1].tb_frame)
            classes = [cls.__name__ for cls in type(error).__mro__]
            predicted = []
            for site, span in enumerate(self.spans):
                if span[0] <= line <= span[2]:
                    refusal = self.prediction(site, mode, owner, signature).get("error")
                    if refusal:
                        predicted.append(refusal)
            if any(name in classes for name in predicted):
                outcome = AGREE
            elif "TypePromotionError" in classes:
                outcome = DISAGREE
            else:
                return
            text = str(error).splitlines()[0][:300] if str(error) else ""
            record = RaisedRecord(self.path, line, type(error).__name__, text, describe_mode(mode), predicted, outcome)
            active_session().file_raised((id(self), line, type(error), mode, signature), record)
        except Exception as failure:  # noqa: BLE001
            active_session().shim_error(f"judging an exception at {self.path}", failure)

    # Functions taken out of the module's code.
    def code_for(self, original: types.CodeType) -> types.CodeType:
        """The instrumented code object of a function: the one with the same qualified name
        and first line (compiling the whole file keeps every closure and name mangling)."""
        name = getattr(original, "co_qualname", original.co_name)
        stack = [self.code]
        while stack:
            code = stack.pop()
            if getattr(code, "co_qualname", code.co_name) == name and code.co_firstlineno == original.co_firstlineno:
                if code.co_varnames[: code.co_argcount] != original.co_varnames[: original.co_argcount]:
                    break
                return code
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        raise TypeError(f"promolint: {self.path} no longer holds the source {name} was compiled from")

    def function(self, fn: types.FunctionType) -> FunctionUnit:
        """The unit of a ``@verify`` function: its calls set the signature its sites are
        predicted with."""
        for function in self.functions:
            if function.first_line == fn.__code__.co_firstlineno and function.name == fn.__code__.co_name:
                return function
        raise TypeError(f"promolint: cannot find `def {fn.__name__}` at {self.path}:{fn.__code__.co_firstlineno}")

    def _owner_of_line(self, line: int) -> FunctionUnit | None:
        inside = [f for f in self.functions if f.span[0] <= line <= f.span[2] and not f.is_lambda]
        return max(inside, key=lambda f: f.span[:2], default=None)

    def _where(self, site: int) -> str:
        line, column, _, _ = self.spans[site]
        return f"{self.path}:{line}:{column}"


def _locate_lambda_bodies(instrumented: str, lambdas: list[FunctionUnit]) -> None:
    """Where each lambda's body starts in the instrumented source, which keeps every line but
    not every column: its lambdas in source order are the original's."""
    found = sorted((node for node in ast.walk(ast.parse(instrumented)) if type(node) is ast.Lambda),
                   key=lambda node: (node.lineno, node.col_offset))  # fmt: skip
    if len(found) != len(lambdas):
        return
    for function, node in zip(sorted(lambdas, key=lambda f: f.span[:2]), found):
        function.body_start = (node.body.lineno, node.body.col_offset)


@functools.lru_cache(maxsize=1024)
def _code_start(code: types.CodeType) -> tuple[int, int] | None:
    """Where the expression a lambda's code computes starts: the first (line, column) its
    instructions cover (their zero-width positions, such as ``RESUME``'s, left out); None
    before Python 3.11, which records no columns."""
    positions = getattr(code, "co_positions", None)
    if positions is None:
        return None
    found = [(line, column) for line, end_line, column, end_column in positions()
             if line is not None and column is not None and (line, column) != (end_line, end_column)]  # fmt: skip
    return min(found, default=None)


def _contains(outer: Span, inner: Span) -> bool:
    return outer[:2] <= inner[:2] and inner[2:] <= outer[2:]


def _traceback(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


class FunctionUnit:
    """A function of a module unit, and the argument types its sites are predicted with: those
    of the ``@verify`` call in progress (``signature``), else those its call passed (where its
    body assigns to a parameter: ``ModuleUnit.arguments``) or its frame's parameters hold
    when one of its sites is first seen with a type."""

    def __init__(self, unit: ModuleUnit, index: int, definition: Definition):
        self.unit = unit
        self.index = index
        self.node = definition.node
        self.name = definition.name
        self.first_line = definition.first_line
        self.line = definition.place  # what the engine's variables of its parameters are keyed by
        self.is_lambda = type(definition.node) is ast.Lambda
        self.shares_line = False  # a lambda that starts on the line of another: told apart by where its body starts
        self.body_start: tuple[int, int] | None = None  # where its body starts in the instrumented code
        self.enclosing: tuple[FunctionUnit, ...] = ()  # the functions its definition is in, innermost first
        self.span = definition.span
        self.parameters = definition.parameters
        self.positional = definition.positional
        self.rebound = definition.rebound
        self.signature: contextvars.ContextVar[Signature | None] = contextvars.ContextVar(
            f"promolint_signature_{self.name}", default=None
        )

    def signature_in(self, frame: types.FrameType | None) -> Signature:
        """The argument types of this function's frame (the innermost one of ``frame`` and its
        callers, past lambdas and comprehensions)."""
        found = self._frame_in(frame)
        return () if found is None else self._signature_of(found, objects=False)[0]

    def bindings_in(self, frame: types.FrameType | None, signature: Signature | None = None) -> Bindings:
        """The argument types the engine's variables stand for where ``frame`` runs this
        function's code: those of its parameters (``signature``, else its frame's), and those of
        the functions around it: the parameters its closure reads as they were passed (the
        enclosing function never assigns to them), or all of them where the enclosing call is
        still running (on the stack, and the frame the closure's cells belong to, or, where it
        shares no cell with it, the innermost such call: a lambda the call hands to
        ``tree_map``)."""
        found = self._frame_in(frame)
        if found is None:
            return ()
        own = self._signature_of(found) if signature is None else (signature, ())
        bindings = {(self.line, name): t for part in own for name, t in part}
        cells = found.f_locals
        free = set(found.f_code.co_freevars)
        shadowing = set(self.parameters) | self.rebound
        inner = found
        for outer in self.enclosing:
            outer_frame = outer._frame_in(inner.f_back) if inner is not None else None
            if outer_frame is not None and _closes_over(found, outer_frame) is not False:
                bindings.update(((outer.line, name), t) for part in outer._signature_of(outer_frame) for name, t in part)
            else:
                read = {name: cells[name] for name in outer.parameters
                        if name in free and name not in shadowing and name not in outer.rebound}  # fmt: skip
                bindings.update(((outer.line, name), t) for part in (_signature(read), outer.objects_in(read))
                                for name, t in part)  # fmt: skip
            shadowing |= set(outer.parameters) | outer.rebound
            inner = outer_frame or inner  # one that has returned: the next is searched above the last found
        return tuple(bindings.items())

    def _frame_in(self, frame: types.FrameType | None) -> types.FrameType | None:
        while frame is not None:
            if self._runs(frame.f_code):
                return frame
            frame = frame.f_back
        return None

    def _runs(self, code: types.CodeType) -> bool:
        """Whether ``code`` is this function's (a lambda that shares its line with another: the
        one whose body starts where this one's does)."""
        if (code.co_name, code.co_firstlineno, code.co_filename) != (self.name, self.first_line, self.unit.path):
            return False
        return not self.shares_line or (self.body_start is not None and _code_start(code) == self.body_start)

    def _signature_of(self, frame: types.FrameType, objects: bool = True) -> tuple[Signature, Signature]:
        """What the call running in ``frame`` passed, its arrays and (with ``objects``) what its
        other arguments hold (``objects_in``): kept when it began, where the body assigns to a
        parameter; else what the parameters hold now."""
        entered = self.unit.entered.get(id(frame))
        if entered is not None and entered[0] is frame.f_code:
            return entered[1], entered[2]
        arguments = frame.f_locals
        passed = {name: arguments[name] for name in self.parameters if name in arguments and name not in self.rebound}
        return _signature(passed), self.objects_in(passed) if objects else ()

    def objects_in(self, arguments: dict[str, object]) -> Signature:
        """What the arguments that are no arrays hold, by the names of the engine's variables:
        a pytree's leaves of one type (``_leaf_signature``), the attributes the predictions
        read (``state.count``: ``Predictor.attribute_paths``), and, for the others and
        attributes without a dtype, what the engine makes of them (``opaque``).  Only the
        code-alone predictions evaluate them: seeding a parameter with an array would change
        what the code does."""
        entries: list = list(_leaf_signature(arguments))
        leaves = {name for name, _ in entries}
        entries += [(name, opaque(value)) for name, value in arguments.items()
                    if name not in leaves and kind_of(value) == "other"]  # fmt: skip
        for path in sorted(self.unit.predictor.attribute_paths().get(self.line, ())):
            name, steps = _path_steps(path)
            if name not in arguments or steps is None:
                continue
            found = {_argument_entry(value) for value in _followed_path(arguments[name], steps)}
            if len(found) == 1 and None not in found:  # one type wherever `[*]` reads
                entries.append((path, found.pop()))
        return tuple(entries)

    def signature_of(self, args: tuple, kwargs: dict) -> Signature:
        """The argument types of a call, by parameter name."""
        bound = dict(zip(self.parameters[: self.positional], args))
        bound.update((k, v) for k, v in kwargs.items() if k in self.parameters)
        return _signature(bound)


_STEP = re.compile(r"\.(\w+)|\[(\*|-?\d+|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]")


def _path_steps(path: str) -> tuple[str, list[tuple[str, object]] | None]:
    """A variable's path (``state.count``, ``rng_and_state[1].zombies``, ``indexers[*]``,
    ``batch['x']``) as its parameter's name and the steps from it: ("attribute", name),
    ("index", literal) or ("any", None) for ``[*]``; None for steps it does not spell."""
    name = re.match(r"\w+", path)
    if name is None:
        return path, None
    steps: list[tuple[str, object]] = []
    at = name.end()
    while at < len(path):
        step = _STEP.match(path, at)
        if step is None:
            return name.group(), None
        attribute, index = step.groups()
        steps.append(("attribute", attribute) if attribute else ("any", None) if index == "*"
                     else ("index", ast.literal_eval(index)))  # fmt: skip
        at = step.end()
    return name.group(), steps


def _followed_path(value: object, steps: list[tuple[str, object]]) -> list[object]:
    """What ``value`` holds at the end of ``steps``: one value, each item of a dict at ``[*]``,
    none where a step fails (an object without the attribute, a key it lacks).  Only Python's
    own dicts, lists and tuples are indexed: another mapping's ``__getitem__`` may change it (a
    defaultdict adds the key)."""
    values = [value]
    for kind, step in steps:
        reached = []
        for current in values:
            try:
                if kind == "attribute":
                    reached.append(getattr(current, step))
                elif kind == "index" and (type(current) is dict or isinstance(current, (list, tuple))):
                    reached.append(current[step])
                elif kind == "any" and type(current) is dict:
                    reached.extend(current.values())
            except Exception:  # noqa: BLE001 - an object without it: nothing to evaluate at
                continue
        values = reached
    return values


def _argument_entry(value: object) -> ArgumentType | Opaque | None:
    """A value's signature entry: its type where it holds an array or a scalar, else what the
    engine makes of it (``opaque``)."""
    if kind_of(value) == "other":
        return opaque(value)
    found = _signature({"value": value})
    return found[0][1] if found else None


def _closes_over(inner: types.FrameType, outer: types.FrameType) -> bool | None:
    """Whether the function running in ``inner`` was defined by the call running in ``outer``:
    the cells it shares with it hold the same objects (a recursive call's would not); None
    where it shares none, and nothing tells."""
    shared = [name for name in inner.f_code.co_freevars
              if name in outer.f_code.co_cellvars or name in outer.f_code.co_freevars]  # fmt: skip
    if not shared:
        return None
    mine, theirs = inner.f_locals, outer.f_locals
    return all(name in mine and name in theirs and mine[name] is theirs[name] for name in shared)


def _shown(argument: ArgumentType | Opaque) -> str:
    """An argument as a record lists it."""
    if isinstance(argument, Opaque):
        return argument.shown
    return describe(dict(zip(("dtype", "weak", "library"), argument)))


def _parameter(key: str | tuple[int | tuple[int, int], str], owner: FunctionUnit | None) -> str:
    """A parameter as a record names it: by name, with its function's line where that is
    not the site's function."""
    if isinstance(key, str):
        return key
    place, name = key
    if owner is not None and place == owner.line:
        return name
    return f"{name} (line {place[0] if isinstance(place, tuple) else place})"


def _signature(arguments: dict[str, object]) -> Signature:
    """Argument types by parameter name; arguments without a dtype are left to the front end
    (their annotation, default, or the module's calls)."""
    entries = []
    for name, value in arguments.items():
        if kind_of(value) != "other":
            entry = argument_type(observe_value(value), getattr(value, "ndim", None))
            if entry is not None:
                entries.append((name, entry))
    return tuple(entries)


def _leaf_signature(arguments: dict[str, object]) -> Signature:
    """The arguments that are pytrees (``jax.tree_util``) whose leaves are all arrays of one
    type, by parameter name, typed as a leaf.  The engine's tree functions run on a parameter's
    leaves as the parameter itself (``tree_map(lambda g: g * lr, updates)``: ``g`` is "the dtype
    of updates"), so a claim about them holds at such a call for that type."""
    jax = _MODULES.get("jax")
    if jax is None:
        return ()
    entries = []
    for name, value in arguments.items():
        if kind_of(value) != "other":
            continue
        try:
            leaves = jax.tree_util.tree_leaves(value)
        except Exception:  # noqa: BLE001 - not a pytree JAX can flatten (a dict with keys it cannot sort)
            continue
        if not leaves or any(kind_of(leaf) not in ("jax", "numpy") for leaf in leaves):
            continue
        found = {argument_type(observe_value(leaf), None) for leaf in leaves}
        if len(found) == 1 and None not in found:
            entries.append((name, found.pop()))
    return tuple(entries)

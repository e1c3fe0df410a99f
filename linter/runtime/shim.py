"""The run-time check behind ``@verify``, ``verifying()``, ``promolint run`` and the pytest plugin.

One mechanism serves all four.  A :class:`ModuleUnit` is one source file, instrumented once:
every expression the engine types (an array, a refusal, or unknown) becomes
``__promolint_check__(__promolint_enter__(ID), EXPR)`` (:func:`promolint.runtime.instrument.instrument`),
and the file is compiled with its own line numbers, so tracebacks and warnings point at the
real source.  An import hook runs the whole module from that code; ``@verify`` takes one
function's code object out of it.  ``__promolint_check__`` is the unit's :meth:`ModuleUnit.check`:

* it reads the run-time value's (dtype, weak, library) and the JAX modes in force *now*
  (``jax.config.jax_enable_x64``, ``jax.config.jax_numpy_dtype_promotion``), so a program that
  switches modes is judged in the mode each value was made in;
* it looks up the engine's prediction for the site in that mode (computed on first need and
  cached), inside a function with its parameters typed by the call's arguments: those the
  ``@verify`` wrapper saw, else those the function's frame holds;
* it files the outcome (agree, disagree, unknown) with the active :class:`Session`, which warns,
  raises :class:`PromotionMismatch` or keeps it for a JSON report.

Repeated evaluations of a site with the same types cost a dictionary lookup.  The value always
comes back unchanged: a failure inside the shim becomes a :class:`ShimError` record and a
:class:`ShimWarning`, never a different value (in ``raise`` mode it is raised, as a mismatch is).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import operator
import os
import sys
import threading
import traceback
import types
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from promolint.runtime import DEFAULT_REPORT, MODES
from promolint.runtime.instrument import CHECK, ENTER, instrument, observe
from promolint.runtime.predict import Definition, Mode, Predictor, Signature, Span, argument_type, describe_mode

AGREE, DISAGREE, UNKNOWN = "agree", "disagree", "unknown"
_WIDE_DTYPES = frozenset({"float64", "int64", "uint64", "complex128"})  # slow or emulated on accelerators
_NO_JAX: Mode = (False, False)  # NumPy's promotion does not depend on JAX's modes


class PromotionMismatch(AssertionError):
    """Raised in ``raise`` mode where a run-time dtype contradicts the static prediction."""

    def __init__(self, record: SiteRecord):
        super().__init__(record.message())
        self.record = record


class ShimError(RuntimeError):
    """A failure of the shim itself (reading a value, analysing the source); the program's own
    values are never affected."""


class PromotionMismatchWarning(UserWarning):
    """A disagreement, in ``warn`` mode."""


class ShimWarning(RuntimeWarning):
    """A :class:`ShimError`, in ``warn`` and ``report`` modes."""


class AcceleratorX64Warning(UserWarning):
    """A 64-bit array lives on a GPU or TPU, where 64-bit arithmetic is slow or emulated."""


# --- observing values cheaply -----------------------------------------------------------------
# What kind of value a type holds, decided once per type: JAX tracers are JAX arrays only by
# isinstance (jax.Array's __instancecheck__), so the first instance of each type decides.
_PYTHON_SCALARS = frozenset({bool, int, float, complex})
_KINDS: dict[type, str] = {}


def _kind(value: object) -> str:
    kind = _KINDS.get(type(value))
    if kind is None:
        kind = _KINDS[type(value)] = _classify(value)
    return kind


def _classify(value: object) -> str:
    jax, numpy, cupy = (sys.modules.get(name) for name in ("jax", "numpy", "cupy"))
    if jax is not None and isinstance(value, jax.Array):
        return "jax"
    if numpy is not None and isinstance(value, (numpy.ndarray, numpy.generic)):
        return "numpy"
    if cupy is not None and isinstance(value, cupy.ndarray):
        return "cupy"
    if isinstance(value, (int, float, complex)):  # an IntEnum, a float subclass
        return "python"
    return "other"


def observe_value(value: object) -> dict:
    """:func:`~promolint.runtime.instrument.observe` plus CuPy arrays (library ``cupy``), and the
    device ``platform`` the value lives on (None for a tracer, which has none yet)."""
    if _kind(value) == "cupy":
        observed = {"dtype": value.dtype.name, "weak": False, "library": "cupy", "error": None}
    else:
        observed = observe(value)
    return {**observed, "platform": device_platform(value)}


def device_platform(value: object) -> str | None:
    """``cpu``, ``gpu`` or ``tpu``: where an array's data lives.  JAX arrays say through
    ``devices()`` (a tracer raises: it is placed only when the computation runs); CuPy arrays
    live on a GPU; NumPy values and Python scalars in host memory."""
    kind = _kind(value)
    if kind == "cupy":
        return "gpu"
    if kind != "jax":
        return "cpu" if kind in ("numpy", "python") else None
    try:
        devices = value.devices()
    except Exception:  # noqa: BLE001 - a tracer: ConcretizationTypeError
        return None
    return "+".join(sorted({device.platform for device in devices})) or None


@functools.cache
def _wide_dtypes() -> frozenset:
    """The 64-bit dtypes as NumPy dtype objects: comparing those is fast, ``dtype.name`` is not."""
    import numpy

    return frozenset(numpy.dtype(name) for name in _WIDE_DTYPES)


_MODULES = sys.modules


def current_mode() -> Mode:
    jax = _MODULES.get("jax")
    if jax is None:
        return _NO_JAX
    return (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion == "strict")


# --- what a session keeps ---------------------------------------------------------------------
@dataclass
class SiteRecord:
    """One site seen with one run-time type, in one mode (and call signature): how often, and
    how it compared with the prediction."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str
    jax_mode: str
    observed: dict
    predicted: dict
    outcome: str
    arguments: str = ""  # the call's argument types, for a @verify function
    count: int = 1

    def message(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        arguments = f"; arguments {self.arguments}" if self.arguments else ""
        return (f"{where}: `{_short(self.text)}` is {_describe(self.observed)} at run time; promolint predicted "
                f"{_describe(self.predicted)} ({self.jax_mode}{arguments})")  # fmt: skip


@dataclass
class RaisedRecord:
    """An exception that escaped instrumented code, against the refusals predicted on its line."""

    path: str
    line: int
    error: str
    message: str
    jax_mode: str
    predicted: list[str]
    outcome: str
    count: int = 1


def _describe(description: dict) -> str:
    if description.get("error"):
        return f"a {description['error']}"
    if description.get("dtype") is None:
        return "unknown"
    weak = "weak " if description.get("weak") else ""
    return f"{weak}{description['dtype']} [{description['library']}]"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def judge(predicted: dict, observed: dict) -> str:
    """agree, disagree or unknown, with reveal's rules: a candidate set holds when the value has
    one of its dtypes; a weak flag of None (candidates that disagree) accepts either."""
    if predicted.get("error"):
        return DISAGREE  # a value came where the engine predicted the operation raises
    if predicted.get("dtype") is None:
        return UNKNOWN
    matches = (
        observed["dtype"] in predicted["dtype"].split("|")
        and observed["library"] == predicted["library"]
        and (predicted["weak"] is None or predicted["weak"] == observed["weak"])
    )
    return AGREE if matches else DISAGREE


class Session:
    """Where outcomes go: the innermost ``verifying()`` block, else the process's default.

    ``mode``: ``warn`` (a :class:`PromotionMismatchWarning` per disagreement), ``raise``
    (:class:`PromotionMismatch` at the first) or ``report`` (collect only); in any mode the
    JSON report goes to ``report`` when it is set."""

    def __init__(self, mode: str = "warn", report: str | os.PathLike | None = None):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.report_path = Path(report) if report else None
        self.records: dict[tuple, SiteRecord] = {}
        self.raised: dict[tuple, RaisedRecord] = {}
        self.accelerator_x64: list[SiteRecord] = []
        self.shim_errors: list[dict] = []
        self._lock = threading.Lock()

    # Filing.
    def file(self, key: tuple, record: SiteRecord) -> None:
        with self._lock:
            self.records[key] = record
        if record.observed.get("dtype") in _WIDE_DTYPES and record.observed.get("platform") not in (None, "cpu"):
            self.accelerator_x64.append(record)
            warnings.warn_explicit(f"{record.path}:{record.line}:{record.column}: `{_short(record.text)}` is a "
                                   f"{record.observed['dtype']} array on {record.observed['platform']}",
                                   AcceleratorX64Warning, record.path, record.line)  # fmt: skip
        if record.outcome == DISAGREE:
            if self.mode == "raise":
                raise PromotionMismatch(record)
            if self.mode == "warn":
                warnings.warn_explicit(record.message(), PromotionMismatchWarning, record.path, record.line)

    def file_raised(self, key: tuple, record: RaisedRecord) -> None:
        with self._lock:
            known = self.raised.get(key)
            if known is not None:
                known.count += 1
                return
            self.raised[key] = record

    def shim_error(self, what: str, error: BaseException) -> None:
        """Keep a failure of the shim, and say so; raise mode raises it."""
        entry = {"what": what, "error": f"{type(error).__name__}: {error}",
                 "traceback": "".join(traceback.format_exception(error))[-4000:]}  # fmt: skip
        with self._lock:
            self.shim_errors.append(entry)
        if self.mode == "raise":
            raise ShimError(f"promolint runtime: {what}: {entry['error']}") from error
        warnings.warn(f"promolint runtime: {what}: {entry['error']}", ShimWarning, stacklevel=3)

    # Reading.
    @property
    def mismatches(self) -> list[SiteRecord]:
        return [r for r in self.records.values() if r.outcome == DISAGREE]

    def counts(self) -> dict[str, int]:
        """Distinct (site, mode, arguments, run-time type) records per outcome, evaluations in all."""
        counts = Counter(r.outcome for r in self.records.values())
        raised = Counter(r.outcome for r in self.raised.values())
        return {
            AGREE: counts[AGREE] + raised[AGREE],
            DISAGREE: counts[DISAGREE] + raised[DISAGREE],
            UNKNOWN: counts[UNKNOWN],
            "evaluations": sum(r.count for r in self.records.values()),
            "shim_errors": len(self.shim_errors),
            "accelerator_x64": len(self.accelerator_x64),
        }

    def to_json(self) -> dict:
        return {
            "promolint_runtime_report": 1,
            "mode": self.mode,
            "counts": self.counts(),
            "mismatches": [asdict(r) for r in self.mismatches]
            + [asdict(r) for r in self.raised.values() if r.outcome == DISAGREE],
            "sites": [asdict(r) for r in self.records.values()],
            "raised": [asdict(r) for r in self.raised.values()],
            "accelerator_x64": [asdict(r) for r in self.accelerator_x64],
            "shim_errors": self.shim_errors,
        }

    def write_report(self, path: str | os.PathLike | None = None) -> Path | None:
        target = Path(path) if path else self.report_path
        if target is None:
            return None
        target.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return target

    def summary(self, limit: int = 20) -> str:
        counts = self.counts()
        lines = [f"promolint runtime: {counts[AGREE]} agree, {counts[DISAGREE]} disagree, {counts[UNKNOWN]} unknown "
                 f"({counts['evaluations']} evaluations checked)"]  # fmt: skip
        lines += [f"  disagree: {r.message()}" for r in self.mismatches[:limit]]
        lines += [f"  raised: {r.path}:{r.line}: {r.error} ({r.message[:100]}); predicted: "
                  f"{', '.join(r.predicted) or 'no refusal'}" for r in self.raised.values() if r.outcome == DISAGREE]
        lines += [f"  64-bit on {r.observed['platform']}: {r.path}:{r.line}:{r.column} `{_short(r.text)}`"
                  for r in self.accelerator_x64[:limit]]  # fmt: skip
        lines += [f"  shim error: {e['what']}: {e['error']}" for e in self.shim_errors[:limit]]
        return "\n".join(lines)


_reentry = threading.local()  # set while the shim works out a first sighting
_ACTIVE: contextvars.ContextVar[Session | None] = contextvars.ContextVar("promolint_session", default=None)
_default: Session | None = None


def default_session() -> Session:
    """The session outside every ``verifying()`` block: ``PROMOLINT_VERIFY_MODE`` (default
    warn) and ``PROMOLINT_VERIFY_REPORT`` configure it; ``promolint run`` and the pytest plugin
    replace it with :func:`set_default_session`."""
    global _default
    if _default is None:
        _default = Session(os.environ.get("PROMOLINT_VERIFY_MODE", "warn"), os.environ.get("PROMOLINT_VERIFY_REPORT"))
    return _default


def set_default_session(session: Session | None) -> None:
    global _default
    _default = session


@contextlib.contextmanager
def activated(session: Session) -> Iterator[Session]:
    """Make ``session`` the one checks go to, in this thread or task, inside the block."""
    token = _ACTIVE.set(session)
    try:
        yield session
    finally:
        _ACTIVE.reset(token)


def active_session() -> Session:
    return _ACTIVE.get() or default_session()


# --- instrumented source files --------------------------------------------------------------
class ModuleUnit:
    """One source file, instrumented and compiled once, and the predictions for its sites."""

    _by_path: dict[str, ModuleUnit] = {}
    _registry_lock = threading.Lock()

    def __init__(self, path: str, source: str, name: str = ""):
        from promolint.frontend.source import ParseFailure, parse_text

        self.path = path
        self.name = name
        parsed = parse_text(source)
        if isinstance(parsed, ParseFailure):
            raise SyntaxError(f"promolint: {path}:{parsed.line}: {parsed.message}")
        self.predictor = Predictor(parsed)
        texts = self.predictor.typed_spans()
        code, ids = instrument(source, texts.__contains__)
        self.spans: list[Span] = [ids[site] for site in range(len(ids))]
        self.texts = [texts[span] for span in self.spans]
        self.code = compile(code, path, "exec", dont_inherit=True)
        # Each site belongs to the innermost function around it, whose arguments type it.
        self.functions = [FunctionUnit(self, index, d) for index, d in enumerate(self.predictor.definitions())]
        self.owners: list[FunctionUnit | None] = [None] * len(self.spans)
        for function in sorted(self.functions, key=lambda f: (f.span[:2], (-f.span[2], -f.span[3]))):
            for site, span in enumerate(self.spans):
                if _contains(function.span, span):
                    self.owners[site] = function  # outer functions come first: the innermost stays
        self._predictions: dict[tuple, dict[Span, dict]] = {}
        self._lock = threading.Lock()

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

    # The hot path: one call per evaluated site.
    def check(self, site: int, value):
        try:
            kind = _KINDS.get(type(value)) or _kind(value)
            if kind == "python":
                fast: object = type(value)
            elif kind == "jax":
                dtype = value.dtype
                fast = (type(value), dtype, value.weak_type)
                if dtype in _wide_dtypes():  # where it lives matters only for these
                    fast += (device_platform(value),)
            elif kind in ("numpy", "cupy"):
                fast = (type(value), value.dtype)
            else:
                return value  # no dtype: nothing to compare
            session = _ACTIVE.get() or default_session()
            owner = self.owners[site]
            signature = owner.signature.get() if owner is not None else None
            jax = _MODULES.get("jax")  # current_mode(), inlined: this runs for every evaluation
            mode = _NO_JAX if jax is None else (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion == "strict")
            key = (id(self), site, mode, signature, fast)
            record = session.records.get(key)
            if record is not None:
                record.count += 1
                return value
            if getattr(_reentry, "busy", False):
                return value  # instrumented code the shim itself called (a user's dtype property)
            _reentry.busy = True
            try:
                if owner is not None and signature is None:  # no @verify call in progress: read the arguments
                    signature = owner.signature_in(sys._getframe(1))
                record = self._first_sight(site, value, owner, signature, mode)
            finally:
                _reentry.busy = False
        except Exception as error:  # noqa: BLE001 - the program's value stands; the failure is reported
            active_session().shim_error(f"checking {self._where(site)}", error)
            return value
        session.file(key, record)  # warns or raises: outside the guard, so it is never mistaken for a shim error
        return value

    def _first_sight(self, site: int, value, owner: FunctionUnit | None, signature: Signature | None,
                     mode: Mode) -> SiteRecord:  # fmt: skip
        observed = observe_value(value)
        predicted = self.prediction(site, mode, owner, signature)
        line, column, end_line, end_column = self.spans[site]
        arguments = ", ".join(f"{name}: {_describe(dict(zip(('dtype', 'weak', 'library'), t)))}"
                              for name, t in signature or ())  # fmt: skip
        return SiteRecord(self.path, line, column, end_line, end_column, self.texts[site], describe_mode(mode),
                          observed, predicted, judge(predicted, observed), arguments)  # fmt: skip

    def prediction(self, site: int, mode: Mode, owner: FunctionUnit | None, signature: Signature | None) -> dict:
        """The engine's description of a site in ``mode``: reveal's dtype/weak/library/error;
        within a function, with its parameters seeded by the call's argument types.  A site
        the analysis gives no value is unknown."""
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
            owner = self._owner_of_line(line)
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
        inside = [f for f in self.functions if f.span[0] <= line <= f.span[2]]
        return max(inside, key=lambda f: f.span[:2], default=None)

    def _where(self, site: int) -> str:
        line, column, _, _ = self.spans[site]
        return f"{self.path}:{line}:{column}"


def _contains(outer: Span, inner: Span) -> bool:
    return outer[:2] <= inner[:2] and inner[2:] <= outer[2:]


def _traceback(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


class FunctionUnit:
    """A function of a module unit, and the argument types its sites are predicted with: those
    of the ``@verify`` call in progress (``signature``), else those its frame's parameters hold
    when one of its sites is first seen with a type."""

    def __init__(self, unit: ModuleUnit, index: int, definition: Definition):
        self.unit = unit
        self.index = index
        self.node = definition.node
        self.name = definition.name
        self.first_line = definition.first_line
        self.span = definition.span
        self.parameters = definition.parameters
        self.positional = definition.positional
        self.rebound = definition.rebound
        self.signature: contextvars.ContextVar[Signature | None] = contextvars.ContextVar(
            f"promolint_signature_{self.name}", default=None
        )

    def signature_in(self, frame: types.FrameType | None) -> Signature:
        """The argument types held by this function's frame (the innermost one of ``frame``
        and its callers, past lambdas and comprehensions), for the parameters its body never
        assigns to."""
        while frame is not None:
            code = frame.f_code
            if code.co_name == self.name and code.co_firstlineno == self.first_line and code.co_filename == self.unit.path:
                arguments = frame.f_locals
                return _signature({name: arguments[name] for name in self.parameters
                                   if name in arguments and name not in self.rebound})  # fmt: skip
            frame = frame.f_back
        return ()

    def signature_of(self, args: tuple, kwargs: dict) -> Signature:
        """The argument types of a call, by parameter name."""
        bound = dict(zip(self.parameters[: self.positional], args))
        bound.update((k, v) for k, v in kwargs.items() if k in self.parameters)
        return _signature(bound)


def _signature(arguments: dict[str, object]) -> Signature:
    """Argument types by parameter name; arguments without a dtype are left to the front end
    (their annotation, default, or the module's calls)."""
    entries = []
    for name, value in arguments.items():
        if _kind(value) != "other":
            entry = argument_type(observe_value(value), getattr(value, "ndim", None))
            if entry is not None:
                entries.append((name, entry))
    return tuple(entries)

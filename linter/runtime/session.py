"""Where the shim's outcomes go: a :class:`Session` keeps one record per (site, JAX mode, argument
types, run-time type), warns or raises per its mode, counts, and writes the JSON report.

The active session is the innermost ``verifying()`` block's (a context variable, so per thread
or task), else the process's default, which ``promolint run`` and the pytest plugin set.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import threading
import traceback
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from promolint.core.files import write_atomically
from promolint.runtime import MODES, PREDICTIONS
from promolint.runtime.observe import WIDE_DTYPES

AGREE, DISAGREE, UNKNOWN, UNCHECKED = "agree", "disagree", "unknown", "unchecked"
ARRAY_LIBRARIES = frozenset({"numpy-array", "numpy-scalar", "jax", "cupy"})


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


# --- records ----------------------------------------------------------------------------------
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
        return (f"{where}: `{short(self.text)}` is {describe(self.observed)} at run time; promolint predicted "
                f"{describe(self.predicted)} ({self.jax_mode}{arguments})")  # fmt: skip


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


def describe(description: dict) -> str:
    """An observation or a prediction in words: ``weak float32 [jax]``, ``a TypePromotionError``."""
    if description.get("error"):
        return f"a {description['error']}"
    if description.get("dtype") is None:
        return "unknown"
    weak = "weak " if description.get("weak") else ""
    return f"{weak}{description['dtype']} [{description['library']}]"


def short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def judge(predicted: dict, observed: dict) -> str:
    """agree, disagree, unknown or unchecked, with reveal's rules: a candidate set holds when the
    value has one of its dtypes; a weak flag of None (candidates that disagree) accepts either.
    A value with no weak flag (an extended dtype: PRNG keys) is unchecked, whatever was
    predicted."""
    if observed.get("dtype") is not None and observed.get("weak") is None:
        return UNCHECKED
    if predicted.get("error"):
        return DISAGREE  # a value came where the engine predicted the operation raises
    if predicted.get("dtype") is None or predicted.get("variable") is not None:
        # "the dtype of x" for a parameter this record could not assign (a lambda's, another
        # function's): it says "as x is", which this value alone cannot check.
        return UNKNOWN
    matches = (
        observed["dtype"] in predicted["dtype"].split("|")
        and predicted["library"] in (None, observed["library"])  # None: any library
        and (predicted["weak"] is None or predicted["weak"] == observed["weak"])
    )
    return AGREE if matches else DISAGREE


# --- the session --------------------------------------------------------------------------------
class Session:
    """Where outcomes go: the innermost ``verifying()`` block, else the process's default.

    ``mode``: ``warn`` (a :class:`PromotionMismatchWarning` per disagreement), ``raise``
    (:class:`PromotionMismatch` at the first) or ``report`` (collect only); in any mode the
    JSON report goes to ``report`` when it is set.  ``predict``: ``arguments`` (a function's
    parameters typed from the arguments of each call) or ``code`` (from the code alone, as
    ``promolint check`` sees it)."""

    def __init__(self, mode: str = "warn", report: str | os.PathLike | None = None, predict: str = "arguments"):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if predict not in PREDICTIONS:
            raise ValueError(f"predict must be one of {', '.join(PREDICTIONS)}, not {predict!r}")
        self.mode = mode
        self.predict = predict
        self.report_path = Path(report) if report else None
        self.records: dict[tuple, SiteRecord] = {}
        self.raised: dict[tuple, RaisedRecord] = {}
        self.accelerator_x64: list[SiteRecord] = []
        self.shim_errors: list[dict] = []
        self._lock = threading.Lock()

    @property
    def from_arguments(self) -> bool:
        return self.predict == "arguments"

    # Filing.
    def file(self, key: tuple, record: SiteRecord) -> None:
        with self._lock:
            self.records[key] = record
        if record.observed.get("dtype") in WIDE_DTYPES and record.observed.get("platform") not in (None, "cpu"):
            self.accelerator_x64.append(record)
            warnings.warn_explicit(f"{record.path}:{record.line}:{record.column}: `{short(record.text)}` is a "
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
            UNCHECKED: counts[UNCHECKED],
            "evaluations": sum(r.count for r in self.records.values()),
            "shim_errors": len(self.shim_errors),
            "accelerator_x64": len(self.accelerator_x64),
        }

    def coverage(self) -> dict[str, int]:
        """Source sites (distinct spans) where a NumPy, JAX or CuPy array or scalar was seen
        (``array_sites``; PRNG keys and other unchecked values left out), and those of them
        that had a prediction (a dtype or a refusal) in every record (``predicted_sites``): no
        record judged unknown, so "the dtype of x" where x could not be given the call's type
        is no prediction.  With ``predict="code"`` their ratio is the run-time coverage of
        ``promolint check``."""
        predicted: dict[tuple, bool] = {}
        for record in self.records.values():
            if record.observed.get("library") not in ARRAY_LIBRARIES or record.outcome == UNCHECKED:
                continue
            site = (record.path, record.line, record.column, record.end_line, record.end_column)
            predicted[site] = predicted.get(site, True) and record.outcome != UNKNOWN
        return {"array_sites": len(predicted), "predicted_sites": sum(predicted.values())}

    def to_json(self) -> dict:
        return {
            "promolint_runtime_report": 1,
            "mode": self.mode,
            "predict": self.predict,
            "counts": self.counts(),
            "coverage": self.coverage(),
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
        write_atomically(target, json.dumps(self.to_json(), indent=1) + "\n")
        return target

    def summary(self, limit: int = 20) -> str:
        counts, coverage = self.counts(), self.coverage()
        lines = [f"promolint runtime: {counts[AGREE]} agree, {counts[DISAGREE]} disagree, {counts[UNKNOWN]} unknown, "
                 f"{counts[UNCHECKED]} unchecked ({counts['evaluations']} evaluations checked); predicted from the "
                 f"{self.predict}: {coverage['predicted_sites']} of {coverage['array_sites']} array sites"]  # fmt: skip
        lines += [f"  disagree: {r.message()}" for r in self.mismatches[:limit]]
        lines += [f"  raised: {r.path}:{r.line}: {r.error} ({r.message[:100]}); predicted: "
                  f"{', '.join(r.predicted) or 'no refusal'}" for r in self.raised.values() if r.outcome == DISAGREE]
        lines += [f"  64-bit on {r.observed['platform']}: {r.path}:{r.line}:{r.column} `{short(r.text)}`"
                  for r in self.accelerator_x64[:limit]]  # fmt: skip
        lines += [f"  shim error: {e['what']}: {e['error']}" for e in self.shim_errors[:limit]]
        return "\n".join(lines)


# --- which session is active --------------------------------------------------------------------
ACTIVE: contextvars.ContextVar[Session | None] = contextvars.ContextVar("promolint_session", default=None)
_default: Session | None = None


def default_session() -> Session:
    """The session outside every ``verifying()`` block: ``PROMOLINT_VERIFY_MODE`` (default
    warn), ``PROMOLINT_VERIFY_REPORT`` and ``PROMOLINT_VERIFY_PREDICT`` configure it; ``promolint
    run`` and the pytest plugin replace it with :func:`set_default_session`."""
    global _default
    if _default is None:
        _default = Session(os.environ.get("PROMOLINT_VERIFY_MODE", "warn"), os.environ.get("PROMOLINT_VERIFY_REPORT"),
                           os.environ.get("PROMOLINT_VERIFY_PREDICT", "arguments"))  # fmt: skip
    return _default


def set_default_session(session: Session | None) -> None:
    global _default
    _default = session


@contextlib.contextmanager
def activated(session: Session) -> Iterator[Session]:
    """Make ``session`` the one checks go to, in this thread or task, inside the block."""
    token = ACTIVE.set(session)
    try:
        yield session
    finally:
        ACTIVE.reset(token)


def active_session() -> Session:
    return ACTIVE.get() or default_session()

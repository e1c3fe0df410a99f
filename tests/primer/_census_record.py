"""What the census records while a project's code runs: every promotion error it raises and every
float32 value JAX promotes to float64, each at the innermost line of the project's package.

The census (census.py) runs this in a scratch venv with the project installed, so it imports
only JAX and the standard library, never promolint.  Kinds of record:

* an error whose type or message is one of JAX's refusals to promote (``ERROR_PATTERNS``):
  TypePromotionError (strict promotion), the lax and loop dtype TypeErrors, OverflowError on a
  Python int's conversion;
* ``f64 promotion``: ``convert_element_type`` from a float32 (or narrower float) operand to
  float64 that JAX's promotion asked for, not an explicit cast (``CAST_FUNCTIONS``).

A record's place is (path relative to the package's parent folder, line): ``quadax/utils.py``,
as ``promolint check`` run on the unpacked project names its files.
"""

from __future__ import annotations

import contextlib
import re
import sys
import traceback
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

# (kind, error type name, message pattern): the first that matches names the kind.  The loop and
# conditional messages are JAX 0.10's; the older "identical types" spellings are kept so that a
# project pinning an older JAX is read the same.
ERROR_PATTERNS = (
    ("strict", "TypePromotionError", r""),
    ("loop carry", "TypeError", r"body function carry input and carry output must have equal types"
                                r"|body_fun output and input must have identical types"),
    ("cond", "TypeError", r"(cond|switch) branches must have equal output types"
                          r"|(true_fun and false_fun|branch) outputs? must have identical types"),
    ("select", "TypeError", r"lax\.select(_n)? requires arguments to have the same dtypes"),
    ("dynamic_update_slice", "TypeError", r"lax\.dynamic_update_slice requires arguments to have the same dtypes"),
    ("scatter", "TypeError", r"lax\.scatter\w* requires arguments to have the same dtypes"),
    ("lax", "TypeError", r"lax\.\w+ requires arguments to have the same dtypes"),
    ("jvp", "TypeError", r"primal and tangent arguments to jax\.jvp do not match; dtypes must be equal"),
    ("overflow", "OverflowError", r"Python int(eger)? .*(out of bounds|too large)"),
)
F64_PROMOTION = "f64 promotion"
NARROW_FLOATS = ("float32", "float16", "bfloat16")
# The JAX functions whose conversion to float64 the caller asked for by naming a dtype.
CAST_FUNCTIONS = frozenset({"astype", "_astype", "asarray", "array", "convert_element_type"})


def error_kind(error: BaseException) -> str | None:
    """The census kind of a promotion error, None for any other exception."""
    for kind, type_name, pattern in ERROR_PATTERNS:
        if any(cls.__name__ == type_name for cls in type(error).__mro__) and re.search(pattern, str(error)):
            return kind
    return None


@dataclass
class Record:
    kind: str
    path: str
    line: int
    message: str
    cases: list[str] = field(default_factory=list)
    count: int = 0


@dataclass
class CaseOutcome:
    case: str
    error: str | None = None  # an exception that is no promotion error, or one raised outside the package
    float64_outputs: int = 0


class Recorder:
    """Records promotion errors and float64 promotions of one run, keyed by their place."""

    def __init__(self, package_dir: Path) -> None:
        self.package_dir = package_dir.resolve()
        self.records: dict[tuple[str, str, int], Record] = {}
        self.outcomes: list[CaseOutcome] = []
        self.casts = 0  # explicit float64 casts of float32 values: seen, not census lines
        self._case = ""

    def place(self, filename: str, line: int) -> tuple[str, int] | None:
        path = Path(filename).resolve()
        if not path.is_relative_to(self.package_dir):
            return None
        return path.relative_to(self.package_dir.parent).as_posix(), line

    def _add(self, kind: str, where: tuple[str, int], message: str) -> None:
        record = self.records.setdefault((kind, *where), Record(kind, *where, message=message[:400]))
        record.count += 1
        if self._case not in record.cases:
            record.cases.append(self._case)

    def record_exception(self, error: BaseException) -> bool:
        """Records the promotion error in the exception or its causes, at its innermost frame in
        the package; False when there is none (or it was raised outside the package)."""
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            kind = error_kind(current)
            if kind is not None:
                where = None
                for frame, line in traceback.walk_tb(current.__traceback__):
                    where = self.place(frame.f_code.co_filename, line) or where
                if where is not None:
                    self._add(kind, where, f"{type(current).__name__}: {current}")
                    return True
            current = current.__cause__ or current.__context__
        return False

    @contextlib.contextmanager
    def case(self, name: str) -> Iterator[CaseOutcome]:
        """Runs one case with float64 promotions watched; a promotion error it raises is
        recorded, any other is kept as the case's error (the harness, not the project, failed)."""
        self._case = name
        outcome = CaseOutcome(name)
        self.outcomes.append(outcome)
        try:
            with self._watch_promotions():
                yield outcome
        except Exception as error:  # noqa: BLE001 - every failure of a case is reported, none stops the census
            if not self.record_exception(error):
                outcome.error = f"{type(error).__name__}: {str(error)[:300]}"

    @contextlib.contextmanager
    def _watch_promotions(self) -> Iterator[None]:
        from jax._src.lax import lax as lax_internal

        primitive = lax_internal.convert_element_type_p
        original = primitive.bind

        def bind(operand, *args, **params):
            source = str(getattr(operand, "dtype", ""))
            if source in NARROW_FLOATS and str(params.get("new_dtype")) == "float64":
                self._note_float64(sys._getframe(1))
            return original(operand, *args, **params)

        primitive.bind = bind
        try:
            yield
        finally:
            del primitive.bind  # the class's method again

    def _note_float64(self, frame) -> None:
        callee = None
        while frame is not None:
            where = self.place(frame.f_code.co_filename, frame.f_lineno)
            if where is not None:
                if callee in CAST_FUNCTIONS:
                    self.casts += 1
                else:
                    self._add(F64_PROMOTION, where, f"float32 promoted to float64 in {callee or 'a JAX call'}")
                return
            callee = frame.f_code.co_name
            frame = frame.f_back

    def report(self) -> dict:
        return {"records": [asdict(r) for r in self.records.values()],
                "cases": [asdict(o) for o in self.outcomes], "casts": self.casts}  # fmt: skip

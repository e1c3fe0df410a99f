"""The NumPy system's facts, measured on the NumPy and ml_dtypes installed beside promolint.

NumPy and ml_dtypes are promolint's own dependencies, and how NumPy's operators promote ml_dtypes'
types changes between their releases (ml_dtypes 0.7 makes ``bfloat16 + 1.0`` bfloat16, 0.6 made
it float32).  So the NumPy system's tables are measured on the installed versions: once per
(promolint, NumPy, ml_dtypes) version, by calling NumPy, and kept as JSON in the user's cache
folder (``$XDG_CACHE_HOME/promolint``).  A later run reads the file and never imports NumPy.

The versions are read from the installed packages' metadata, which costs no import.  Where the
measurement cannot run (NumPy fails to import), the shipped facts (measured on NumPy 2.4.6 with
ml_dtypes 0.6.0, ``promolint.systems.numpy``) stand in.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from promolint import __version__
from promolint.core.dtypes import DTYPES, NUMPY_NATIVE
from promolint.core.files import write_atomically
from promolint.systems import installed

NO_RESULT = "-"  # NumPy raises (DTypePromotionError, UFuncTypeError): both are TypeErrors
_FORMAT = 4  # 2: where_checks_python_ints; 3: refused; 4: intn_methods
# Functions whose refusals of ml_dtypes' types depend on the installed versions (np.var of uint2
# raises UFuncTypeError with ml_dtypes 0.7, not with 0.6): measured here, not in the engine's table.
MEASURED_REFUSALS = ("var", "std")
# Array methods that ml_dtypes' narrow ints may lack a loop for (int4.conjugate() computes in int8
# with ml_dtypes 0.6, in int4 with 0.7).
INTN_METHODS = ("round", "conj", "conjugate")
# The exception classes refusals are reported as (NumPy's UFuncTypeError is a TypeError).
_ERRORS = (TypeError, ValueError, OverflowError, NotImplementedError)
# A Python value standing for each weak node: what the operator tables are measured with.
_PYTHON_VALUES = {"i*": 1, "f*": 1.0, "c*": 1j}
# np.result_type of an ml_dtypes type and a Python value, keyed by the dtype the value stands for.
_PYTHON_KIND_VALUES = {"bool": True, "int64": 1, "float64": 1.0, "complex128": 1j}

MEASURED, CACHED, SHIPPED = "measured", "cached", "shipped"


@dataclass(frozen=True)
class NumpyFacts:
    """What NumPy does with each dtype promolint knows, measured on one NumPy and ml_dtypes.

    Tables are keyed by pairs of nodes (a dtype, or a weak node ``i*``/``f*``/``c*`` for a
    Python int, float or complex value); a cell is the result's dtype, or ``-`` where NumPy raises.
    """

    numpy_version: str
    ml_dtypes_version: str
    safe_casts: Mapping[str, frozenset[str]]  # np.can_cast(a, b, "safe"), itself included
    loops: tuple[str, ...]  # np.add's loops of one dtype, in NumPy's order
    add: Mapping[tuple[str, str], str]  # ``a + b`` of arrays or a Python value
    true_divide: Mapping[tuple[str, str], str]  # ``a / b``
    promote_types: Mapping[tuple[str, str], str]  # np.promote_types of two dtypes
    with_python: Mapping[tuple[str, str], str]  # np.result_type(ml_dtypes type, Python value)
    # np.where(c, 1000, int8 array) raises OverflowError, as the ufuncs do (NumPy 2.5), or wraps (2.4)
    where_checks_python_ints: bool = False
    # MEASURED_REFUSALS' functions of an array of each dtype: the exception raised -> the dtypes raising it
    refused: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)
    # INTN_METHODS of an int4 array that give another dtype: that dtype
    intn_methods: Mapping[str, str] = field(default_factory=dict)
    source: str = field(default=SHIPPED, compare=False)  # measured now, read from the cache, or shipped

    @property
    def dtypes(self) -> list[str]:
        return list(self.safe_casts)

    def describe(self) -> str:
        return f"numpy {self.numpy_version}, ml_dtypes {self.ml_dtypes_version} ({self.source})"

    def to_json(self) -> dict:
        pairs = {name: {f"{a},{b}": cell for (a, b), cell in getattr(self, name).items()}
                 for name in ("add", "true_divide", "promote_types", "with_python")}  # fmt: skip
        return {"format": _FORMAT, "numpy": self.numpy_version, "ml_dtypes": self.ml_dtypes_version,
                "safe_casts": {a: sorted(b) for a, b in self.safe_casts.items()}, "loops": list(self.loops),
                "where_checks_python_ints": self.where_checks_python_ints,
                "refused": {name: {error: sorted(dtypes) for error, dtypes in errors.items()}
                            for name, errors in self.refused.items()},
                "intn_methods": dict(self.intn_methods), **pairs}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict, source: str) -> NumpyFacts:
        """Raises KeyError, TypeError or ValueError on a file that is not such facts."""
        if data["format"] != _FORMAT:
            raise ValueError("another format")

        def pairs(name: str) -> dict[tuple[str, str], str]:
            return {tuple(key.split(",")): str(cell) for key, cell in data[name].items()}  # type: ignore[misc]

        return cls(str(data["numpy"]), str(data["ml_dtypes"]),
                   {a: frozenset(b) for a, b in data["safe_casts"].items()}, tuple(data["loops"]),
                   pairs("add"), pairs("true_divide"), pairs("promote_types"), pairs("with_python"),
                   bool(data["where_checks_python_ints"]),
                   {name: {error: frozenset(dtypes) for error, dtypes in errors.items()}
                    for name, errors in data["refused"].items()},
                   {str(method): str(dtype) for method, dtype in data["intn_methods"].items()}, source)  # fmt: skip


def installed_versions() -> tuple[str, str] | None:
    """The installed NumPy's and ml_dtypes' versions, from their metadata (nothing is imported)."""
    found = installed.versions(sys.path, ("numpy", "ml_dtypes"))
    return (found["numpy"], found["ml_dtypes"]) if len(found) == 2 else None


def cache_folder() -> Path:
    """The user's cache folder for promolint, as each platform names it."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "promolint"


def installed_facts(shipped: Callable[[], NumpyFacts], folder: Path | None = None) -> NumpyFacts:
    """The facts of the installed NumPy and ml_dtypes: cached, else measured now and cached
    (a cache that cannot be written only costs the measurement next time), else ``shipped()``."""
    versions = installed_versions()
    if versions is None:
        return shipped()
    path = (folder or cache_folder()) / f"numpy-facts-{__version__}-{versions[0]}-{versions[1]}.json"
    try:
        return NumpyFacts.from_json(json.loads(path.read_text(encoding="utf-8")), CACHED)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # absent or damaged: measure again
    try:
        facts = measure()
    except Exception:  # noqa: BLE001 - a broken NumPy must not stop the linter: the shipped facts stand in
        return shipped()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(facts.to_json(), separators=(",", ":")))
    except OSError:
        pass
    return facts


def measure() -> NumpyFacts:
    """Every table, computed by calling the installed NumPy (imported here, and only here)."""
    import ml_dtypes
    import numpy as np

    dtypes = {name: np.dtype(name if name in NUMPY_NATIVE else getattr(ml_dtypes, name))
              for name in DTYPES if name in NUMPY_NATIVE or hasattr(ml_dtypes, name)}  # fmt: skip
    values = {**{name: np.ones(2, dtype) for name, dtype in dtypes.items()}, **_PYTHON_VALUES}

    def says(compute: Callable[[], object]) -> str:
        try:
            result = compute()
        except TypeError:
            return NO_RESULT
        return result.name if isinstance(result, np.dtype) else np.asarray(result).dtype.name

    operand_pairs = [(a, b) for a, b in itertools.product(values, repeat=2) if a in dtypes or b in dtypes]
    homogeneous = [np.dtype(types[0]).name for types in np.add.types if len(set(types.replace("->", ""))) == 1]
    with np.errstate(all="ignore"):
        return NumpyFacts(
            np.__version__,
            ml_dtypes.__version__,
            {a: frozenset(b for b in dtypes if np.can_cast(dtypes[a], dtypes[b], "safe")) for a in dtypes},
            tuple(dict.fromkeys(name for name in homogeneous if name in dtypes)),
            {(a, b): says(lambda: values[a] + values[b]) for a, b in operand_pairs},
            {(a, b): says(lambda: values[a] / values[b]) for a, b in operand_pairs},
            {(a, b): says(lambda: np.promote_types(dtypes[a], dtypes[b]))
             for a, b in itertools.product(dtypes, repeat=2)},
            {(name, python): says(lambda: np.result_type(dtypes[name], value))
             for name in dtypes if name not in NUMPY_NATIVE for python, value in _PYTHON_KIND_VALUES.items()},
            _raises_overflow(lambda: np.where(True, 1000, np.ones(1, np.int8))),
            {name: _refusals(getattr(np, name), {d: np.ones(3, dtype) for d, dtype in dtypes.items()})
             for name in MEASURED_REFUSALS},
            {method: dtype for method in INTN_METHODS
             for dtype in [says(lambda: getattr(np.ones(3, dtypes["int4"]), method)())] if dtype != "int4"},
            MEASURED,
        )  # fmt: skip


def _raises_overflow(compute: Callable[[], object]) -> bool:
    try:
        compute()
    except OverflowError:
        return True
    return False


def _refusals(function: Callable[[object], object], arrays: Mapping[str, object]) -> dict[str, frozenset[str]]:
    raised: dict[str, set[str]] = {}
    for name, array in arrays.items():
        try:
            function(array)
        except _ERRORS as error:
            raised.setdefault(next(e.__name__ for e in _ERRORS if isinstance(error, e)), set()).add(name)
    return {error: frozenset(dtypes) for error, dtypes in raised.items()}

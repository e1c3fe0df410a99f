"""What a run-time value is, for the shim: its dtype, weak flag, library and device.

:func:`observe` describes one value the way ``promolint reveal`` describes an inferred one: dtype
(NumPy name, or ``int``/``float``/``complex``/``bool`` for Python scalars), weak flag, library
(``python``, ``numpy-scalar``, ``numpy-array``, ``jax``).  :func:`observe_value` adds CuPy arrays
and the device ``platform``.  The hot path reads values through :func:`kind_of`, decided once per
type.

Some values have a dtype and no weak flag: JAX's extended dtypes (PRNG key arrays from
``jax.random.key``, whose dtype is ``key<fry>``) and ``float0`` (the gradient of an integer).
The engine predicts none of them; :func:`unchecked` says which they are, and the shim files them
as *unchecked* instead of comparing.

Nothing here imports JAX or NumPy: a value is recognised as a JAX array only when ``jax`` is
already in ``sys.modules`` (a NumPy-only program never loads it).
"""

from __future__ import annotations

import functools
import sys

Mode = tuple[bool, bool]  # (x64, strict): the JAX modes a value was made in
NO_JAX: Mode = (False, False)  # NumPy's promotion does not depend on JAX's modes
WIDE_DTYPES = frozenset({"float64", "int64", "uint64", "complex128"})  # slow or emulated on accelerators

_PYTHON_SCALARS = {bool: "bool", int: "int", float: "float", complex: "complex"}
_MODULES = sys.modules


# --- one value, described -------------------------------------------------------------------
def observe(value: object) -> dict:
    """``{dtype, weak, library, error: None}`` for a run-time value; dtype None for values that
    have none (lists, modules, functions, dtype objects ...); weak None for a JAX value of an
    extended dtype, which has no weak flag to compare."""
    jax = _MODULES.get("jax")
    if jax is not None and isinstance(value, jax.Array):  # concrete arrays and tracers alike
        if unchecked(value.dtype):
            return _record(_dtype_name(value.dtype), None, "jax")
        weak = getattr(value, "weak_type", None)
        if weak is None:
            weak = jax.typeof(value).weak_type
        return _record(_dtype_name(value.dtype), bool(weak), "jax")
    np = _MODULES.get("numpy")
    if np is not None:
        # Before the Python types: np.float64 subclasses float, np.bool_ does not subclass bool.
        if isinstance(value, np.ndarray):
            return _record(_dtype_name(value.dtype), False, "numpy-array")
        if isinstance(value, np.generic):
            return _record(_dtype_name(value.dtype), False, "numpy-scalar")
    for kind, name in _PYTHON_SCALARS.items():
        if type(value) is kind:
            return _record(name, kind is not bool, "python")
    if isinstance(value, (int, float, complex)) and not isinstance(value, bool):
        kind = next(k for k in (int, float, complex) if isinstance(value, k))  # IntEnum and the like
        return _record(_PYTHON_SCALARS[kind], True, "python")
    return _record(None, None, None)


def describe_error(error: BaseException) -> dict:
    """An exception as an observation: its class name, the names of its classes up the MRO
    (NumPy's ``_UFuncOutputCastingError`` is a ``TypeError``; JAX's ``TypePromotionError`` a
    ``ValueError``) and the first line of its message."""
    text = str(error)
    return {
        "dtype": None,
        "weak": None,
        "library": None,
        "error": type(error).__name__,
        "classes": [cls.__name__ for cls in type(error).__mro__ if cls not in (BaseException, object)],
        "message": text.splitlines()[0][:300] if text else "",
    }


def unchecked(dtype: object) -> bool:
    """Whether values of ``dtype`` are beyond comparison: JAX's extended dtypes (PRNG keys), which
    are not NumPy dtypes, and ``float0``, a structured one (ml_dtypes' types are plain)."""
    np = _MODULES.get("numpy")
    return np is not None and (not isinstance(dtype, np.dtype) or dtype.names is not None)


def _dtype_name(dtype: object) -> str:
    name = getattr(dtype, "name", None)
    return name if isinstance(name, str) else str(dtype)


def _record(dtype: str | None, weak: bool | None, library: str | None) -> dict:
    return {"dtype": dtype, "weak": weak, "library": library, "error": None}


# --- the hot path's view: what kind of value a type holds -------------------------------------
# Decided once per type: JAX tracers are JAX arrays only by isinstance (jax.Array's
# __instancecheck__), so the first instance of each type decides.
KINDS: dict[type, str] = {}


def kind_of(value: object) -> str:
    """``jax``, ``numpy``, ``cupy``, ``python`` or ``other`` (no dtype)."""
    kind = KINDS.get(type(value))
    if kind is None:
        kind = KINDS[type(value)] = _classify(value)
    return kind


def _classify(value: object) -> str:
    jax, numpy, cupy = (_MODULES.get(name) for name in ("jax", "numpy", "cupy"))
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
    """:func:`observe` plus CuPy arrays (library ``cupy``), and the device ``platform`` the value
    lives on (None for a tracer, which has none yet)."""
    if kind_of(value) == "cupy":
        observed = {"dtype": value.dtype.name, "weak": False, "library": "cupy", "error": None}
    else:
        observed = observe(value)
    return {**observed, "platform": device_platform(value)}


def device_platform(value: object) -> str | None:
    """``cpu``, ``gpu`` or ``tpu``: where an array's data lives.  JAX arrays say through
    ``devices()`` (a tracer raises: it is placed only when the computation runs); CuPy arrays
    live on a GPU; NumPy values and Python scalars in host memory."""
    kind = kind_of(value)
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
def wide_dtypes() -> frozenset:
    """The 64-bit dtypes as NumPy dtype objects: comparing those is fast, ``dtype.name`` is not."""
    import numpy

    return frozenset(numpy.dtype(name) for name in WIDE_DTYPES)


def current_mode() -> Mode:
    """The JAX modes in force now: ``jax_enable_x64`` and strict promotion."""
    jax = _MODULES.get("jax")
    if jax is None:
        return NO_JAX
    return (jax.config.jax_enable_x64, jax.config.jax_numpy_dtype_promotion == "strict")

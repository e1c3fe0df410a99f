"""The families of call semantics that only whole-file runs reached: FFTs, decompositions,
``jax.lax``, index sequences, reductions to real values, activations computed with a Python scalar,
JAX's weak predicates and comparison functions.  Each case is one call, given to the engine
(``promolint.engine.calls.call_function``) and run on the installed NumPy and JAX with the same
arguments, in both x64 modes: the engine's dtype (and JAX's weak flag) is what running it gives,
and a refusal is the exception it raises."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from promolint.engine import calls
from promolint.engine.context import Context
from promolint.engine.values import Array, DTypeRef, Items, Library, Refusal, Value, array, python_scalar


@dataclass(frozen=True)
class Arg:
    """One argument, made the same way for the engine and for the real call: an array of
    ``library`` ('jax' or 'numpy') and ``dtype`` with ``ndim`` dimensions (3 long each; None:
    a rank the engine is not told, 0-d in the real call), or a Python scalar or a tuple of them
    (``library`` 'python', ``literal`` its value)."""

    library: str
    dtype: str = ""
    ndim: int | None = 1
    literal: object = None

    def engine(self) -> Value:
        if self.library == "python" and type(self.literal) is tuple:
            return Items(tuple(python_scalar(type(v).__name__, v) for v in self.literal), is_tuple=True)
        if self.library == "python":
            return python_scalar(type(self.literal).__name__, self.literal)
        library = Library.JAX if self.library == "jax" else Library.NUMPY_ARRAY
        return array(self.dtype, library, ndim=self.ndim)

    def real(self):
        if self.library == "python":
            return self.literal
        ones = jnp.ones if self.library == "jax" else np.ones
        return ones((3,) * (self.ndim or 0), self.dtype)


def jx(dtype: str, ndim: int | None = 1) -> Arg:
    return Arg("jax", dtype, ndim)


def npy(dtype: str, ndim: int = 1) -> Arg:
    return Arg("numpy", dtype, ndim)


def py(literal: object) -> Arg:
    return Arg("python", literal=literal)


def _function(qualname: str):
    module, _, name = qualname.rpartition(".")
    if module.endswith((".linalg", ".fft")) and module.startswith(("numpy", "jax.numpy")):
        head, _, sub = module.rpartition(".")
        return getattr(getattr(importlib.import_module(head), sub), name)
    return getattr(importlib.import_module(module), name)


def _described(value) -> object:
    """What a result is, comparable between the engine's value and a real one: per array its
    dtype and, for JAX arrays, its weak flag; a tuple of those for several arrays."""
    if isinstance(value, Items):
        return tuple(_described(item) for item in value.items)
    if isinstance(value, (tuple, list)):
        return tuple(_described(item) for item in value)
    if isinstance(value, Refusal):
        return ("raises", value.error)
    if isinstance(value, Array):
        assert len(value.dtypes) == 1, value
        (dtype,) = value.dtypes
        return (dtype, value.weak) if value.library is Library.JAX else (dtype,)
    if isinstance(value, jax.Array):
        return (value.dtype.name, value.weak_type)
    return (np.asarray(value).dtype.name,)


def _real(qualname: str, args: tuple[Arg, ...], x64: bool) -> object:
    with jax.enable_x64(x64):
        try:
            return _described(_function(qualname)(*(a.real() for a in args)))
        except (TypeError, ValueError, NotImplementedError) as error:
            return ("raises", type(error).__name__)


def _engine(qualname: str, args: tuple[Arg, ...], x64: bool) -> object:
    value, _ = calls.call_function(qualname, [a.engine() for a in args], {}, Context(x64=x64))
    return _described(value)


CASES = [
    # spectral: complex of the input's precision; rfft of real input only; irfft real
    ("jax.numpy.fft.fft", (jx("float32"),)),
    ("jax.numpy.fft.fft", (jx("int8"),)),
    ("jax.numpy.fft.irfft", (jx("complex64"),)),
    ("numpy.fft.rfft", (npy("float32"),)),
    ("numpy.fft.ifft", (npy("int16"),)),
    # decompositions: the parts in the input's float dtype or its real dtype
    ("jax.numpy.linalg.eigh", (jx("float32", 2),)),
    ("jax.numpy.linalg.svd", (jx("complex64", 2),)),
    ("numpy.linalg.slogdet", (npy("float32", 2),)),
    ("numpy.linalg.qr", (npy("int32", 2),)),
    ("jax.numpy.linalg.inv", (jx("float16", 2),)),
    # jax.lax: one dtype, no promotion; the result's weak flag as the operation gives it
    ("jax.lax.add", (jx("int8"), jx("int32"))),
    ("jax.lax.add", (jx("float32"), jx("float32"))),
    ("jax.lax.complex", (jx("float32"), jx("float32"))),
    ("jax.lax.lt", (jx("int16"), jx("int16"))),
    ("jax.lax.dynamic_update_slice", (jx("float32"), jx("float32"), py((0,)))),
    ("jax.lax.select", (jx("bool"), jx("float32"), py(0.0))),
    ("jax.lax.select", (jx("float32"), jx("float32"), jx("float32"))),
    ("jax.lax.select_n", (jx("int32"), jx("int16"), jx("int16"))),
    ("jax.lax.clamp", (py(0), jx("int32"), jx("int32"))),
    # index sequences: the default int of the mode
    ("jax.numpy.tril_indices", (py(3),)),
    ("numpy.triu_indices", (py(3),)),
    ("jax.numpy.argwhere", (jx("float32", 2),)),
    ("numpy.flatnonzero", (npy("float32", 2),)),
    # reductions: the spread of complex values is real; counts in the default int
    ("jax.numpy.var", (jx("complex64"),)),
    ("numpy.std", (npy("complex64"),)),
    ("jax.numpy.bincount", (jx("int8"),)),
    ("numpy.bincount", (npy("uint8"),)),
    ("jax.numpy.argmax", (jx("bfloat16"),)),
    # activations computed with a Python scalar: promoted with it, made inexact by softplus
    ("jax.nn.relu", (jx("int8"),)),
    ("jax.nn.relu6", (jx("int8"),)),
    ("jax.nn.softplus", (jx("bool"),)),
    ("jax.nn.gelu", (py(1.0),)),
    # weak flags that do not follow promotion
    ("jax.numpy.heaviside", (py(1.5), jx("float16"))),
    ("jax.numpy.heaviside", (py(1.5), jx("int8"))),
    ("jax.numpy.heaviside", (py(1.5), jx("bool"))),
    ("jax.numpy.heaviside", (py(2), py(1.5))),
    ("jax.numpy.heaviside", (jx("float16"), py(1.5))),
    ("jax.numpy.isnan", (py(2.0),)),
    ("jax.numpy.isinf", (py(2.0),)),
    ("jax.numpy.logical_and", (py(1), py(2))),
    # comparison functions are their operators
    ("jax.numpy.less", (py(1), py(2.5))),
    ("jax.numpy.greater_equal", (jx("int8"), py(1.5))),
    ("numpy.not_equal", (npy("uint8"), py(300))),
    ("jax.numpy.nan_to_num", (py(1.5),)),
    ("jax.numpy.nan_to_num", (py(1),)),
    # creation and atleast: the requested or default dtype, the input's kept
    ("jax.numpy.atleast_2d", (jx("uint16", 0),)),
    ("jax.numpy.identity", (py(3),)),
    ("numpy.identity", (py(3),)),
    # jnp.arange of 0-d NumPy and JAX bounds: a strong array of the dtype JAX promotes them to
    ("jax.numpy.arange", (npy("int64", 0),)),
    ("jax.numpy.arange", (npy("uint64", 0),)),
    ("jax.numpy.arange", (py(1), npy("int8", 0))),
    ("jax.numpy.arange", (npy("uint8", 0), jx("int8", 0))),
    ("jax.numpy.arange", (npy("float16", 0), npy("int64", 0))),
    ("jax.numpy.arange", (jx("int8", 0), py(2.5))),
    ("jax.numpy.arange", (py(1), jx("bool", 0))),
    ("jax.numpy.arange", (jx("float32", 1),)),
    # a bound of unknown rank (`jnp.ceil(w).astype(int)`) is 0-d where arange runs
    ("jax.numpy.arange", (jx("int32", None),)),
    ("jax.numpy.arange", (jx("int8", None), jx("int32", None))),
]


@pytest.mark.parametrize("x64", [False, True], ids=["x64-off", "x64-on"])
@pytest.mark.parametrize(("qualname", "args"), CASES)
def test_a_call_gives_what_running_it_gives(qualname: str, args: tuple[Arg, ...], x64: bool) -> None:
    assert _engine(qualname, args, x64) == _real(qualname, args, x64)


RESULT_TYPES = [
    (jx("float16"), jx("bfloat16")),
    (jx("float32"), py(1.0)),
    (jx("int8"), npy("uint8")),
    (npy("float64", 0), py(2)),
    (jx("bool"), py(1)),
    (jx("int32"), jx("float16"), py(1j)),
]


@pytest.mark.parametrize("x64", [False, True], ids=["x64-off", "x64-on"])
@pytest.mark.parametrize("args", RESULT_TYPES)
def test_jax_dtypes_result_type_is_the_dtype_running_it_gives(args: tuple[Arg, ...], x64: bool) -> None:
    """``jax.dtypes.result_type`` (ott's fixed-point loop, neural-tangents' empirical kernels): the
    dtype JAX promotes its arguments to, narrowed with x64 off."""
    value, _ = calls.call_function("jax.dtypes.result_type", [a.engine() for a in args], {}, Context(x64=x64))
    with jax.enable_x64(x64):
        real = jax.dtypes.result_type(*(a.real() for a in args))
    assert isinstance(value, DTypeRef) and value.name == np.dtype(real).name

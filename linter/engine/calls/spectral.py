"""``fft``: discrete Fourier transforms compute in the complex type of their input's float
precision and give it ('complex'), or the real one of it ('real': ``irfft``).  Measured on jax
0.10.2 and numpy 2.4.6: JAX computes in complex64 at least (``irfft`` of float16 is float32)
and its ``rfft`` refuses float16, bfloat16 and complex input (ValueError); NumPy keeps float16
(``np.fft.irfft`` of float16 is float16, ``np.fft.fft`` of it complex64), makes integers and
bools float64, and its ``rfft`` refuses complex input (TypeError).  Results are strong."""

from __future__ import annotations

from collections.abc import Callable

from promolint.core.dtypes import CUSTOM_FLOATS, DTYPES, INTN
from promolint.engine import operations
from promolint.engine.calls.binding import display_name
from promolint.engine.calls.conversions import REAL_OF, reduced_inputs
from promolint.engine.catalog import Spectrum
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Library, Refusal, Value

_COMPLEX_OF = {"float16": "complex64", "float32": "complex64", "float64": "complex128", "bfloat16": "complex64",
               "complex64": "complex64", "complex128": "complex128"}  # fmt: skip
_RFFT_REFUSES = {Library.JAX: ("ValueError", frozenset({"float16", "bfloat16", "complex64", "complex128"})),
                 Library.NUMPY_ARRAY: ("TypeError", frozenset({"complex64", "complex128"}))}  # fmt: skip


def _fft(call: Call) -> Value:
    inputs = reduced_inputs(call)
    if not inputs or not inputs[0].dtypes:
        return UNKNOWN
    source = inputs[0]
    library = Library.JAX if call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    if source.dtypes & INTN or source.dtypes & (CUSTOM_FLOATS - {"bfloat16"}):
        return UNKNOWN  # ml_dtypes' narrow types: not measured
    if library is Library.JAX:
        floats = operations.to_inexact(source, Library.JAX).dtypes
    else:
        floats = frozenset("float64" if DTYPES[d].kind in "biu" else d for d in source.dtypes)
        if "bfloat16" in floats:
            return UNKNOWN
    if call.fn.spectrum is Spectrum.RFFT:
        error, refused = _RFFT_REFUSES[library]
        if floats <= refused:
            return Refusal(error, f"{display_name(call.name)} does not accept {'|'.join(sorted(floats))} input")
        if floats & refused:
            return Array(frozenset(), library, None)
    if call.fn.spectrum is Spectrum.REAL and library is Library.NUMPY_ARRAY:
        dtypes = frozenset(REAL_OF.get(d, d) for d in floats)
    else:
        dtypes = frozenset(_COMPLEX_OF[d] for d in floats)
        if call.fn.spectrum is Spectrum.REAL:
            dtypes = frozenset(REAL_OF[d] for d in dtypes)
    return Array(dtypes, library, False, ndim=source.rank)


SEMANTICS: dict[str, Callable[[Call], Value]] = {"fft": _fft}

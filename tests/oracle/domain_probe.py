"""Measure which dtypes each NumPy/JAX function and operator refuses, and print it as JSON.

For every catalogued elementwise function, reduction and contraction of ``numpy`` and
``jax.numpy``, every operator of NumPy arrays, NumPy scalars, JAX arrays and Python scalars, and
every dtype either library can build, it records the exception class the call raises (None
where it runs). Binary functions get two operands of the same dtype: what is measured is the
domain of the promoted dtype. JAX's calls are lowered, not run: some refusals (``jnp.argmax``
of complex values) come from lowering, which ``jax.eval_shape`` skips, and none needs a kernel
compiled per dtype. Run with x64 on, so that JAX's 64-bit dtypes exist. ``tests/oracle/test_domains.py`` compares the result with the engine's table.
"""

from __future__ import annotations

import json
import operator
import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from promolint.core.dtypes import DTYPES, NUMPY_NATIVE

# float6 arrays cannot be created and int1/uint1 ones fail to lower on CPU (jax_probe.py).
NOT_CREATABLE = {"float6_e2m3fn", "float6_e3m2fn", "uint1", "int1"}
DTYPE_NAMES = [name for name in DTYPES if name not in NOT_CREATABLE]

UNARY = (
    "sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh "
    "arctanh deg2rad rad2deg degrees radians negative positive square conjugate conj sign absolute abs floor ceil "
    "trunc rint isnan isinf isfinite signbit logical_not isneginf isposinf"
).split()
BINARY = (
    "add subtract multiply floor_divide mod remainder power maximum minimum fmax fmin bitwise_and bitwise_or "
    "bitwise_xor left_shift right_shift true_divide divide arctan2 hypot logaddexp logaddexp2 copysign heaviside "
    "equal not_equal less less_equal greater greater_equal logical_and logical_or logical_xor isclose "
    "matmul dot inner vdot outer kron"
).split()
TERNARY = ["clip"]
REDUCTIONS = "argmax argmin max min sum prod mean std var cumsum cumprod".split()
BINARY_OPERATORS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<<": operator.lshift, ">>": operator.rshift, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge,
}  # fmt: skip
UNARY_OPERATORS = {"-x": operator.neg, "+x": operator.pos, "~x": operator.invert, "abs(x)": abs}
FUNCTIONS = [*((f, 1) for f in UNARY), *((f, 2) for f in BINARY), *((f, 3) for f in TERNARY),
             *((f, 1) for f in REDUCTIONS)]  # fmt: skip
PYTHON_VALUES = {"bool": True, "int64": 7, "float64": 1.5, "complex128": 1j}


def numpy_dtype(name: str) -> np.dtype:
    return np.dtype(name if name in NUMPY_NATIVE else getattr(ml_dtypes, name))


def refusal(compute) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compute()
    except Exception as error:  # the class is the data; the test decides what it means
        return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")
    return None


def calls(function, arity: int, value) -> object:
    return function(*[value] * arity)


def measure_numpy() -> dict[str, dict[str, str | None]]:
    out: dict[str, dict[str, str | None]] = {}
    for name in DTYPE_NAMES:
        dtype = numpy_dtype(name)
        vector, scalar = np.ones(2, dtype), np.ones(2, dtype)[0]
        for function, arity in FUNCTIONS:
            out.setdefault(function, {})[name] = refusal(lambda: calls(getattr(np, function), arity, vector))
        for symbol, function in BINARY_OPERATORS.items():
            out.setdefault(symbol, {})[name] = refusal(lambda: function(vector, vector))
            out.setdefault(f"scalar {symbol}", {})[name] = refusal(lambda: function(scalar, scalar))
        for symbol, function in UNARY_OPERATORS.items():
            out.setdefault(symbol, {})[name] = refusal(lambda: function(vector))
            out.setdefault(f"scalar {symbol}", {})[name] = refusal(lambda: function(scalar))
    return out


def measure_jax() -> dict[str, dict[str, str | None]]:
    out: dict[str, dict[str, str | None]] = {}
    for name in DTYPE_NAMES:
        shape = jax.ShapeDtypeStruct((2,), jnp.dtype(numpy_dtype(name)))

        def traced(compute):
            return refusal(lambda: jax.jit(compute).lower(shape))

        for function, arity in FUNCTIONS:
            out.setdefault(function, {})[name] = traced(lambda x: calls(getattr(jnp, function), arity, x))
        for symbol, function in BINARY_OPERATORS.items():
            out.setdefault(symbol, {})[name] = traced(lambda x: function(x, x))
        for symbol, function in UNARY_OPERATORS.items():
            out.setdefault(symbol, {})[name] = traced(lambda x: function(x))
    return out


def measure_python() -> dict[str, dict[str, str | None]]:
    out: dict[str, dict[str, str | None]] = {}
    for name, value in PYTHON_VALUES.items():
        for symbol, function in {**BINARY_OPERATORS, **UNARY_OPERATORS}.items():
            arity = 1 if symbol in UNARY_OPERATORS else 2
            out.setdefault(symbol, {})[name] = refusal(lambda: calls(function, arity, value))
    return out


if __name__ == "__main__":
    jax.config.update("jax_enable_x64", True)
    print(json.dumps({"numpy": measure_numpy(), "jax": measure_jax(), "python": measure_python()}))

"""Which dtypes each function and operator refuses, per library: measured data, not rules.

Measured on jax 0.10.2, numpy 2.4.6 and ml_dtypes by ``tests/oracle/domain_probe.py``;
``tests/oracle/test_domains.py`` measures again and asserts that this table is the result.
Functions are keyed by name (``cbrt``), operators by symbol (``//``, ``-x``, ``abs(x)`` for
the builtin), per library: ``numpy`` (arrays and scalars refuse alike), ``jax`` and ``python``
(Python's scalars).  Binary functions were measured on two operands of one dtype, so an entry
is about the dtype the operands promote to.  Each entry maps the exception raised (NumPy's
UFuncTypeError is a TypeError) to the dtypes that raise it: class names of DTYPE_CLASSES, which
stand for every dtype of the class, and single dtypes where only some of a class raise.
"""

from __future__ import annotations

from promolint.core.dtypes import CUSTOM_FLOATS, DTYPES, FLOAT4, FLOAT6, FLOAT8, INTN

DTYPE_CLASSES: dict[str, frozenset[str]] = {
    "bool": frozenset({"bool"}),
    "int": frozenset(n for n, d in DTYPES.items() if d.kind == "i" and n not in INTN),
    "uint": frozenset(n for n, d in DTYPES.items() if d.kind == "u" and n not in INTN),
    "ml_dtypes-int": INTN,
    "float": frozenset(n for n, d in DTYPES.items() if d.kind == "f" and n not in CUSTOM_FLOATS),
    "ml_dtypes-float": CUSTOM_FLOATS,
    "ml_dtypes-float8-and-narrower": FLOAT8 | FLOAT6 | FLOAT4,  # ml_dtypes' floats but bfloat16
    "complex": frozenset(n for n, d in DTYPES.items() if d.kind == "c"),
}

REFUSED: dict[str, dict[str, dict[str, str]]] = {
    "numpy": {
        **dict.fromkeys("cbrt deg2rad rad2deg degrees radians floor ceil trunc signbit isneginf isposinf floor_divide mod "
                        "remainder arctan2 hypot logaddexp logaddexp2 copysign heaviside // %".split(),
                        {"TypeError": "complex"}),
        **dict.fromkeys("negative positive sign subtract - -x +x".split(), {"TypeError": "bool"}),
        **dict.fromkeys("bitwise_and bitwise_or bitwise_xor left_shift right_shift & | ^ << >> ~x".split(),
                        {"TypeError": "float ml_dtypes-float complex"}),
    },
    "jax": {
        **dict.fromkeys("sqrt exp exp2 expm1 log log2 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh "
                        "arccosh arctanh arctan2 isclose".split(), {"TypeError": "int2 uint2"}),
        "cbrt": {"TypeError": "complex int2 uint2"},
        **dict.fromkeys("log10 logaddexp logaddexp2 std var".split(), {"ValueError": "int2 uint2"}),
        **dict.fromkeys("rad2deg degrees".split(), {"OverflowError": "int2 uint2"}),
        **dict.fromkeys("negative sign subtract kron - -x".split(), {"TypeError": "bool"}),
        **dict.fromkeys("absolute abs abs(x)".split(), {"TypeError": "int2 int4"}),
        **dict.fromkeys("floor ceil trunc floor_divide mod remainder heaviside argmax argmin // %".split(),
                        {"TypeError": "complex"}),
        "signbit": {"NotImplementedError": "ml_dtypes-float8-and-narrower", "ValueError": "complex"},
        **dict.fromkeys("isneginf isposinf clip".split(), {"ValueError": "complex"}),
        **dict.fromkeys("power sum prod **".split(), {"ValueError": "ml_dtypes-int"}),
        **dict.fromkeys("bitwise_and bitwise_or bitwise_xor left_shift right_shift & | ^ << >> ~x".split(),
                        {"TypeError": "float ml_dtypes-float complex"}),
        "hypot": {"TypeError": "int2 uint2", "ValueError": "complex"},
        "copysign": {"NotImplementedError": "ml_dtypes-float8-and-narrower", "TypeError": "complex int2 uint2"},
    },
    "python": {
        **dict.fromkeys("// % < <= > >=".split(), {"TypeError": "complex"}),
        **dict.fromkeys("& | ^ << >> ~x".split(), {"TypeError": "float complex"}),
    },
}  # fmt: skip


def _expand(tokens: str) -> frozenset[str]:
    return frozenset().union(*(DTYPE_CLASSES.get(token, {token}) for token in tokens.split()))


_BY_DTYPE: dict[tuple[str, str], dict[str, str]] = {
    (library, name): {dtype: error for error, tokens in errors.items() for dtype in _expand(tokens)}
    for library, functions in REFUSED.items()
    for name, errors in functions.items()
}


def refusal_error(library: str, name: str, dtype: str) -> str | None:
    """The exception ``library``'s ``name`` raises for operands of ``dtype``; None if it runs."""
    return _BY_DTYPE.get((library, name), {}).get(dtype)

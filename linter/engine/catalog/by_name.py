"""Facts of functions keyed by their own name, where more than catalog rows read them: operators
run the ufunc of their name (``OPERATOR_FUNCTIONS``) through the same loops as the function, and
the refusals extend ``promolint.engine.domains``' measured table, in its format and by name, for
functions, methods and operators alike."""

from __future__ import annotations

# NumPy's true division has integer loops that give float64; its other float functions run
# integers in the smallest float loop they cast to safely (hypot(int8, int8) is float16).
NUMPY_INT_TO_FLOAT64 = frozenset({"true_divide", "divide"})
# NumPy's ufuncs without a bool loop run bool inputs in int8 (np.power(bool, bool) is int8);
# JAX computes these in int32 whatever x64 says (measured).
NUMPY_NO_BOOL_LOOP = frozenset({"power", "floor_divide", "mod", "remainder", "left_shift", "right_shift", "square",
                                "conjugate", "conj"})  # fmt: skip
JAX_BOOL_AS_INT32 = frozenset({"power", "floor_divide", "mod", "remainder", "left_shift", "right_shift", "square"})
# ml_dtypes registers NumPy loops for its narrow ints (int4, uint4, int2, ...) only in these
# functions and their operators; every other ufunc runs them in int8 (np.square, -x, ~x,
# np.maximum, x.conjugate()) or, for inexact results, float16 (measured, numpy 2.4.6).
NUMPY_INTN_LOOPS = frozenset({"add", "subtract", "multiply", "floor_divide", "remainder", "mod"})
# Array methods of NumPy bools without a bool implementation: what they compute in (for
# ml_dtypes' narrow ints: the NumPy system's facts, intn_methods).
NUMPY_METHOD_BOOL_RESULTS = {"round": "float16"}
# The dtypes each function refuses are measured data: promolint.engine.domains.
# The refusals of functions outside that table's probe, in its format (measured, jax 0.10.2 and
# numpy 2.4.6; the oracle corpus's snippets check them): cross subtracts, jnp.round has no bool
# implementation, jax.scipy.special's real functions refuse complex values.
CATALOG_REFUSALS: dict[str, dict[str, dict[str, str]]] = {
    "numpy": {"cross": {"TypeError": "bool"}},
    "jax": {
        "cross": {"TypeError": "bool"},
        "round": {"ValueError": "bool"},
        "segment_sum": {"TypeError": "bool"},
        "median": {"ValueError": "complex"},
        **dict.fromkeys("gammaln digamma erf erfc erfinv betaln gammainc gammaincc i0e i1e".split(),
                        {"TypeError": "complex"}),
        "entr": {"ValueError": "complex"},
        "top_k": {"ValueError": "complex"},
    },
}  # fmt: skip
# The ufunc each binary operator runs.
OPERATOR_FUNCTIONS = {"+": "add", "-": "subtract", "*": "multiply", "/": "true_divide", "//": "floor_divide",
                      "%": "remainder", "**": "power", "@": "matmul", "&": "bitwise_and", "|": "bitwise_or",
                      "^": "bitwise_xor", "<<": "left_shift", ">>": "right_shift"}  # fmt: skip

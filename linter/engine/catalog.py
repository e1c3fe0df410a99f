"""The function catalog: what each NumPy/JAX/math/builtin function returns, as data.

Each entry names a *rule* (how the result dtype is computed, implemented once in
``promolint.engine.calls``) and the parameters the rule reads.  Adding a function is adding a row.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from promolint.engine.values import Library
from promolint.systems.jax_versions import PINNED, JaxFacts, facts_for

NP, JNP, PY = Library.NUMPY_ARRAY, Library.JAX, Library.PYTHON


@dataclass(frozen=True)
class Fn:
    rule: str  # create, like, full, asarray, scalar_type, promote, inexact, same, abs, sum, cumsum,
    #           mean, average, reduce, index, bool, compare, concatenate, where, fixed, random, finfo, iinfo,
    #           lax, lax_convert, dtype_of, python_scalar, forward, scaled, float_only, float_default,
    #           result_type, promote_types, jax_power, contract, einsum, multi_dot, norm, linalg,
    #           atleast, real, append, polyval, interp, nonzero, bincount, int_tuple, solve, key,
    #           decomposition, fft, split, meshgrid, top_k, indices, choice
    #           (for atleast: ``default`` is the least number of dimensions)
    library: Library
    params: tuple[str, ...] = ()  # positional parameter names, in order
    default: str = ""  # default kind ('f', 'i', 'u', 'b') or a fixed dtype name; for lax: the result kind;
    #                    for scaled: the Python scalar type taking part ('int-inexact': an int,
    #                    then the result made inexact); for inexact: 'strong' results,
    #                    'weak-as-x1' (weak when the first operand is), 'all-weak' (weak when every
    #                    operand is), 'all-weak-if-complex' (that, for complex results); for
    #                    promote: 'strong' results; for same: 'strong-if-inexact' (nan_to_num);
    #                    for linalg and solve: 'float16' where float16 runs; for decomposition:
    #                    its parts; for fft: 'complex', 'real' or 'rfft'
    arrays: tuple[str, ...] = ()  # the parameters whose dtypes take part (promote, where, ...)
    shape: str = "elementwise"  # how the result's dimensions follow the inputs (SHAPES)


# Array parameters that take a sequence of arrays (np.concatenate's `arrays`), besides the
# starred ones (`*operands`): the others take one array, which a list given there becomes first.
SEQUENCE_PARAMETERS = frozenset({"arrays", "tup", "operands"})


def takes_sequence(fn: Fn, param: str) -> bool:
    return param in SEQUENCE_PARAMETERS or f"*{param}" in fn.params


# What a function's result dimensions are; for NumPy it decides scalar or array, since NumPy
# turns results without dimensions into scalars except where a function always builds an array.
SHAPES = {
    "elementwise": "the broadcast of the array parameters (a ufunc: scalar when all are 0-d)",
    "reduce": "the first array parameter reduced over `axis` (all of it when absent: a scalar)",
    "array": "an array whatever the inputs (creation, joining, reshaping); the rule gives its rank",
    "keep": "the first array parameter's kind and rank (astype keeps a scalar a scalar)",
    "contract": "dot/matmul/inner: the ranks of both operands less the contracted ones",
    "scalar": "always without dimensions (vdot)",
    "sample": "random draws: an array with a `size`, else a single scalar",
    "draw": "jax.random draws: the dimensions of `shape`, or where it is absent, DRAWN_FROM's",
    "as-is": "whatever the rule returned (the rule applied another entry's shape already)",
}


# jax.random draws whose `shape` defaults to None (jax 0.10.2 signatures): the parameters whose
# broadcast gives their dimensions without `shape`, the dimensions the draw adds to that
# (categorical draws along `axis` of `logits`: one fewer), and those it adds to a `shape` given
# (dirichlet's last axis of `alpha` is the sample).  The other draws' `shape` defaults to (): one
# value, and `choice` takes its elements from `a` whatever its dimensions.  `permutation`
# shuffles `x`, or arange(x) for an int: one dimension at least.
DRAWN_FROM: dict[str, tuple[tuple[str, ...], int, int]] = {
    "truncated_normal": (("lower", "upper"), 0, 0), "bernoulli": (("p",), 0, 0), "gamma": (("a",), 0, 0),
    "beta": (("a", "b"), 0, 0), "poisson": (("lam",), 0, 0), "dirichlet": (("alpha",), 0, 1),
    "categorical": (("logits",), -1, 0), "permutation": (("x",), 0, 0),
}


def _many(names: str, fn: Fn) -> dict[str, Fn]:
    return {name: fn for name in names.split()}


# Elementwise functions; NumPy's and JAX's share names, and mostly parameter names.
_UNARY_INEXACT = (
    "sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh "
    "arcsinh arccosh arctanh deg2rad rad2deg degrees radians"
)
_UNARY_SAME = "negative positive square conjugate conj sign"
_ABS = "absolute abs"  # complex gives the float of its precision
_ROUNDING_FLOAT = "floor ceil trunc"  # NumPy keeps ints; JAX keeps ints too
_ROUNDING_INEXACT = "rint"  # float loops only: NumPy's rint(int8) is float16, JAX's the default float
_BINARY_PROMOTE = (
    "add subtract multiply floor_divide mod remainder power maximum minimum fmax fmin "
    "bitwise_and bitwise_or bitwise_xor left_shift right_shift"
)
_BINARY_INEXACT = "true_divide divide arctan2 hypot logaddexp logaddexp2 copysign"
# NumPy's true division has integer loops that give float64; its other float functions run
# integers in the smallest float loop they cast to safely (hypot(int8, int8) is float16).
NUMPY_INT_TO_FLOAT64 = frozenset({"true_divide", "divide"})
# ml_dtypes registers its own loops for most ufuncs but not these: NumPy runs its types in the
# first native loop they cast to safely (clip and matmul of bfloat16 are float32).
NUMPY_NATIVE_LOOPS_ONLY = frozenset({"clip", "matmul"})
# NumPy functions that combine their inputs with np.result_type rather than a ufunc's loops.
# With ml_dtypes' types the two disagree (np.where(c, bf16, 1.0) is float64, bf16 + 1.0 float32;
# np.concatenate of bfloat16 and float16 raises); the NumPy promotion system models the ufuncs.
NUMPY_RESULT_TYPE_FUNCTIONS = frozenset({"where", "concatenate", "stack", "hstack", "vstack", "column_stack",
                                         "append"})  # fmt: skip
# Functions of the "array" shape that keep their input's dimensions.
RANK_KEEPING = frozenset({"transpose", "flip", "roll", "sort", "triu", "tril", "swapaxes", "copy", "diff", "moveaxis",
                          "take_along_axis", "fliplr", "flipud", "pad", "fftshift", "ifftshift", "rev", "rot90"})  # fmt: skip
# Rules whose requested ``dtype=`` is the result's dtype whatever the data (``jnp.asarray(x,
# dtype=jnp.int32)``, ``np.zeros_like(x, dtype=...)``, ``jnp.full(n, v, dtype)``): data of unknown
# dtype does not make the result unknown.
REQUESTED_DTYPE_DECIDES = frozenset({"asarray", "like", "full"})
# Rules whose result dtype does not depend on the operands' dtypes: JAX's predicates and
# comparisons give bools, its index functions the default int (or the int their row names),
# whatever they are given.
DTYPE_INDEPENDENT_RULES = frozenset({"bool", "compare", "index"})
# Arguments a function's catalog rule does not model: given them, its result is unknown
# (``np.diff(x, prepend=0)`` joins a 64-bit array to x first).
UNMODELLED_ARGUMENTS: dict[str, frozenset[str]] = {
    "diff": frozenset({"prepend", "append"}),
    # unique's flags add index and count arrays to the result; logsumexp's ``b`` takes part and
    # ``return_sign`` adds the sign; a preferred element type replaces the operands' dtype.
    "unique": frozenset({"return_index", "return_inverse", "return_counts", "fill_value"}),
    "logsumexp": frozenset({"b", "return_sign", "where"}),
    "dot_general": frozenset({"preferred_element_type"}),
    "qr": frozenset({"mode"}),
    "eigh": frozenset({"UPLO", "symmetrize_input"}),
}
_BOOL_UNARY = "isnan isinf isfinite signbit logical_not isneginf isposinf"
_COMPARE = "equal not_equal less less_equal greater greater_equal"  # like the operators: weak in JAX
_BOOL_BINARY = "logical_and logical_or logical_xor isclose"
_INDEX_REDUCE = "argmax argmin count_nonzero"
_REDUCE_SAME = "max min amax amin ptp nanmax nanmin"
_CONTRACT = "matmul dot inner"
_SAME_ARRAY = "diff moveaxis swapaxes take_along_axis fliplr flipud"  # the dtype kept, in an array


def _elementwise(library: Library) -> dict[str, Fn]:
    out: dict[str, Fn] = {}
    out |= _many(_UNARY_INEXACT, Fn("inexact", library, ("x",), arrays=("x",)))
    out |= _many(_UNARY_SAME, Fn("same", library, ("x",), arrays=("x",)))
    out |= _many(_ABS, Fn("abs", library, ("x",), arrays=("x",)))
    out |= _many(_ROUNDING_FLOAT, Fn("same", library, ("x",), arrays=("x",)))
    out |= _many(_ROUNDING_INEXACT, Fn("inexact" if library is not JNP else "float_default", library, ("x",),
                                       arrays=("x",)))  # fmt: skip
    out |= _many(_BINARY_PROMOTE, Fn("promote", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= _many(_BINARY_INEXACT, Fn("inexact", library, ("x1", "x2"), arrays=("x1", "x2")))
    if library is JNP:  # jnp.power has its own dispatch (operations.jax_power)
        out["power"] = Fn("jax_power", library, ("x1", "x2"), arrays=("x1", "x2"))
        # Weak flags that do not follow promotion (measured): jnp.log2 and jnp.log10 divide by a
        # strong constant; jnp.hypot is weak only of weak operands (the pinned JAX's; entry_for
        # gives another version's), and so is jnp.logaddexp of complex values
        # (jnp.logaddexp(i8, 1j) is strong, jnp.logaddexp(i8, 1.5) weak).
        pinned = facts_for(PINNED).inexact_weak
        out |= {name: Fn("inexact", library, ("x",), pinned[name], arrays=("x",)) for name in ("log2", "log10")}
        out["hypot"] = Fn("inexact", library, ("x1", "x2"), pinned["hypot"], arrays=("x1", "x2"))
        out |= _many("logaddexp logaddexp2", Fn("inexact", library, ("x1", "x2"), "all-weak-if-complex",
                                                arrays=("x1", "x2")))  # fmt: skip
    # jnp.heaviside selects between x2 and constants by x1's sign: the result is weak when x1 is a
    # weak number (not a weak bool; measured).
    out["heaviside"] = Fn("inexact", library, ("x1", "x2"), "weak-as-x1", arrays=("x1", "x2"))
    out |= _many(_BOOL_UNARY, Fn("bool", library, ("x",), arrays=("x",)))
    out |= _many(_COMPARE, Fn("compare", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= _many(_BOOL_BINARY, Fn("bool", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= _many(_CONTRACT, Fn("contract", library, ("a", "b"), arrays=("a", "b"), shape="contract"))
    out |= {
        "outer": Fn("promote", library, ("a", "b"), arrays=("a", "b"), shape="array"),
        "kron": Fn("promote", library, ("a", "b"), arrays=("a", "b"), shape="array"),
        "vdot": Fn("contract", library, ("a", "b"), arrays=("a", "b"), shape="scalar"),
        "tensordot": Fn("contract", library, ("a", "b", "axes"), arrays=("a", "b"), shape="array"),
        "linalg.multi_dot": Fn("multi_dot", library, ("arrays",), arrays=("arrays",), shape="as-is"),
        "linalg.norm": Fn("norm", library, ("x", "ord", "axis"), arrays=("x",), shape="reduce"),
        "linalg.inv": Fn("linalg", library, ("a",), arrays=("a",), shape="as-is"),
    }
    out |= _many(_SAME_ARRAY, Fn("same", library, ("a",), arrays=("a",), shape="array"))
    out |= {
        "pad": Fn("same", library, ("array", "pad_width"), arrays=("array",), shape="array"),
        "diagonal": Fn("same", library, ("a", "offset", "axis1", "axis2"), arrays=("a",), shape="array"),
        "unique": Fn("same", library, ("ar",), arrays=("ar",), shape="array"),
        "trace": Fn("sum", library, ("a", "offset", "axis1", "axis2", "dtype"), arrays=("a",), shape="reduce"),
        "round": Fn("same", library, ("a", "decimals"), arrays=("a",)),
        "nan_to_num": Fn("same", library, ("x",), "strong-if-inexact", arrays=("x",)),
        # cross multiplies and subtracts: it refuses what subtract refuses (bools).
        "cross": Fn("promote", library, ("a", "b"), arrays=("a", "b"), shape="array"),
        "isin": Fn("bool", library, ("element", "test_elements"), arrays=("element", "test_elements"), shape="array"),
        "split": Fn("split", library, ("ary", "indices_or_sections", "axis"), arrays=("ary",), shape="as-is"),
        "array_split": Fn("split", library, ("ary", "indices_or_sections", "axis"), arrays=("ary",), shape="as-is"),
        "meshgrid": Fn("meshgrid", library, ("*xi",), arrays=("xi",), shape="as-is"),
        "tril_indices": Fn("indices", library, ("n", "k", "m"), "i", shape="as-is"),
        "triu_indices": Fn("indices", library, ("n", "k", "m"), "i", shape="as-is"),
        "linalg.cholesky": Fn("linalg", library, ("a",), arrays=("a",), shape="as-is"),
        "linalg.pinv": Fn("linalg", library, ("a",), arrays=("a",), shape="as-is"),
        "linalg.solve": Fn("solve", library, ("a", "b"), arrays=("a", "b"), shape="as-is"),
        # (parts: what each array of the result is, and its rank against the input's)
        "linalg.eigh": Fn("decomposition", library, ("a",), "real:-1 same:0", arrays=("a",), shape="as-is"),
        "linalg.eigvalsh": Fn("decomposition", library, ("a",), "real:-1", arrays=("a",), shape="as-is"),
        "linalg.svd": Fn("decomposition", library, ("a", "full_matrices", "compute_uv"), "same:0 real:-1 same:0",
                         arrays=("a",), shape="as-is"),  # fmt: skip
        "linalg.qr": Fn("decomposition", library, ("a",), "same:0 same:0", arrays=("a",), shape="as-is"),
        "linalg.slogdet": Fn("decomposition", library, ("a",), "same:-2 real:-2", arrays=("a",), shape="as-is"),
        **{f"fft.{k}": Fn("fft", library, ("a", "n", "axis"), "complex", arrays=("a",), shape="as-is")
           for k in ("fft", "ifft", "fftn", "ifftn", "fft2", "ifft2")},  # fmt: skip
        **{f"fft.{k}": Fn("fft", library, ("a", "n", "axis"), "rfft", arrays=("a",), shape="as-is")
           for k in ("rfft", "rfftn", "rfft2")},  # fmt: skip
        **{f"fft.{k}": Fn("fft", library, ("a", "n", "axis"), "real", arrays=("a",), shape="as-is")
           for k in ("irfft", "irfftn", "irfft2")},  # fmt: skip
        **{f"fft.{k}": Fn("create", library, ("n", "d", "dtype"), "f", shape="array") for k in ("fftfreq", "rfftfreq")},
        **{f"fft.{k}": Fn("same", library, ("x", "axes"), arrays=("x",), shape="array")
           for k in ("fftshift", "ifftshift")},  # fmt: skip
    }
    out |= {
        "atleast_1d": Fn("atleast", library, ("a", "*more"), "1", arrays=("a",), shape="as-is"),
        "atleast_2d": Fn("atleast", library, ("a", "*more"), "2", arrays=("a",), shape="as-is"),
        "real": Fn("real", library, ("val",), arrays=("val",), shape="as-is"),
        "imag": Fn("real", library, ("val",), arrays=("val",), shape="as-is"),
        "flatnonzero": Fn("index", library, ("a",), arrays=("a",), shape="array"),
        "argwhere": Fn("index", library, ("a",), arrays=("a",), shape="array"),
        "nonzero": Fn("nonzero", library, ("a",), arrays=("a",), shape="as-is"),
        "bincount": Fn("bincount", library, ("x", "weights", "minlength"), arrays=("x",), shape="array"),
        "column_stack": Fn("concatenate", library, ("tup",), arrays=("tup",), shape="array"),
        "append": Fn("append", library, ("arr", "values", "axis"), arrays=("arr", "values"), shape="as-is"),
    }
    out |= _many(_INDEX_REDUCE, Fn("index", library, ("a", "axis"), arrays=("a",), shape="reduce"))
    out |= {
        "argsort": Fn("index", library, ("a", "axis"), arrays=("a",), shape="array"),
        # The result has the shape of the values looked up: a scalar for one Python value.
        "searchsorted": Fn("index", library, ("a", "v"), arrays=("v",),
                           default="int32" if library is JNP else ""),  # fmt: skip
    }
    out |= _many(_REDUCE_SAME, Fn("reduce", library, ("a", "axis"), arrays=("a",), shape="reduce"))
    out |= {
        "zeros": Fn("create", library, ("shape", "dtype"), "f", shape="array"),
        "ones": Fn("create", library, ("shape", "dtype"), "f", shape="array"),
        "empty": Fn("create", library, ("shape", "dtype"), "f", shape="array"),
        "eye": Fn("create", library, ("N", "M", "k", "dtype"), "f", shape="array"),
        "identity": Fn("create", library, ("n", "dtype"), "f", shape="array"),
        "full": Fn("full", library, ("shape", "fill_value", "dtype"), shape="array"),
        "zeros_like": Fn("like", library, ("a", "dtype"), arrays=("a",), shape="array"),
        "ones_like": Fn("like", library, ("a", "dtype"), arrays=("a",), shape="array"),
        "empty_like": Fn("like", library, ("a", "dtype"), arrays=("a",), shape="array"),
        "full_like": Fn("like", library, ("a", "fill_value", "dtype"), arrays=("a",), shape="array"),
        "array": Fn("asarray", library, ("object", "dtype"), arrays=("object",), shape="array"),
        "asarray": Fn("asarray", library, ("a", "dtype"), arrays=("a",), shape="array"),
        "arange": Fn("arange", library, ("start", "stop", "step", "dtype"), shape="array"),
        "linspace": Fn("linspace", library, ("start", "stop", "num", "endpoint", "retstep", "dtype"), shape="array"),
        "logspace": Fn("linspace", library, ("start", "stop", "num", "endpoint", "base", "dtype"), shape="array"),
        "sum": Fn("sum", library, ("a", "axis", "dtype"), arrays=("a",), shape="reduce"),
        "prod": Fn("sum", library, ("a", "axis", "dtype"), arrays=("a",), shape="reduce"),
        "nansum": Fn("sum", library, ("a", "axis", "dtype"), arrays=("a",), shape="reduce"),
        "cumsum": Fn("cumsum", library, ("a", "axis", "dtype"), arrays=("a",), shape="array"),
        "cumprod": Fn("cumsum", library, ("a", "axis", "dtype"), arrays=("a",), shape="array"),
        "mean": Fn("mean", library, ("a", "axis", "dtype"), arrays=("a",), shape="reduce"),
        "average": Fn("average", library, ("a", "axis", "weights", "returned"), arrays=("a", "weights"),
                      shape="reduce"),
        "nanmean": Fn("mean", library, ("a", "axis", "dtype"), arrays=("a",), shape="reduce"),
        # the spread of complex values is real: default "real"
        "var": Fn("mean", library, ("a", "axis", "dtype"), "real", arrays=("a",), shape="reduce"),
        "std": Fn("mean", library, ("a", "axis", "dtype"), "real", arrays=("a",), shape="reduce"),
        "any": Fn("bool", library, ("a", "axis"), arrays=(), shape="reduce"),
        "all": Fn("bool", library, ("a", "axis"), arrays=(), shape="reduce"),
        "where": Fn("where", library, ("condition", "x", "y"), arrays=("x", "y"), shape="array"),
        "clip": Fn("promote", library, ("a", "a_min", "a_max"), arrays=("a", "a_min", "a_max")),
        "concatenate": Fn("concatenate", library, ("arrays", "axis", "dtype"), arrays=("arrays",), shape="array"),
        "stack": Fn("concatenate", library, ("arrays", "axis", "dtype"), arrays=("arrays",), shape="array"),
        "hstack": Fn("concatenate", library, ("tup", "dtype"), arrays=("tup",), shape="array"),
        "vstack": Fn("concatenate", library, ("tup", "dtype"), arrays=("tup",), shape="array"),
        "reshape": Fn("same", library, ("a", "shape"), arrays=("a",), shape="array"),
        "transpose": Fn("same", library, ("a", "axes"), arrays=("a",), shape="array"),
        "squeeze": Fn("same", library, ("a", "axis"), arrays=("a",), shape="array"),
        "expand_dims": Fn("same", library, ("a", "axis"), arrays=("a",), shape="array"),
        "ravel": Fn("same", library, ("a",), arrays=("a",), shape="array"),
        "broadcast_to": Fn("same", library, ("array", "shape"), arrays=("array",), shape="array"),
        "tile": Fn("same", library, ("A", "reps"), arrays=("A",), shape="array"),
        "repeat": Fn("same", library, ("a", "repeats"), arrays=("a",), shape="array"),
        "flip": Fn("same", library, ("m", "axis"), arrays=("m",), shape="array"),
        "roll": Fn("same", library, ("a", "shift"), arrays=("a",), shape="array"),
        "sort": Fn("same", library, ("a",), arrays=("a",), shape="array"),
        "triu": Fn("same", library, ("m", "k"), arrays=("m",), shape="array"),
        "tril": Fn("same", library, ("m", "k"), arrays=("m",), shape="array"),
        "diag": Fn("same", library, ("v", "k"), arrays=("v",), shape="array"),
        "dtype": Fn("dtype_of", library, ("dtype",)),
        "finfo": Fn("finfo", library, ("dtype",)),
        "iinfo": Fn("iinfo", library, ("int_type",)),
        "result_type": Fn("result_type", library, ("*arrays_and_dtypes",)),
        "promote_types": Fn("promote_types", library, ("type1", "type2")),
    }
    return out


_NUMPY = _elementwise(NP)
_NUMPY |= {
    "asanyarray": _NUMPY["asarray"],
    "median": Fn("mean", NP, ("a", "axis"), arrays=("a",), shape="reduce"),
    "linalg.det": Fn("linalg", NP, ("a",), arrays=("a",), shape="as-is"),
    "polyval": Fn("polyval", NP, ("p", "x"), arrays=("p", "x"), shape="as-is"),
    "interp": Fn("interp", NP, ("x", "xp", "fp"), arrays=("x", "xp", "fp"), shape="as-is"),
    "copy": Fn("asarray", NP, ("a",), arrays=("a",), shape="array"),  # np.array(a, copy=True)
    "ascontiguousarray": Fn("asarray", NP, ("a", "dtype"), arrays=("a",), shape="array"),
    # Arrays read from bytes, files or iterables: the dtype asked for, else float64 (memmap: uint8);
    # fromiter has no default (it raises without a dtype).
    "frombuffer": Fn("create", NP, ("buffer", "dtype", "count", "offset"), "f", shape="array"),
    "fromfile": Fn("create", NP, ("file", "dtype", "count", "sep", "offset"), "f", shape="array"),
    "fromstring": Fn("create", NP, ("string", "dtype", "count", "sep"), "f", shape="array"),
    "fromiter": Fn("create", NP, ("iter", "dtype", "count"), shape="array"),
    "loadtxt": Fn("create", NP, ("fname", "dtype"), "f", shape="array"),
    "memmap": Fn("create", NP, ("filename", "dtype", "mode", "offset", "shape"), "uint8", shape="array"),
}
# NumPy's ufuncs without a bool loop run bool inputs in int8 (np.power(bool, bool) is int8);
# JAX computes these in int32 whatever x64 says (measured).
NUMPY_NO_BOOL_LOOP = frozenset({"power", "floor_divide", "mod", "remainder", "left_shift", "right_shift", "square",
                                "conjugate", "conj"})  # fmt: skip
JAX_BOOL_AS_INT32 = frozenset({"power", "floor_divide", "mod", "remainder", "left_shift", "right_shift", "square"})
# ml_dtypes registers NumPy loops for its narrow ints (int4, uint4, int2, ...) only in these
# functions and their operators; every other ufunc runs them in int8 (np.square, -x, ~x,
# np.maximum, x.conjugate()) or, for inexact results, float16 (measured, numpy 2.4.6).
NUMPY_INTN_LOOPS = frozenset({"add", "subtract", "multiply", "floor_divide", "remainder", "mod"})
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
# Functions that raise for a value without dimensions (a Python scalar, a 0-d array): their
# result is unknown there rather than modelled (the exception class varies).
NEEDS_DIMENSIONS = frozenset({
    *(f"{module}.{name}" for module in ("numpy", "jax.numpy") for name in (
        "diagonal", "trace", "cross", "split", "array_split", "meshgrid", "linalg.cholesky", "linalg.pinv",
        "linalg.solve", "linalg.eigh", "linalg.eigvalsh", "linalg.svd", "linalg.qr", "linalg.slogdet", "linalg.det",
        "fft.fft", "fft.ifft", "fft.rfft", "fft.irfft", "fft.fft2", "fft.ifft2", "fft.rfft2", "fft.irfft2",
        "fft.rfftn", "fft.irfftn")),
    "numpy.fft.fftn", "numpy.fft.ifftn", "jax.scipy.linalg.solve", "jax.scipy.linalg.solve_triangular",
    "jax.numpy.polyval", "jax.numpy.rot90",
    *(f"jax.lax.{k}" for k in ("reshape", "rev", "collapse", "broadcast_in_dim", "slice", "slice_in_dim",
                               "index_in_dim", "transpose", "dot_general", "top_k")),
})  # fmt: skip
# jnp.clip checks each operand for complex values before it promotes them (a ValueError where
# promotion would fail too); the others refuse the dtype their operands promote to.
JAX_DOMAIN_PER_OPERAND = frozenset({"clip"})
OPERATOR_FUNCTIONS = {"+": "add", "-": "subtract", "*": "multiply", "/": "true_divide", "//": "floor_divide",
                      "%": "remainder", "**": "power", "@": "matmul", "&": "bitwise_and", "|": "bitwise_or",
                      "^": "bitwise_xor", "<<": "left_shift", ">>": "right_shift"}  # fmt: skip

# NumPy hands these to the argument's own method, or indexes it, when it is not an ndarray:
# np.sum(J) is J.sum() and np.flip(J) is J[::-1], so a JAX argument gets a JAX result.  Measured
# on numpy 2.4 with jax 0.10; the other functions convert JAX arrays through ``__array__``.
# Of those, the ones NumPy calls through ``_wrapfunc``: a TypeError from the method makes NumPy
# convert the argument and run its own function (np.argmax of a complex JAX array is an int64).
NUMPY_FORWARD_FALLBACK = frozenset({"argmax", "argmin", "cumsum", "cumprod", "searchsorted", "reshape", "transpose",
                                    "repeat", "round", "nonzero"})  # fmt: skip
NUMPY_FORWARDED = {name: _NUMPY[name] for name in (
    "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all", "cumsum",
    "cumprod", "searchsorted", "reshape", "transpose", "squeeze", "repeat", "flip", "round", "nonzero")}  # fmt: skip
# NumPy functions that index through ``np.nonzero`` of an argument with dimensions, and so through
# a JAX argument's own ``nonzero``: np.argwhere(J) is a NumPy array of JAX's default int
# (int32 with x64 off; measured), where np.argwhere of a 0-d J converts it first (int64).
NUMPY_INDEX_THROUGH_NONZERO = frozenset({"argwhere"})
_NUMPY |= {name: Fn("forward", NP, fn.params, arrays=fn.arrays, shape="as-is") for name, fn in NUMPY_FORWARDED.items()}

_JAX_NUMPY = _elementwise(JNP)
_JAX_NUMPY["einsum"] = Fn("einsum", JNP, ("subscripts", "*operands"), arrays=("operands",), shape="as-is")
_JAX_NUMPY |= {
    "frombuffer": Fn("create", JNP, ("buffer", "dtype", "count", "offset"), "f", shape="array"),
    "fromstring": Fn("create", JNP, ("string", "dtype", "count"), "f", shape="array"),
    "take": Fn("same", JNP, ("a", "indices", "axis"), arrays=("a",), shape="array"),
    "reciprocal": Fn("inexact", JNP, ("x",), arrays=("x",)),  # NumPy's keeps integers
    "sinc": Fn("inexact", JNP, ("x",), arrays=("x",)),
    "median": Fn("mean", JNP, ("a", "axis"), arrays=("a",), shape="reduce"),
    "allclose": Fn("fixed", JNP, default="bool"),  # a strong JAX bool, where NumPy's is a Python bool
    "array_equal": Fn("fixed", JNP, default="bool"),
    "broadcast_arrays": Fn("meshgrid", JNP, ("*args",), arrays=("args",), shape="as-is"),
    "broadcast_shapes": Fn("int_tuple", PY),
    "iscomplexobj": Fn("python_scalar", PY, default="bool"),
    "linalg.det": Fn("linalg", JNP, ("a",), "float16", arrays=("a",), shape="as-is"),
    "polyval": Fn("polyval", JNP, ("p", "x"), arrays=("p", "x"), shape="as-is"),
    "rot90": Fn("same", JNP, ("m", "k", "axes"), arrays=("m",), shape="array"),
}
# What NumPy and JAX answer about arrays as Python values (jnp.allclose gives a JAX bool instead).
_PYTHON_ANSWERS = {
    **{name: Fn("python_scalar", PY, default="int") for name in ("ndim", "size")},
    **{name: Fn("python_scalar", PY, default="bool") for name in ("isscalar", "issubdtype")},
    "shape": Fn("int_tuple", PY),
}
_NUMPY |= {**_PYTHON_ANSWERS, **{name: Fn("python_scalar", PY, default="bool") for name in ("allclose", "array_equal")}}
_JAX_NUMPY |= _PYTHON_ANSWERS

CATALOG: dict[str, Fn] = {
    **{f"numpy.{k}": v for k, v in _NUMPY.items()},
    **{f"jax.numpy.{k}": v for k, v in _JAX_NUMPY.items()},
    # numpy.random: the legacy global functions draw float64 / int64; one draw (no size) is a
    # Python float or int.
    **{f"numpy.random.{k}": Fn("fixed", NP, params, default="float64", shape="sample")
       for k, params in (("rand", ("d0", "d1", "d2")), ("randn", ("d0", "d1", "d2")), ("random", ("size",)),
                         ("random_sample", ("size",)), ("normal", ("loc", "scale", "size")),
                         ("uniform", ("low", "high", "size")), ("standard_normal", ("size",)),
                         ("exponential", ("scale", "size")), ("gamma", ("shape", "scale", "size")),
                         ("beta", ("a", "b", "size")), ("laplace", ("loc", "scale", "size")),
                         ("lognormal", ("mean", "sigma", "size")))},  # fmt: skip
    "numpy.random.randint": Fn("create", NP, ("low", "high", "size", "dtype"), "i", shape="sample"),
    "numpy.random.choice": Fn("same", NP, ("a", "size"), arrays=("a",), shape="sample"),
    # jax.random: default float/int unless dtype= says otherwise; dimensions from `shape` (DRAWN_FROM).
    **{f"jax.random.{k}": Fn("random", JNP, ("key", "shape", "dtype"), "f", shape="draw")
       for k in ("normal", "uniform", "gumbel", "laplace", "logistic", "exponential",
                 "cauchy")},  # fmt: skip
    "jax.random.truncated_normal": Fn("random", JNP, ("key", "lower", "upper", "shape", "dtype"), "f",
                                      shape="draw"),  # fmt: skip
    "jax.random.randint": Fn("random", JNP, ("key", "shape", "minval", "maxval", "dtype"), "i", shape="draw"),
    "jax.random.bernoulli": Fn("fixed", JNP, ("key", "p", "shape"), default="bool", shape="draw"),
    "jax.random.PRNGKey": Fn("fixed", JNP, default="uint32", shape="array"),  # a raw key: 2 uint32 words
    "jax.random.key_data": Fn("fixed", JNP, default="uint32", shape="array"),  # of a raw key or a typed one
    # a shuffled copy of the array `x`, or of arange(x) for an int
    "jax.random.permutation": Fn("choice", JNP, ("key", "x"), arrays=("x",), shape="draw"),
    "jax.random.split": Fn("key", JNP, ("key", "num"), arrays=("key",), shape="array"),
    "jax.random.fold_in": Fn("key", JNP, ("key", "data"), arrays=("key",), shape="array"),
    # Draws in the default float (int for poisson and categorical) whatever their parameters' dtype.
    "jax.random.gamma": Fn("random", JNP, ("key", "a", "shape", "dtype"), "f", shape="draw"),
    "jax.random.beta": Fn("random", JNP, ("key", "a", "b", "shape", "dtype"), "f", shape="draw"),
    "jax.random.dirichlet": Fn("random", JNP, ("key", "alpha", "shape", "dtype"), "f", shape="draw"),
    "jax.random.poisson": Fn("random", JNP, ("key", "lam", "shape", "dtype"), "i", shape="draw"),
    "jax.random.categorical": Fn("random", JNP, ("key", "logits", "axis", "shape"), "i", shape="draw"),
    "jax.random.choice": Fn("choice", JNP, ("key", "a", "shape"), arrays=("a",), shape="draw"),
    # jax.nn: activations keep a float dtype.  Of an integer array (measured): relu and hard_tanh
    # keep it; those that scale by a Python float promote with it (weak float); the logistic ones
    # refuse it; the rest make it inexact.
    # (relu is ``maximum(x, 0)``: bool promotes with the Python int; relu6 scales by a float).
    **{f"jax.nn.{k}": Fn("scaled", JNP, ("x",), "int", arrays=("x",)) for k in ("relu", "hard_tanh")},
    **{f"jax.nn.{k}": Fn("scaled", JNP, ("x",), "float", arrays=("x",)) for k in ("relu6", "leaky_relu", "elu", "celu",
                                                                                     "selu")},  # fmt: skip
    **{f"jax.nn.{k}": Fn("float_only", JNP, ("x",), arrays=("x",)) for k in ("sigmoid", "silu", "swish", "glu")},
    **{f"jax.nn.{k}": Fn("inexact", JNP, ("x",), arrays=("x",))
       for k in ("tanh", "softmax", "log_softmax", "log_sigmoid", "standardize")},  # fmt: skip
    "jax.nn.softplus": Fn("scaled", JNP, ("x",), "int-inexact", arrays=("x",)),
    "jax.nn.gelu": Fn("inexact", JNP, ("x",), "strong", arrays=("x",)),  # scales by strong constants (measured)
    "jax.nn.one_hot": Fn("random", JNP, ("x", "num_classes", "dtype"), "f"),
    # logsumexp reduces in the input's float dtype (a strong result, as jnp.mean's).
    **{f"{k}.logsumexp": Fn("mean", JNP, ("a", "axis"), arrays=("a",), shape="reduce")
       for k in ("jax.nn", "jax.scipy.special")},
    # jax.scipy.special: elementwise float functions, promoted as jnp.sqrt and jnp.arctan2 are.
    **{f"jax.scipy.special.{k}": Fn("inexact", JNP, ("x",), arrays=("x",))
       for k in ("gammaln", "digamma", "erf", "erfc", "erfinv", "expit", "logit", "entr", "i0e", "i1e")},
    **{f"jax.scipy.special.{k}": Fn("inexact", JNP, ("x", "y"), arrays=("x", "y"))
       for k in ("xlogy", "xlog1py", "betaln", "gammainc", "gammaincc")},  # fmt: skip
    "jax.scipy.linalg.solve": Fn("solve", JNP, ("a", "b"), arrays=("a", "b"), shape="as-is"),
    "jax.scipy.linalg.solve_triangular": Fn("solve", JNP, ("a", "b"), "float16", arrays=("a", "b"), shape="as-is"),
    "jax.scipy.linalg.block_diag": Fn("promote", JNP, ("*arrs",), "strong", arrays=("arrs",), shape="array"),
    "jax.ops.segment_sum": Fn("reduce", JNP, ("data", "segment_ids"), arrays=("data",), shape="array"),
    # jax.lax: no implicit promotion at all; ``default`` is the result: the operands' dtype, bool
    # for comparisons, the complex of that precision for lax.complex.
    **{f"jax.lax.{k}": Fn("lax", JNP, ("x", "y"), arrays=("x", "y"))
       for k in ("add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2", "nextafter", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "shift_left", "shift_right_logical", "shift_right_arithmetic")},  # fmt: skip
    **{f"jax.lax.{k}": Fn("lax", JNP, ("x", "y"), "bool", arrays=("x", "y")) for k in ("eq", "ne", "lt", "le", "gt",
                                                                                      "ge")},  # fmt: skip
    "jax.lax.complex": Fn("lax", JNP, ("x", "y"), "complex", arrays=("x", "y")),
    # The rest of lax's one-dtype set (measured, jax 0.10.2): the ``arrays`` must share a dtype;
    # the result is weak when they all are, or as ``default`` says ('weak-as-operand': the
    # operand's flag, 'strong': never).  The start indices are integers of one type.
    # select is select_n(pred, on_false, on_true): JAX's error lists on_false first.
    "jax.lax.select": Fn("lax", JNP, ("pred", "on_true", "on_false"), arrays=("on_false", "on_true")),
    "jax.lax.select_n": Fn("lax", JNP, ("which", "*cases"), arrays=("cases",)),
    "jax.lax.clamp": Fn("lax", JNP, ("min", "x", "max"), arrays=("min", "x", "max")),
    "jax.lax.concatenate": Fn("lax", JNP, ("operands", "dimension"), arrays=("operands",), shape="array"),
    "jax.lax.pad": Fn("lax", JNP, ("operand", "padding_value", "padding_config"), arrays=("operand", "padding_value"),
                      shape="array"),  # fmt: skip
    "jax.lax.dynamic_slice": Fn("lax", JNP, ("operand", "start_indices", "slice_sizes"), arrays=("operand",),
                                shape="array"),  # fmt: skip
    "jax.lax.dynamic_slice_in_dim": Fn("lax", JNP, ("operand", "start_index", "slice_size", "axis"),
                                       arrays=("operand",), shape="array"),  # fmt: skip
    "jax.lax.dynamic_index_in_dim": Fn("lax", JNP, ("operand", "index", "axis", "keepdims"), arrays=("operand",),
                                       shape="array"),  # fmt: skip
    "jax.lax.dynamic_update_slice": Fn("lax", JNP, ("operand", "update", "start_indices"), "strong",
                                       arrays=("operand", "update"), shape="array"),  # fmt: skip
    **{f"jax.lax.{k}": Fn("lax", JNP, ("operand", "update", "index", "axis"), "strong", arrays=("operand", "update"),
                          shape="array") for k in ("dynamic_update_slice_in_dim", "dynamic_update_index_in_dim")},
    **{f"jax.lax.{k}": Fn("lax", JNP, ("operand", "scatter_indices", "updates", "dimension_numbers"),
                          "weak-as-operand", arrays=("operand", "updates"), shape="array")
       for k in ("scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max")},  # fmt: skip
    "jax.lax.gather": Fn("lax", JNP, ("operand", "start_indices", "dimension_numbers", "slice_sizes"),
                         arrays=("operand",), shape="array"),  # fmt: skip
    "jax.lax.convert_element_type": Fn("lax_convert", JNP, ("operand", "new_dtype"), shape="array"),
    "jax.lax.abs": Fn("abs", JNP, ("x",), arrays=("x",)),
    # Reshaping and slicing keep the operand's dtype and weak flag.
    **{f"jax.lax.{k}": Fn("same", JNP, ("operand", "arg"), arrays=("operand",), shape="array")
       for k in ("reshape", "rev", "collapse", "squeeze", "expand_dims", "broadcast", "broadcast_in_dim", "slice",
                 "slice_in_dim", "index_in_dim", "transpose")},  # fmt: skip
    "jax.lax.broadcast_shapes": Fn("int_tuple", PY),
    "jax.lax.dot_general": Fn("promote", JNP, ("lhs", "rhs", "dimension_numbers"), arrays=("lhs", "rhs"),
                              shape="array"),  # fmt: skip
    "jax.lax.top_k": Fn("top_k", JNP, ("operand", "k"), arrays=("operand",), shape="as-is"),
    **{f"jax.lax.{k}": Fn("same", JNP, ("x",), arrays=("x",))
       for k in ("neg", "sign", "floor", "ceil", "round", "exp", "log", "sin", "cos", "tanh", "sqrt",
                 "rsqrt", "logistic", "stop_gradient", "square")},  # fmt: skip
    # math and builtins: Python scalars.
    **{f"math.{k}": Fn("python_scalar", PY, default="float")
       for k in ("sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "atan2", "hypot", "pow",
                 "fabs", "erf", "gamma", "lgamma", "expm1", "log1p", "radians", "degrees")},  # fmt: skip
    **{f"math.{k}": Fn("python_scalar", PY, default="int")
       for k in ("floor", "ceil", "trunc", "factorial", "gcd", "comb", "perm", "isqrt")},  # fmt: skip
    # float(), int(), complex() and bool() are scalar types (calls.resolve_reference makes them
    # DTypeRefs), converted by calls.conversions.call_scalar_type, not catalog entries.
    "builtins.len": Fn("python_scalar", PY, default="int"),
    "builtins.range": Fn("python_range", PY),
    # tuple() and list() of a sequence whose items are known: the same items (pgx's
    # `EMPTY, PAWN, ... = tuple(range(7))`).
    "builtins.tuple": Fn("python_sequence", PY, ("iterable",)),
    "builtins.list": Fn("python_sequence", PY, ("iterable",)),
    # zip() and enumerate(): tuples of an element of each iterable (a Python int first).
    "builtins.zip": Fn("python_zip", PY, ("*iterables",)),
    "builtins.enumerate": Fn("python_zip", PY, ("iterable",)),
    "builtins.abs": Fn("abs", PY, ("x",), arrays=("x",)),
}


def entry_for(qualname: str, facts: JaxFacts) -> Fn | None:
    """The catalog's entry for ``qualname``, with the weak flags of the JAX version in force."""
    fn = CATALOG.get(qualname)
    short = qualname.removeprefix("jax.numpy.")
    if fn is None or short == qualname or short not in facts.inexact_weak:
        return fn
    return replace(fn, default=facts.inexact_weak[short])


# Other names of catalogued functions: the call is the function's own (np.around is np.round).
ALIASES = {f"{module}.around": f"{module}.round" for module in ("numpy", "jax.numpy")}

# Module attributes that are NumPy scalars: (dtype, value).
SCALAR_CONSTANTS: dict[str, tuple[str, bool]] = {"numpy.True_": ("bool", True), "numpy.False_": ("bool", False)}

# Module attributes that are values: NumPy and JAX re-export Python floats.
CONSTANTS: dict[str, float] = {
    f"{module}.{name}": value
    for module in ("numpy", "jax.numpy", "math")
    for name, value in (("pi", 3.141592653589793), ("e", 2.718281828459045), ("inf", float("inf")),
                        ("nan", float("nan")), ("euler_gamma", 0.5772156649015329), ("tau", 6.283185307179586))  # fmt: skip
}

# Array methods: the receiver is the first array.
METHODS: dict[str, Fn] = {
    **{name: Fn("same", NP, ("self",), arrays=("self",), shape="array")
       for name in ("reshape", "transpose", "flatten", "ravel", "squeeze", "swapaxes", "repeat", "sort")},  # fmt: skip
    **{name: Fn("same", NP, ("self",), arrays=("self",), shape="keep") for name in ("copy", "block_until_ready")},
    # conjugate() keeps a 0-d array an array (np.conjugate makes it a scalar); round() does not.
    **{name: Fn("same", NP, ("self",), arrays=("self",), shape="keep") for name in ("conj", "conjugate")},
    "round": Fn("same", NP, ("self",), arrays=("self",)),
    **{name: Fn("reduce", NP, ("self", "axis"), arrays=("self",), shape="reduce") for name in ("max", "min", "ptp")},
    "astype": Fn("astype", NP, ("self", "dtype"), arrays=("self",), shape="keep"),
    # The same bits read as another dtype (as astype requests it: JAX truncates a 64-bit one
    # with x64 off alike); the last axis changes length with the item size.
    "view": Fn("view", NP, ("self", "dtype"), arrays=("self",), shape="array"),
    "sum": Fn("sum", NP, ("self", "axis", "dtype"), arrays=("self",), shape="reduce"),
    "prod": Fn("sum", NP, ("self", "axis", "dtype"), arrays=("self",), shape="reduce"),
    "cumsum": Fn("cumsum", NP, ("self", "axis", "dtype"), arrays=("self",), shape="array"),
    "cumprod": Fn("cumsum", NP, ("self", "axis", "dtype"), arrays=("self",), shape="array"),
    "mean": Fn("mean", NP, ("self", "axis", "dtype"), arrays=("self",), shape="reduce"),
    "var": Fn("mean", NP, ("self", "axis", "dtype"), "real", arrays=("self",), shape="reduce"),
    "std": Fn("mean", NP, ("self", "axis", "dtype"), "real", arrays=("self",), shape="reduce"),
    "argmax": Fn("index", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "argmin": Fn("index", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "argsort": Fn("index", NP, ("self", "axis"), arrays=("self",), shape="array"),
    "any": Fn("bool", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "all": Fn("bool", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "item": Fn("item", NP, ("self",), arrays=("self",)),
    "dot": Fn("promote", NP, ("self", "b"), arrays=("self", "b"), shape="contract"),
    "clip": Fn("promote", NP, ("self", "min", "max"), arrays=("self", "min", "max")),
}
# JAX predicates whose result is weak when every input is weak and of these kinds (measured:
# isnan(x) is x != x; isfinite of an int, isinf and isclose are built from strong constants).
# (logical_and of two weak bools is strong: it is bitwise_and of bools, not a comparison.)
JAX_WEAK_PREDICATES: dict[str, str] = {"isnan": "biufc", "isfinite": "fc", "logical_not": "biufc",
                                       "logical_and": "iufc", "logical_or": "iufc", "logical_xor": "iufc"}  # fmt: skip
# Array methods of NumPy bools without a bool implementation: what they compute in (for
# ml_dtypes' narrow ints: the NumPy system's facts, intn_methods).
NUMPY_METHOD_BOOL_RESULTS = {"round": "float16"}
# NumPy methods that work in place and return None (JAX's, of immutable arrays, return one).
NUMPY_IN_PLACE_METHODS = frozenset({"sort", "fill", "resize", "put", "partition", "setflags", "itemset"})
# Methods that copy an object with some fields replaced, by the kind of its class: NamedTuple's
# ``_replace``; flax.struct's (and its copies') ``replace`` (a dataclass without one raises).
COPY_METHODS = {"namedtuple": ("_replace",), "dataclass": ("replace",)}
# The same, whatever the class's kind (an object a variable holds: its class is unknown).
REPLACE_METHODS = frozenset(method for methods in COPY_METHODS.values() for method in methods)
# Methods of Python lists that change them in place: a list they are called on is no longer followed.
LIST_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})
# Every public attribute of arrays and numbers: NumPy's ndarray and scalars (numpy 2.4.6), JAX's
# Array and its implementation (jax 0.10.2), Python's int, float, complex and bool.  Reading any
# other attribute of a parameter says it holds an object, not a number
# (``promolint.engine.flow.flow.Flow.attribute``).
NUMBER_ATTRIBUTES = frozenset({
    "T", "addressable_data", "addressable_shards", "all", "any", "argmax", "argmin", "argpartition",
    "argsort", "as_integer_ratio", "astype", "at", "aval", "base", "bit_count", "bit_length",
    "block_until_ready", "byteswap", "choose", "clip", "clone", "committed", "compress", "conj",
    "conjugate", "copy", "copy_to_host_async", "ctypes", "cumprod", "cumsum", "data", "delete",
    "denominator", "device", "device_buffer", "device_buffers", "devices", "diagonal", "dot", "dtype",
    "dump", "dumps", "fill", "flags", "flat", "flatten", "format", "from_bytes", "fromhex", "getfield",
    "global_shards", "hex", "imag", "is_deleted", "is_fully_addressable", "is_fully_replicated",
    "is_integer", "is_ready", "item", "itemsize", "mT", "max", "mean", "min", "nbytes", "ndim", "nonzero",
    "numerator", "on_device_size_in_bytes", "partition", "platform", "prod", "ptp", "put", "ravel", "real",
    "repeat", "reshape", "resize", "round", "searchsorted", "setfield", "setflags", "shape", "sharding",
    "size", "sort", "squeeze", "std", "strides", "sum", "swapaxes", "take", "to_bytes", "to_device",
    "tobytes", "tofile", "tolist", "trace", "traceback", "transpose", "unsafe_buffer_pointer", "var",
    "view", "weak_type"
})

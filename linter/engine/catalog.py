"""The function catalog: what each NumPy/JAX/math/builtin function returns, as data.

Each entry names a *rule* (how the result dtype is computed, implemented once in
``linter.engine.calls``) and the parameters the rule reads.  Adding a function is adding a row.
"""

from __future__ import annotations

from dataclasses import dataclass

from linter.engine.values import Library

NP, JNP, PY = Library.NUMPY_ARRAY, Library.JAX, Library.PYTHON


@dataclass(frozen=True)
class Fn:
    rule: str  # create, like, full, asarray, scalar_type, promote, inexact, same, sum, cumsum, mean,
    #           reduce, index, bool, concatenate, where, fixed, random, finfo, iinfo, lax, lax_convert,
    #           dtype_of, python_scalar, forward
    library: Library
    params: tuple[str, ...] = ()  # positional parameter names, in order
    default: str = ""  # default kind ('f', 'i', 'u', 'b') or a fixed dtype name
    arrays: tuple[str, ...] = ()  # the parameters whose dtypes take part (promote, where, ...)


def _many(names: str, fn: Fn) -> dict[str, Fn]:
    return {name: fn for name in names.split()}


# Elementwise functions; NumPy's and JAX's share names, and mostly parameter names.
_UNARY_INEXACT = (
    "sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh "
    "arcsinh arccosh arctanh deg2rad rad2deg degrees radians"
)
_UNARY_SAME = "negative positive absolute abs square conjugate conj sign rint"
_ROUNDING_FLOAT = "floor ceil trunc"  # NumPy keeps ints; JAX keeps ints too
_BINARY_PROMOTE = (
    "add subtract multiply floor_divide mod remainder power maximum minimum fmax fmin "
    "bitwise_and bitwise_or bitwise_xor left_shift right_shift copysign heaviside"
)
_BINARY_INEXACT = "true_divide divide arctan2 hypot logaddexp logaddexp2"
_BOOL_UNARY = "isnan isinf isfinite signbit logical_not isneginf isposinf"
_BOOL_BINARY = "equal not_equal less less_equal greater greater_equal logical_and logical_or logical_xor isclose"
_INDEX = "argmax argmin argsort count_nonzero searchsorted"
_REDUCE_SAME = "max min amax amin ptp nanmax nanmin"
_MATMUL = "matmul dot inner outer vdot kron"


def _elementwise(library: Library) -> dict[str, Fn]:
    out: dict[str, Fn] = {}
    out |= _many(_UNARY_INEXACT, Fn("inexact", library, ("x",), arrays=("x",)))
    out |= _many(_UNARY_SAME, Fn("same", library, ("x",), arrays=("x",)))
    out |= _many(_ROUNDING_FLOAT, Fn("same", library, ("x",), arrays=("x",)))
    out |= _many(_BINARY_PROMOTE, Fn("promote", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= _many(_BINARY_INEXACT, Fn("inexact", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= _many(_BOOL_UNARY, Fn("bool", library, ("x",), arrays=("x",)))
    out |= _many(_BOOL_BINARY, Fn("bool", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= _many(_MATMUL, Fn("promote", library, ("a", "b"), arrays=("a", "b")))
    out |= _many(_INDEX, Fn("index", library, ("a",), arrays=("a",)))
    out |= _many(_REDUCE_SAME, Fn("reduce", library, ("a", "axis"), arrays=("a",)))
    out |= {
        "zeros": Fn("create", library, ("shape", "dtype"), "f"),
        "ones": Fn("create", library, ("shape", "dtype"), "f"),
        "empty": Fn("create", library, ("shape", "dtype"), "f"),
        "eye": Fn("create", library, ("N", "M", "k", "dtype"), "f"),
        "identity": Fn("create", library, ("n", "dtype"), "f"),
        "full": Fn("full", library, ("shape", "fill_value", "dtype")),
        "zeros_like": Fn("like", library, ("a", "dtype"), arrays=("a",)),
        "ones_like": Fn("like", library, ("a", "dtype"), arrays=("a",)),
        "empty_like": Fn("like", library, ("a", "dtype"), arrays=("a",)),
        "full_like": Fn("like", library, ("a", "fill_value", "dtype"), arrays=("a",)),
        "array": Fn("asarray", library, ("object", "dtype"), arrays=("object",)),
        "asarray": Fn("asarray", library, ("a", "dtype"), arrays=("a",)),
        "arange": Fn("arange", library, ("start", "stop", "step", "dtype")),
        "linspace": Fn("linspace", library, ("start", "stop", "num", "endpoint", "retstep", "dtype")),
        "logspace": Fn("linspace", library, ("start", "stop", "num", "endpoint", "base", "dtype")),
        "sum": Fn("sum", library, ("a", "axis", "dtype"), arrays=("a",)),
        "prod": Fn("sum", library, ("a", "axis", "dtype"), arrays=("a",)),
        "nansum": Fn("sum", library, ("a", "axis", "dtype"), arrays=("a",)),
        "cumsum": Fn("cumsum", library, ("a", "axis", "dtype"), arrays=("a",)),
        "cumprod": Fn("cumsum", library, ("a", "axis", "dtype"), arrays=("a",)),
        "mean": Fn("mean", library, ("a", "axis", "dtype"), arrays=("a",)),
        "average": Fn("mean", library, ("a", "axis"), arrays=("a",)),
        "nanmean": Fn("mean", library, ("a", "axis", "dtype"), arrays=("a",)),
        "var": Fn("mean", library, ("a", "axis", "dtype"), arrays=("a",)),
        "std": Fn("mean", library, ("a", "axis", "dtype"), arrays=("a",)),
        "any": Fn("bool", library, ("a",), arrays=()),
        "all": Fn("bool", library, ("a",), arrays=()),
        "where": Fn("where", library, ("condition", "x", "y"), arrays=("x", "y")),
        "clip": Fn("promote", library, ("a", "a_min", "a_max"), arrays=("a", "a_min", "a_max")),
        "concatenate": Fn("concatenate", library, ("arrays", "axis", "dtype"), arrays=("arrays",)),
        "stack": Fn("concatenate", library, ("arrays", "axis", "dtype"), arrays=("arrays",)),
        "hstack": Fn("concatenate", library, ("tup", "dtype"), arrays=("tup",)),
        "vstack": Fn("concatenate", library, ("tup", "dtype"), arrays=("tup",)),
        "reshape": Fn("same", library, ("a", "shape"), arrays=("a",)),
        "transpose": Fn("same", library, ("a", "axes"), arrays=("a",)),
        "squeeze": Fn("same", library, ("a", "axis"), arrays=("a",)),
        "expand_dims": Fn("same", library, ("a", "axis"), arrays=("a",)),
        "ravel": Fn("same", library, ("a",), arrays=("a",)),
        "broadcast_to": Fn("same", library, ("array", "shape"), arrays=("array",)),
        "tile": Fn("same", library, ("A", "reps"), arrays=("A",)),
        "repeat": Fn("same", library, ("a", "repeats"), arrays=("a",)),
        "flip": Fn("same", library, ("m", "axis"), arrays=("m",)),
        "roll": Fn("same", library, ("a", "shift"), arrays=("a",)),
        "sort": Fn("same", library, ("a",), arrays=("a",)),
        "triu": Fn("same", library, ("m", "k"), arrays=("m",)),
        "tril": Fn("same", library, ("m", "k"), arrays=("m",)),
        "diag": Fn("same", library, ("v", "k"), arrays=("v",)),
        "dtype": Fn("dtype_of", library, ("dtype",)),
        "finfo": Fn("finfo", library, ("dtype",)),
        "iinfo": Fn("iinfo", library, ("int_type",)),
        "result_type": Fn("result_type", library),
    }
    return out


_NUMPY = _elementwise(NP)
# NumPy forwards these to the argument's own method when it is not an ndarray: np.sum(J) is J.sum().
NUMPY_FORWARDED = {name: _NUMPY[name] for name in ("sum", "prod", "mean", "std", "var", "max", "min", "argmax",
                                                   "argmin", "any", "all")}  # fmt: skip
_NUMPY |= {name: Fn("forward", NP, ("a", "axis", "dtype"), arrays=("a",)) for name in NUMPY_FORWARDED}

_JAX_NUMPY = _elementwise(JNP)

CATALOG: dict[str, Fn] = {
    **{f"numpy.{k}": v for k, v in _NUMPY.items()},
    **{f"jax.numpy.{k}": v for k, v in _JAX_NUMPY.items()},
    # numpy.random: the legacy global functions draw float64 / int64.
    **{f"numpy.random.{k}": Fn("fixed", NP, default="float64")
       for k in ("rand", "randn", "random", "random_sample", "normal", "uniform", "standard_normal", "exponential",
                 "gamma", "beta", "laplace", "lognormal")},  # fmt: skip
    "numpy.random.randint": Fn("create", NP, ("low", "high", "size", "dtype"), "i"),
    "numpy.random.choice": Fn("same", NP, ("a",), arrays=("a",)),
    # jax.random: default float/int unless dtype= says otherwise.
    **{f"jax.random.{k}": Fn("random", JNP, ("key", "shape", "dtype"), "f")
       for k in ("normal", "uniform", "gumbel", "laplace", "logistic", "exponential",
                 "cauchy")},  # fmt: skip
    "jax.random.truncated_normal": Fn("random", JNP, ("key", "lower", "upper", "shape", "dtype"), "f"),
    "jax.random.randint": Fn("random", JNP, ("key", "shape", "minval", "maxval", "dtype"), "i"),
    "jax.random.bernoulli": Fn("fixed", JNP, default="bool"),
    "jax.random.PRNGKey": Fn("fixed", JNP, default="uint32"),
    "jax.random.permutation": Fn("same", JNP, ("key", "x"), arrays=("x",)),
    # jax.nn: elementwise activations keep a float dtype, make ints inexact.
    **{f"jax.nn.{k}": Fn("inexact", JNP, ("x",), arrays=("x",))
       for k in ("relu", "gelu", "sigmoid", "softplus", "silu", "swish", "elu", "leaky_relu", "tanh", "softmax",
                 "log_softmax", "log_sigmoid", "celu", "selu", "glu", "relu6", "hard_tanh", "standardize")},  # fmt: skip
    "jax.nn.one_hot": Fn("random", JNP, ("x", "num_classes", "dtype"), "f"),
    # jax.lax: no implicit promotion at all.
    **{f"jax.lax.{k}": Fn("lax", JNP, ("x", "y"), arrays=("x", "y"))
       for k in ("add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2", "nextafter", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "shift_left", "shift_right_logical", "shift_right_arithmetic",
                 "eq", "ne", "lt", "le", "gt", "ge", "complex")},  # fmt: skip
    "jax.lax.convert_element_type": Fn("lax_convert", JNP, ("operand", "new_dtype")),
    **{f"jax.lax.{k}": Fn("same", JNP, ("x",), arrays=("x",))
       for k in ("neg", "abs", "sign", "floor", "ceil", "round", "exp", "log", "sin", "cos", "tanh", "sqrt",
                 "rsqrt", "logistic", "stop_gradient", "square")},  # fmt: skip
    # math and builtins: Python scalars.
    **{f"math.{k}": Fn("python_scalar", PY, default="float")
       for k in ("sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "atan2", "hypot", "pow",
                 "fabs", "erf", "gamma", "lgamma", "expm1", "log1p", "radians", "degrees")},  # fmt: skip
    **{f"math.{k}": Fn("python_scalar", PY, default="int")
       for k in ("floor", "ceil", "trunc", "factorial", "gcd", "comb", "perm", "isqrt")},  # fmt: skip
    "builtins.float": Fn("python_scalar", PY, default="float"),
    "builtins.int": Fn("python_scalar", PY, default="int"),
    "builtins.complex": Fn("python_scalar", PY, default="complex"),
    "builtins.bool": Fn("python_scalar", PY, default="bool"),
    "builtins.len": Fn("python_scalar", PY, default="int"),
    "builtins.abs": Fn("same", PY, ("x",), arrays=("x",)),
}

# Module attributes that are values: NumPy and JAX re-export Python floats.
CONSTANTS: dict[str, float] = {
    f"{module}.{name}": value
    for module in ("numpy", "jax.numpy", "math")
    for name, value in (("pi", 3.141592653589793), ("e", 2.718281828459045), ("inf", float("inf")),
                        ("nan", float("nan")), ("euler_gamma", 0.5772156649015329), ("tau", 6.283185307179586))  # fmt: skip
}

# Array methods: the receiver is the first array.
METHODS: dict[str, Fn] = {
    **{name: Fn("same", NP, ("self",), arrays=("self",))
       for name in ("reshape", "transpose", "flatten", "ravel", "squeeze", "copy", "swapaxes", "block_until_ready",
                    "conj", "conjugate", "round", "repeat", "sort", "max", "min", "ptp")},  # fmt: skip
    "astype": Fn("astype", NP, ("self", "dtype")),
    "sum": Fn("sum", NP, ("self", "axis", "dtype"), arrays=("self",)),
    "prod": Fn("sum", NP, ("self", "axis", "dtype"), arrays=("self",)),
    "cumsum": Fn("cumsum", NP, ("self", "axis", "dtype"), arrays=("self",)),
    "mean": Fn("mean", NP, ("self", "axis", "dtype"), arrays=("self",)),
    "var": Fn("mean", NP, ("self", "axis", "dtype"), arrays=("self",)),
    "std": Fn("mean", NP, ("self", "axis", "dtype"), arrays=("self",)),
    "argmax": Fn("index", NP, ("self",), arrays=("self",)),
    "argmin": Fn("index", NP, ("self",), arrays=("self",)),
    "argsort": Fn("index", NP, ("self",), arrays=("self",)),
    "any": Fn("bool", NP, ("self",)),
    "all": Fn("bool", NP, ("self",)),
    "item": Fn("item", NP, ("self",), arrays=("self",)),
    "dot": Fn("promote", NP, ("self", "b"), arrays=("self", "b")),
    "clip": Fn("promote", NP, ("self", "min", "max"), arrays=("self", "min", "max")),
}
# Attributes of arrays that keep the dtype, and those that are something else.
SAME_DTYPE_ATTRIBUTES = frozenset({"T", "mT"})

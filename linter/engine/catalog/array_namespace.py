"""The catalog's rows for NumPy's and ``jax.numpy``'s own namespaces (``numpy.X``, ``jax.numpy.X``,
their ``linalg`` and ``fft``), which share most names and parameters; keyed by the name within."""

from __future__ import annotations

from promolint.engine.catalog.rows import Fn, Part, RankChange, Spectrum, Weak, many
from promolint.engine.values import Library
from promolint.systems.jax_versions import PINNED, facts_for

NP, JNP, PY = Library.NUMPY_ARRAY, Library.JAX, Library.PYTHON

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
_BOOL_UNARY = "isnan isinf isfinite signbit logical_not isneginf isposinf"
# Comparison functions are their operators (weak in JAX alike).
_COMPARE = (("equal", "=="), ("not_equal", "!="), ("less", "<"), ("less_equal", "<="), ("greater", ">"),
            ("greater_equal", ">="))  # fmt: skip
_BOOL_BINARY = "logical_and logical_or logical_xor isclose"
_INDEX_REDUCE = "argmax argmin count_nonzero"
_REDUCE_SAME = "max min amax amin ptp nanmax nanmin"
_CONTRACT = "dot inner"
_SAME_ARRAY = "moveaxis swapaxes take_along_axis fliplr flipud"  # the dtype and rank kept, in an array
_KEPT = RankChange.KEPT


def _elementwise(library: Library) -> dict[str, Fn]:
    out: dict[str, Fn] = {}
    out |= many(_UNARY_INEXACT, Fn("inexact", library, ("x",), arrays=("x",)))
    out |= many(_UNARY_SAME, Fn("same", library, ("x",), arrays=("x",)))
    out |= many(_ABS, Fn("abs", library, ("x",), arrays=("x",)))
    out |= many(_ROUNDING_FLOAT, Fn("same", library, ("x",), arrays=("x",)))
    out |= many(_ROUNDING_INEXACT, Fn("inexact" if library is not JNP else "float_default", library, ("x",),
                                       arrays=("x",)))  # fmt: skip
    out |= many(_BINARY_PROMOTE, Fn("promote", library, ("x1", "x2"), arrays=("x1", "x2")))
    out |= many(_BINARY_INEXACT, Fn("inexact", library, ("x1", "x2"), arrays=("x1", "x2")))
    if library is JNP:  # jnp.power has its own dispatch (operations.jax_power)
        out["power"] = Fn("jax_power", library, ("x1", "x2"), arrays=("x1", "x2"))
        # Weak flags that do not follow promotion (measured): jnp.log2 and jnp.log10 divide by a
        # strong constant; jnp.hypot is weak only of weak operands (the pinned JAX's; entry_for
        # gives another version's), and so is jnp.logaddexp of complex values
        # (jnp.logaddexp(i8, 1j) is strong, jnp.logaddexp(i8, 1.5) weak).
        pinned = facts_for(PINNED).inexact_weak
        out |= {name: Fn("inexact", library, ("x",), weak=Weak(pinned[name]), arrays=("x",))
                for name in ("log2", "log10")}
        out["hypot"] = Fn("inexact", library, ("x1", "x2"), weak=Weak(pinned["hypot"]), arrays=("x1", "x2"))
        out |= many("logaddexp logaddexp2", Fn("inexact", library, ("x1", "x2"), weak=Weak.ALL_IF_COMPLEX,
                                                arrays=("x1", "x2")))  # fmt: skip
    # jnp.heaviside selects between x2 and constants by x1's sign: the result is weak when x1 is a
    # weak number (not a weak bool) and promoting x1 with x2 is weak (measured).
    out["heaviside"] = Fn("inexact", library, ("x1", "x2"), weak=Weak.AS_FIRST, arrays=("x1", "x2"))
    out |= many(_BOOL_UNARY, Fn("bool", library, ("x",), arrays=("x",)))
    out |= {name: Fn("compare", library, ("x1", "x2"), arrays=("x1", "x2"), operator=op) for name, op in _COMPARE}
    out |= many(_BOOL_BINARY, Fn("bool", library, ("x1", "x2"), arrays=("x1", "x2")))
    if library is JNP:
        # Predicates whose result is weak when every input is weak and of these kinds (measured:
        # isnan(x) is x != x; isfinite of an int, isinf and isclose are built from strong constants).
        # (logical_and of two weak bools is strong: it is bitwise_and of bools, not a comparison.)
        out |= {
            "isnan": Fn("bool", library, ("x",), arrays=("x",), weak_kinds="biufc"),
            "isfinite": Fn("bool", library, ("x",), arrays=("x",), weak_kinds="fc"),
            "logical_not": Fn("bool", library, ("x",), arrays=("x",), weak_kinds="biufc"),
            **many("logical_and logical_or logical_xor", Fn("bool", library, ("x1", "x2"), arrays=("x1", "x2"),
                                                            weak_kinds="iufc")),
        }  # fmt: skip
    # ml_dtypes registers no matmul loop: NumPy runs its types in the first native loop they cast
    # to safely (matmul of bfloat16 is float32).
    out["matmul"] = Fn("contract", library, ("a", "b"), arrays=("a", "b"), shape="contract",
                       numpy_native_loops_only=True)  # fmt: skip
    out |= many(_CONTRACT, Fn("contract", library, ("a", "b"), arrays=("a", "b"), shape="contract"))
    out |= {
        "outer": Fn("promote", library, ("a", "b"), arrays=("a", "b"), shape="array"),
        "kron": Fn("promote", library, ("a", "b"), arrays=("a", "b"), shape="array"),
        "vdot": Fn("contract", library, ("a", "b"), arrays=("a", "b"), shape="scalar"),
        "tensordot": Fn("contract", library, ("a", "b", "axes"), arrays=("a", "b"), shape="array"),
        "linalg.multi_dot": Fn("multi_dot", library, ("arrays",), arrays=("arrays",), shape="as-is"),
        "linalg.norm": Fn("norm", library, ("x", "ord", "axis"), arrays=("x",), shape="reduce"),
        "linalg.inv": Fn("linalg", library, ("a",), arrays=("a",), shape="as-is"),
    }
    # diff joins `prepend` and `append` to its input first (np.diff(x, prepend=0): a 64-bit array)
    out["diff"] = Fn("same", library, ("a",), arrays=("a",), shape="array", rank_change=_KEPT,
                     unmodelled=frozenset({"prepend", "append"}))  # fmt: skip
    out |= many(_SAME_ARRAY, Fn("same", library, ("a",), arrays=("a",), shape="array", rank_change=_KEPT))
    out |= {
        "pad": Fn("same", library, ("array", "pad_width"), arrays=("array",), shape="array", rank_change=_KEPT),
        "diagonal": Fn("same", library, ("a", "offset", "axis1", "axis2"), arrays=("a",), shape="array",
                       needs_dimensions=True),  # fmt: skip
        # unique's flags add index and count arrays to the result
        "unique": Fn("same", library, ("ar",), arrays=("ar",), shape="array", rank_change=RankChange.FLAT,
                     unmodelled=frozenset({"return_index", "return_inverse", "return_counts", "fill_value"})),
        "trace": Fn("sum", library, ("a", "offset", "axis1", "axis2", "dtype"), arrays=("a",), shape="reduce",
                    needs_dimensions=True),  # fmt: skip
        "round": Fn("same", library, ("a", "decimals"), arrays=("a",)),
        "nan_to_num": Fn("same", library, ("x",), weak=Weak.STRONG_IF_INEXACT, arrays=("x",)),
        # cross multiplies and subtracts: it refuses what subtract refuses (bools).
        "cross": Fn("promote", library, ("a", "b"), arrays=("a", "b"), shape="array", needs_dimensions=True),
        "isin": Fn("bool", library, ("element", "test_elements"), arrays=("element", "test_elements"), shape="array"),
        **many("split array_split", Fn("split", library, ("ary", "indices_or_sections", "axis"), arrays=("ary",),
                                       shape="as-is", needs_dimensions=True)),
        "meshgrid": Fn("meshgrid", library, ("*xi",), arrays=("xi",), shape="as-is", needs_dimensions=True),
        "tril_indices": Fn("indices", library, ("n", "k", "m"), result="i", shape="as-is"),
        "triu_indices": Fn("indices", library, ("n", "k", "m"), result="i", shape="as-is"),
        **many("linalg.cholesky linalg.pinv", Fn("linalg", library, ("a",), arrays=("a",), shape="as-is",
                                                 needs_dimensions=True)),
        "linalg.solve": Fn("solve", library, ("a", "b"), arrays=("a", "b"), shape="as-is", needs_dimensions=True),
        "linalg.eigh": Fn("decomposition", library, ("a",), parts=(Part(-1, real=True), Part(0)), arrays=("a",),
                          shape="as-is", needs_dimensions=True, unmodelled=frozenset({"UPLO", "symmetrize_input"})),
        "linalg.eigvalsh": Fn("decomposition", library, ("a",), parts=(Part(-1, real=True),), arrays=("a",),
                              shape="as-is", needs_dimensions=True),
        "linalg.svd": Fn("decomposition", library, ("a", "full_matrices", "compute_uv"),
                         parts=(Part(0), Part(-1, real=True), Part(0)), arrays=("a",), shape="as-is",
                         needs_dimensions=True),
        "linalg.qr": Fn("decomposition", library, ("a",), parts=(Part(0), Part(0)), arrays=("a",), shape="as-is",
                        needs_dimensions=True, unmodelled=frozenset({"mode"})),
        "linalg.slogdet": Fn("decomposition", library, ("a",), parts=(Part(-2), Part(-2, real=True)), arrays=("a",),
                             shape="as-is", needs_dimensions=True),
        # (jnp.fft.fftn and ifftn of a value without dimensions run)
        **{f"fft.{k}": Fn("fft", library, ("a", "n", "axis"), spectrum=Spectrum.COMPLEX, arrays=("a",), shape="as-is",
                          needs_dimensions=library is NP or k not in ("fftn", "ifftn"))
           for k in ("fft", "ifft", "fftn", "ifftn", "fft2", "ifft2")},
        **{f"fft.{k}": Fn("fft", library, ("a", "n", "axis"), spectrum=Spectrum.RFFT, arrays=("a",), shape="as-is",
                          needs_dimensions=True) for k in ("rfft", "rfftn", "rfft2")},
        **{f"fft.{k}": Fn("fft", library, ("a", "n", "axis"), spectrum=Spectrum.REAL, arrays=("a",), shape="as-is",
                          needs_dimensions=True) for k in ("irfft", "irfftn", "irfft2")},
        **{f"fft.{k}": Fn("create", library, ("n", "d", "dtype"), result="f", shape="array")
           for k in ("fftfreq", "rfftfreq")},
        **{f"fft.{k}": Fn("same", library, ("x", "axes"), arrays=("x",), shape="array", rank_change=_KEPT)
           for k in ("fftshift", "ifftshift")},
    }  # fmt: skip
    out |= {
        "atleast_1d": Fn("atleast", library, ("a", "*more"), least_ndim=1, arrays=("a",), shape="as-is"),
        "atleast_2d": Fn("atleast", library, ("a", "*more"), least_ndim=2, arrays=("a",), shape="as-is"),
        "real": Fn("real", library, ("val",), arrays=("val",), shape="as-is"),
        "imag": Fn("real", library, ("val",), arrays=("val",), shape="as-is"),
        "flatnonzero": Fn("index", library, ("a",), arrays=("a",), shape="array"),
        # np.argwhere indexes through np.nonzero of an argument with dimensions, and so through a
        # JAX argument's own nonzero: np.argwhere(J) is a NumPy array of JAX's default int (int32
        # with x64 off; measured), where np.argwhere of a 0-d J converts it first (int64).
        "argwhere": Fn("index", library, ("a",), arrays=("a",), shape="array", through_nonzero=library is NP),
        "nonzero": Fn("nonzero", library, ("a",), arrays=("a",), shape="as-is"),
        "bincount": Fn("bincount", library, ("x", "weights", "minlength"), arrays=("x",), shape="array"),
        "column_stack": Fn("concatenate", library, ("tup",), arrays=("tup",), shape="array", numpy_result_type=True),
        "append": Fn("append", library, ("arr", "values", "axis"), arrays=("arr", "values"), shape="as-is",
                     numpy_result_type=True),
    }
    out |= many(_INDEX_REDUCE, Fn("index", library, ("a", "axis"), arrays=("a",), shape="reduce"))
    out |= {
        "argsort": Fn("index", library, ("a", "axis"), arrays=("a",), shape="array", rank_change=RankChange.KEPT),
        # The result has the shape of the values looked up: a scalar for one Python value.
        "searchsorted": Fn("index", library, ("a", "v"), arrays=("v",),
                           result="int32" if library is JNP else ""),  # fmt: skip
    }
    out |= many(_REDUCE_SAME, Fn("reduce", library, ("a", "axis"), arrays=("a",), shape="reduce"))
    out |= {
        "zeros": Fn("create", library, ("shape", "dtype"), result="f", shape="array"),
        "ones": Fn("create", library, ("shape", "dtype"), result="f", shape="array"),
        "empty": Fn("create", library, ("shape", "dtype"), result="f", shape="array"),
        "eye": Fn("create", library, ("N", "M", "k", "dtype"), result="f", shape="array"),
        "identity": Fn("create", library, ("n", "dtype"), result="f", shape="array"),
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
        "var": Fn("mean", library, ("a", "axis", "dtype"), real=True, arrays=("a",), shape="reduce"),
        "std": Fn("mean", library, ("a", "axis", "dtype"), real=True, arrays=("a",), shape="reduce"),
        "any": Fn("bool", library, ("a", "axis"), arrays=(), shape="reduce"),
        "all": Fn("bool", library, ("a", "axis"), arrays=(), shape="reduce"),
        # NumPy's where and joining functions combine their inputs with np.result_type, not a
        # ufunc's loops: with ml_dtypes' types the two disagree (np.where(c, bf16, 1.0) is float64,
        # bf16 + 1.0 float32; np.concatenate of bfloat16 and float16 raises).
        "where": Fn("where", library, ("condition", "x", "y"), arrays=("x", "y"), shape="array",
                    numpy_result_type=True),
        # ml_dtypes registers no clip loop (NumPy's clip of bfloat16 is float32); jnp.clip checks
        # each operand for complex values before it promotes them.
        "clip": Fn("promote", library, ("a", "a_min", "a_max"), arrays=("a", "a_min", "a_max"),
                   numpy_native_loops_only=True, domain_per_operand=True),
        **many("concatenate stack", Fn("concatenate", library, ("arrays", "axis", "dtype"), arrays=("arrays",),
                                       shape="array", numpy_result_type=True)),
        **many("hstack vstack", Fn("concatenate", library, ("tup", "dtype"), arrays=("tup",), shape="array",
                                   numpy_result_type=True)),
        "reshape": Fn("same", library, ("a", "shape"), arrays=("a",), shape="array"),
        "transpose": Fn("same", library, ("a", "axes"), arrays=("a",), shape="array", rank_change=_KEPT),
        "squeeze": Fn("same", library, ("a", "axis"), arrays=("a",), shape="array"),
        "expand_dims": Fn("same", library, ("a", "axis"), arrays=("a",), shape="array"),
        "ravel": Fn("same", library, ("a",), arrays=("a",), shape="array", rank_change=RankChange.FLAT),
        "broadcast_to": Fn("same", library, ("array", "shape"), arrays=("array",), shape="array"),
        "tile": Fn("same", library, ("A", "reps"), arrays=("A",), shape="array"),
        "repeat": Fn("same", library, ("a", "repeats"), arrays=("a",), shape="array"),
        "flip": Fn("same", library, ("m", "axis"), arrays=("m",), shape="array", rank_change=_KEPT),
        "roll": Fn("same", library, ("a", "shift"), arrays=("a",), shape="array", rank_change=_KEPT),
        "sort": Fn("same", library, ("a",), arrays=("a",), shape="array", rank_change=_KEPT),
        **many("triu tril", Fn("same", library, ("m", "k"), arrays=("m",), shape="array", rank_change=_KEPT)),
        "diag": Fn("same", library, ("v", "k"), arrays=("v",), shape="array"),
        "dtype": Fn("dtype_of", library, ("dtype",)),
        "finfo": Fn("finfo", library, ("dtype",)),
        "iinfo": Fn("iinfo", library, ("int_type",)),
        "result_type": Fn("result_type", library, ("*arrays_and_dtypes",)),
        "promote_types": Fn("promote_types", library, ("type1", "type2")),
    }
    return out


NUMPY = _elementwise(NP)
NUMPY |= {
    "asanyarray": NUMPY["asarray"],
    "median": Fn("mean", NP, ("a", "axis"), arrays=("a",), shape="reduce"),
    "linalg.det": Fn("linalg", NP, ("a",), arrays=("a",), shape="as-is", needs_dimensions=True),
    "polyval": Fn("polyval", NP, ("p", "x"), arrays=("p", "x"), shape="as-is"),
    "interp": Fn("interp", NP, ("x", "xp", "fp"), arrays=("x", "xp", "fp"), shape="as-is"),
    "copy": Fn("asarray", NP, ("a",), arrays=("a",), shape="array"),  # np.array(a, copy=True)
    "ascontiguousarray": Fn("asarray", NP, ("a", "dtype"), arrays=("a",), shape="array"),
    # Arrays read from bytes, files or iterables: the dtype asked for, else float64 (memmap: uint8);
    # fromiter has no default (it raises without a dtype).
    "frombuffer": Fn("create", NP, ("buffer", "dtype", "count", "offset"), result="f", shape="array"),
    "fromfile": Fn("create", NP, ("file", "dtype", "count", "sep", "offset"), result="f", shape="array"),
    "fromstring": Fn("create", NP, ("string", "dtype", "count", "sep"), result="f", shape="array"),
    "fromiter": Fn("create", NP, ("iter", "dtype", "count"), shape="array"),
    "loadtxt": Fn("create", NP, ("fname", "dtype"), result="f", shape="array"),
    "memmap": Fn("create", NP, ("filename", "dtype", "mode", "offset", "shape"), result="uint8", shape="array"),
}

# NumPy hands these to the argument's own method, or indexes it, when it is not an ndarray:
# np.sum(J) is J.sum() and np.flip(J) is J[::-1], so a JAX argument gets a JAX result.  Measured
# on numpy 2.4 with jax 0.10; the other functions convert JAX arrays through ``__array__``.
# Of those, the ones NumPy calls through ``_wrapfunc`` fall back: a TypeError from the method makes
# NumPy convert the argument and run its own function (np.argmax of a complex JAX array is an int64).
_FALLING_BACK = frozenset({"argmax", "argmin", "cumsum", "cumprod", "searchsorted", "reshape", "transpose", "repeat",
                           "round", "nonzero"})  # fmt: skip
NUMPY_FORWARDED = {name: NUMPY[name] for name in (
    "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all", "cumsum",
    "cumprod", "searchsorted", "reshape", "transpose", "squeeze", "repeat", "flip", "round", "nonzero")}  # fmt: skip
NUMPY |= {name: Fn("forward", NP, fn.params, arrays=fn.arrays, shape="as-is", falls_back=name in _FALLING_BACK)
           for name, fn in NUMPY_FORWARDED.items()}

JAX_NUMPY = _elementwise(JNP)
JAX_NUMPY["einsum"] = Fn("einsum", JNP, ("subscripts", "*operands"), arrays=("operands",), shape="as-is")
JAX_NUMPY |= {
    "frombuffer": Fn("create", JNP, ("buffer", "dtype", "count", "offset"), result="f", shape="array"),
    "fromstring": Fn("create", JNP, ("string", "dtype", "count"), result="f", shape="array"),
    "take": Fn("same", JNP, ("a", "indices", "axis"), arrays=("a",), shape="array"),
    "reciprocal": Fn("inexact", JNP, ("x",), arrays=("x",)),  # NumPy's keeps integers
    "sinc": Fn("inexact", JNP, ("x",), arrays=("x",)),
    "median": Fn("mean", JNP, ("a", "axis"), arrays=("a",), shape="reduce"),
    "allclose": Fn("fixed", JNP, result="bool"),  # a strong JAX bool, where NumPy's is a Python bool
    "array_equal": Fn("fixed", JNP, result="bool"),
    "broadcast_arrays": Fn("meshgrid", JNP, ("*args",), arrays=("args",), shape="as-is"),
    "broadcast_shapes": Fn("int_tuple", PY),
    "iscomplexobj": Fn("python_scalar", PY, result="bool"),
    "linalg.det": Fn("linalg", JNP, ("a",), float16_runs=True, arrays=("a",), shape="as-is", needs_dimensions=True),
    "polyval": Fn("polyval", JNP, ("p", "x"), arrays=("p", "x"), shape="as-is", needs_dimensions=True),
    "rot90": Fn("same", JNP, ("m", "k", "axes"), arrays=("m",), shape="array", rank_change=_KEPT,
                needs_dimensions=True),
}
# What NumPy and JAX answer about arrays as Python values (jnp.allclose gives a JAX bool instead).
_PYTHON_ANSWERS = {
    **{name: Fn("python_scalar", PY, result="int") for name in ("ndim", "size")},
    **{name: Fn("python_scalar", PY, result="bool") for name in ("isscalar", "issubdtype")},
    "shape": Fn("int_tuple", PY),
}
NUMPY |= {**_PYTHON_ANSWERS, **{name: Fn("python_scalar", PY, result="bool") for name in ("allclose", "array_equal")}}
JAX_NUMPY |= _PYTHON_ANSWERS

"""The function catalog by qualified name: NumPy's and ``jax.numpy``'s namespaces, ``numpy.random``,
``jax.random``, ``jax.nn``, ``jax.scipy``, ``jax.lax``, ``math`` and the builtins; the entry in force
for a JAX version, other names of catalogued functions, and the constants modules export."""

from __future__ import annotations

from dataclasses import replace

from promolint.engine.catalog.array_namespace import JAX_NUMPY, NUMPY
from promolint.engine.catalog.rows import Draw, Fn, LaxChecks, RankChange, Weak
from promolint.engine.values import Library
from promolint.systems.jax_versions import JaxFacts

NP, JNP, PY = Library.NUMPY_ARRAY, Library.JAX, Library.PYTHON

CATALOG: dict[str, Fn] = {
    **{f"numpy.{k}": v for k, v in NUMPY.items()},
    **{f"jax.numpy.{k}": v for k, v in JAX_NUMPY.items()},
    # numpy.random: the legacy global functions draw float64 / int64; one draw (no size) is a
    # Python float or int.
    **{f"numpy.random.{k}": Fn("fixed", NP, params, result="float64", shape="sample")
       for k, params in (("rand", ("d0", "d1", "d2")), ("randn", ("d0", "d1", "d2")), ("random", ("size",)),
                         ("random_sample", ("size",)), ("normal", ("loc", "scale", "size")),
                         ("uniform", ("low", "high", "size")), ("standard_normal", ("size",)),
                         ("exponential", ("scale", "size")), ("gamma", ("shape", "scale", "size")),
                         ("beta", ("a", "b", "size")), ("laplace", ("loc", "scale", "size")),
                         ("lognormal", ("mean", "sigma", "size")))},  # fmt: skip
    "numpy.random.randint": Fn("create", NP, ("low", "high", "size", "dtype"), result="i", shape="sample"),
    "numpy.random.choice": Fn("same", NP, ("a", "size"), arrays=("a",), shape="sample"),
    # jax.random: default float/int unless dtype= says otherwise; dimensions from `shape`.  Where it
    # defaults to None (jax 0.10.2 signatures), from the `draw`'s parameters; elsewhere it defaults
    # to (): one value, and `choice` takes its elements from `a` whatever its dimensions.
    **{f"jax.random.{k}": Fn("random", JNP, ("key", "shape", "dtype"), result="f", shape="draw")
       for k in ("normal", "uniform", "gumbel", "laplace", "logistic", "exponential",
                 "cauchy")},  # fmt: skip
    "jax.random.truncated_normal": Fn("random", JNP, ("key", "lower", "upper", "shape", "dtype"), result="f",
                                      shape="draw", draw=Draw(("lower", "upper"))),  # fmt: skip
    "jax.random.randint": Fn("random", JNP, ("key", "shape", "minval", "maxval", "dtype"), result="i", shape="draw"),
    "jax.random.bernoulli": Fn("fixed", JNP, ("key", "p", "shape"), result="bool", shape="draw", draw=Draw(("p",))),
    "jax.random.PRNGKey": Fn("fixed", JNP, result="uint32", shape="array"),  # a raw key: 2 uint32 words
    "jax.random.key_data": Fn("fixed", JNP, result="uint32", shape="array"),  # of a raw key or a typed one
    # a shuffled copy of the array `x`, or of arange(x) for an int: one dimension at least
    "jax.random.permutation": Fn("choice", JNP, ("key", "x"), arrays=("x",), shape="draw", draw=Draw(("x",)),
                                 least_ndim=1),
    "jax.random.split": Fn("key", JNP, ("key", "num"), arrays=("key",), shape="array"),
    "jax.random.fold_in": Fn("key", JNP, ("key", "data"), arrays=("key",), shape="array"),
    # Draws in the default float (int for poisson and categorical) whatever their parameters' dtype.
    "jax.random.gamma": Fn("random", JNP, ("key", "a", "shape", "dtype"), result="f", shape="draw", draw=Draw(("a",))),
    "jax.random.beta": Fn("random", JNP, ("key", "a", "b", "shape", "dtype"), result="f", shape="draw",
                          draw=Draw(("a", "b"))),
    # dirichlet's last axis of `alpha` is the sample; categorical draws along `axis` of `logits`
    "jax.random.dirichlet": Fn("random", JNP, ("key", "alpha", "shape", "dtype"), result="f", shape="draw",
                               draw=Draw(("alpha",), added_to_shape=1)),
    "jax.random.poisson": Fn("random", JNP, ("key", "lam", "shape", "dtype"), result="i", shape="draw",
                             draw=Draw(("lam",))),
    "jax.random.categorical": Fn("random", JNP, ("key", "logits", "axis", "shape"), result="i", shape="draw",
                                 draw=Draw(("logits",), added=-1)),
    "jax.random.choice": Fn("choice", JNP, ("key", "a", "shape"), arrays=("a",), shape="draw"),
    # jax.nn: activations keep a float dtype.  Of an integer array (measured): relu and hard_tanh
    # keep it; those that scale by a Python float promote with it (weak float); the logistic ones
    # refuse it; the rest make it inexact.
    # (relu is ``maximum(x, 0)``: bool promotes with the Python int; relu6 scales by a float).
    **{f"jax.nn.{k}": Fn("scaled", JNP, ("x",), scalar="int", arrays=("x",)) for k in ("relu", "hard_tanh")},
    **{f"jax.nn.{k}": Fn("scaled", JNP, ("x",), scalar="float", arrays=("x",))
       for k in ("relu6", "leaky_relu", "elu", "celu", "selu")},
    **{f"jax.nn.{k}": Fn("float_only", JNP, ("x",), arrays=("x",)) for k in ("sigmoid", "silu", "swish", "glu")},
    **{f"jax.nn.{k}": Fn("inexact", JNP, ("x",), arrays=("x",))
       for k in ("tanh", "softmax", "log_softmax", "log_sigmoid", "standardize")},  # fmt: skip
    "jax.nn.softplus": Fn("scaled", JNP, ("x",), scalar="int", then_inexact=True, arrays=("x",)),
    "jax.nn.gelu": Fn("inexact", JNP, ("x",), weak=Weak.STRONG, arrays=("x",)),  # scales by strong constants (measured)
    "jax.nn.one_hot": Fn("random", JNP, ("x", "num_classes", "dtype"), result="f"),
    # logsumexp reduces in the input's float dtype (a strong result, as jnp.mean's); its ``b`` takes
    # part and ``return_sign`` adds the sign.
    **{f"{k}.logsumexp": Fn("mean", JNP, ("a", "axis"), arrays=("a",), shape="reduce",
                            unmodelled=frozenset({"b", "return_sign", "where"}))
       for k in ("jax.nn", "jax.scipy.special")},
    # jax.scipy.special: elementwise float functions, promoted as jnp.sqrt and jnp.arctan2 are.
    **{f"jax.scipy.special.{k}": Fn("inexact", JNP, ("x",), arrays=("x",))
       for k in ("gammaln", "digamma", "erf", "erfc", "erfinv", "expit", "logit", "entr", "i0e", "i1e")},
    **{f"jax.scipy.special.{k}": Fn("inexact", JNP, ("x", "y"), arrays=("x", "y"))
       for k in ("xlogy", "xlog1py", "betaln", "gammainc", "gammaincc")},  # fmt: skip
    "jax.scipy.linalg.solve": Fn("solve", JNP, ("a", "b"), arrays=("a", "b"), shape="as-is", needs_dimensions=True),
    "jax.scipy.linalg.solve_triangular": Fn("solve", JNP, ("a", "b"), float16_runs=True, arrays=("a", "b"),
                                            shape="as-is", needs_dimensions=True),
    "jax.scipy.linalg.block_diag": Fn("promote", JNP, ("*arrs",), weak=Weak.STRONG, arrays=("arrs",), shape="array"),
    "jax.ops.segment_sum": Fn("reduce", JNP, ("data", "segment_ids"), arrays=("data",), shape="array"),
    # jax.lax: no implicit promotion at all; the result is the operands' dtype, or as ``result``
    # says: bool for comparisons, the complex of that precision for lax.complex.
    **{f"jax.lax.{k}": Fn("lax", JNP, ("x", "y"), arrays=("x", "y"))
       for k in ("add", "sub", "mul", "div", "rem", "max", "min", "atan2", "nextafter", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "shift_left", "shift_right_logical", "shift_right_arithmetic")},  # fmt: skip
    **{f"jax.lax.{k}": Fn("lax", JNP, ("x", "y"), result="bool", arrays=("x", "y"))
       for k in ("eq", "ne", "lt", "le", "gt", "ge")},
    "jax.lax.complex": Fn("lax", JNP, ("x", "y"), result="complex", arrays=("x", "y")),
    # pow takes an integer exponent of any width beside its inexact base (lax.pow(x, -1)).
    "jax.lax.pow": Fn("lax_pow", JNP, ("x", "y"), arrays=("x", "y")),
    # The rest of lax's one-dtype set (measured, jax 0.10.2): the ``arrays`` must share a dtype;
    # the result is weak when they all are, or as ``weak`` says (``AS_OPERAND``: the operand's
    # flag, ``STRONG``: never).  The start indices are integers of one type.
    # select is select_n(pred, on_false, on_true): JAX's error lists on_false first.
    "jax.lax.select": Fn("lax", JNP, ("pred", "on_true", "on_false"), arrays=("on_false", "on_true"),
                         lax=LaxChecks(same_rank=("on_true", "on_false"), which="pred")),
    "jax.lax.select_n": Fn("lax", JNP, ("which", "*cases"), arrays=("cases",),
                           lax=LaxChecks(same_rank=("cases",), which="which", reported_as="select")),
    "jax.lax.clamp": Fn("lax", JNP, ("min", "x", "max"), arrays=("min", "x", "max")),
    "jax.lax.concatenate": Fn("lax", JNP, ("operands", "dimension"), arrays=("operands",), shape="array",
                              lax=LaxChecks(same_rank=("operands",))),
    "jax.lax.pad": Fn("lax", JNP, ("operand", "padding_value", "padding_config"), arrays=("operand", "padding_value"),
                      shape="array", lax=LaxChecks(scalar="padding_value")),
    "jax.lax.dynamic_slice": Fn("lax", JNP, ("operand", "start_indices", "slice_sizes"), arrays=("operand",),
                                shape="array", lax=LaxChecks(integer_indices=True)),
    "jax.lax.dynamic_slice_in_dim": Fn("lax", JNP, ("operand", "start_index", "slice_size", "axis"),
                                       arrays=("operand",), shape="array"),  # fmt: skip
    "jax.lax.dynamic_index_in_dim": Fn("lax", JNP, ("operand", "index", "axis", "keepdims"), arrays=("operand",),
                                       shape="array"),  # fmt: skip
    "jax.lax.dynamic_update_slice": Fn("lax", JNP, ("operand", "update", "start_indices"), weak=Weak.STRONG,
                                       arrays=("operand", "update"), shape="array",
                                       lax=LaxChecks(same_rank=("operand", "update"), integer_indices=True)),
    **{f"jax.lax.{k}": Fn("lax", JNP, ("operand", "update", "index", "axis"), weak=Weak.STRONG,
                          arrays=("operand", "update"), shape="array",
                          lax=LaxChecks(reported_as="dynamic_update_slice"))
       for k in ("dynamic_update_slice_in_dim", "dynamic_update_index_in_dim")},
    **{f"jax.lax.{k}": Fn("lax", JNP, ("operand", "scatter_indices", "updates", "dimension_numbers"),
                          weak=Weak.AS_OPERAND, arrays=("operand", "updates"), shape="array",
                          lax=LaxChecks(reported_as="scatter"))
       for k in ("scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max")},
    # Convolutions: lhs and rhs of one dtype (weak when both are); a preferred element type replaces it.
    **{f"jax.lax.{k}": Fn("lax", JNP, ("lhs", "rhs", "window_strides", "padding"), arrays=("lhs", "rhs"),
                          shape="array", lax=LaxChecks(reported_as="conv_general_dilated"),
                          unmodelled=frozenset({"preferred_element_type"}))
       for k in ("conv_general_dilated", "conv", "conv_with_general_padding")},
    "jax.lax.gather": Fn("lax", JNP, ("operand", "start_indices", "dimension_numbers", "slice_sizes"),
                         arrays=("operand",), shape="array"),  # fmt: skip
    "jax.lax.convert_element_type": Fn("lax_convert", JNP, ("operand", "new_dtype"), shape="array"),
    "jax.lax.abs": Fn("abs", JNP, ("x",), arrays=("x",)),
    # Reshaping and slicing keep the operand's dtype and weak flag.
    **{f"jax.lax.{k}": Fn("same", JNP, ("operand", "arg"), arrays=("operand",), shape="array", needs_dimensions=True)
       for k in ("reshape", "collapse", "broadcast_in_dim", "slice", "slice_in_dim", "index_in_dim")},
    **{f"jax.lax.{k}": Fn("same", JNP, ("operand", "arg"), arrays=("operand",), shape="array", needs_dimensions=True,
                          rank_change=RankChange.KEPT) for k in ("rev", "transpose")},
    **{f"jax.lax.{k}": Fn("same", JNP, ("operand", "arg"), arrays=("operand",), shape="array")
       for k in ("squeeze", "expand_dims", "broadcast")},
    "jax.lax.broadcast_shapes": Fn("int_tuple", PY),
    # Collectives over a named axis (vmap's axis_name, shard_map's mesh axes): the operand's dtype.
    **{f"jax.lax.{k}": Fn("collective", JNP, ("x", "axis_name"), arrays=("x",), shape="as-is")
       for k in ("psum", "pmean", "pmax", "pmin", "all_gather")},
    **{f"jax.lax.{k}": Fn("collective", JNP, ("x", "axis_name", "perm"), arrays=("x",), shape="as-is")
       for k in ("ppermute", "pshuffle")},
    "jax.lax.axis_index": Fn("fixed", JNP, ("axis_name",), result="int32", shape="as-is"),
    # The dtype JAX computes with: 64-bit ones narrowed with x64 off, Python types their kind's
    # default, None the default float (measured).
    "jax.dtypes.canonicalize_dtype": Fn("canonical_dtype", JNP, ("dtype",)),
    # jnp.result_type's own (measured on jax 0.10.2); the flag makes it a (dtype, weak) tuple.
    "jax.dtypes.result_type": Fn("result_type", JNP, ("*arrays_and_dtypes",),
                                 unmodelled=frozenset({"return_weak_type_flag"})),  # fmt: skip
    # a preferred element type replaces the operands' dtype
    "jax.lax.dot_general": Fn("promote", JNP, ("lhs", "rhs", "dimension_numbers"), arrays=("lhs", "rhs"),
                              shape="array", needs_dimensions=True,
                              unmodelled=frozenset({"preferred_element_type"})),  # fmt: skip
    "jax.lax.top_k": Fn("top_k", JNP, ("operand", "k"), arrays=("operand",), shape="as-is", needs_dimensions=True),
    **{f"jax.lax.{k}": Fn("same", JNP, ("x",), arrays=("x",))
       for k in ("neg", "sign", "floor", "ceil", "round", "exp", "log", "sin", "cos", "tanh", "sqrt",
                 "rsqrt", "logistic", "stop_gradient", "square")},  # fmt: skip
    # math and builtins: Python scalars.
    **{f"math.{k}": Fn("python_scalar", PY, result="float")
       for k in ("sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "atan2", "hypot", "pow",
                 "fabs", "erf", "gamma", "lgamma", "expm1", "log1p", "radians", "degrees")},  # fmt: skip
    **{f"math.{k}": Fn("python_scalar", PY, result="int")
       for k in ("floor", "ceil", "trunc", "factorial", "gcd", "comb", "perm", "isqrt")},  # fmt: skip
    # float(), int(), complex() and bool() are scalar types (calls.resolve_reference makes them
    # DTypeRefs), converted by calls.conversions.call_scalar_type, not catalog entries.
    "builtins.len": Fn("python_scalar", PY, result="int"),
    "builtins.range": Fn("python_range", PY, ("*args",)),
    # tuple() and list() of a sequence whose items are known: the same items (pgx's
    # `EMPTY, PAWN, ... = tuple(range(7))`).
    "builtins.tuple": Fn("python_sequence", PY, ("iterable",)),
    "builtins.list": Fn("python_sequence", PY, ("iterable",)),
    # zip() and enumerate(): tuples of an element of each iterable (a Python int first).
    "builtins.zip": Fn("python_zip", PY, ("*iterables",)),
    "builtins.enumerate": Fn("python_zip", PY, ("iterable",)),
    "builtins.abs": Fn("abs", PY, ("x",), arrays=("x",)),
    # min() and max() give back one of what they compare (dinosaur's `m_max = min(n_m, n_l - k)`).
    "builtins.min": Fn("one_of", PY, ("*args",)),
    "builtins.max": Fn("one_of", PY, ("*args",)),
    "builtins.isinstance": Fn("isinstance", PY, ("obj", "class_or_tuple")),
    "builtins.round": Fn("python_round", PY, ("number", "ndigits")),
}


def entry_for(qualname: str, facts: JaxFacts) -> Fn | None:
    """The catalog's entry for ``qualname``, with the weak flags of the JAX version in force."""
    fn = CATALOG.get(qualname)
    short = qualname.removeprefix("jax.numpy.")  # jnp's functions by their short names, others in full
    if fn is None or short not in facts.inexact_weak:
        return fn
    return replace(fn, weak=Weak(facts.inexact_weak[short]))


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

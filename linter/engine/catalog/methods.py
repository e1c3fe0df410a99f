"""The catalog's rows for array methods (the receiver is the first array; its library is the
receiver's), and what else is known of attributes: those of numbers, the methods that change or
copy what they are called on."""

from __future__ import annotations

from promolint.engine.catalog.rows import Fn, RankChange, many
from promolint.engine.values import Library

NP = Library.NUMPY_ARRAY

METHODS: dict[str, Fn] = {
    **many("reshape squeeze repeat", Fn("same", NP, ("self",), arrays=("self",), shape="array")),
    **many("transpose swapaxes sort", Fn("same", NP, ("self",), arrays=("self",), shape="array",
                                         rank_change=RankChange.KEPT)),
    **many("flatten ravel", Fn("same", NP, ("self",), arrays=("self",), shape="array", rank_change=RankChange.FLAT)),
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
    "var": Fn("mean", NP, ("self", "axis", "dtype"), real=True, arrays=("self",), shape="reduce"),
    "std": Fn("mean", NP, ("self", "axis", "dtype"), real=True, arrays=("self",), shape="reduce"),
    "argmax": Fn("index", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "argmin": Fn("index", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "argsort": Fn("index", NP, ("self", "axis"), arrays=("self",), shape="array", rank_change=RankChange.KEPT),
    "any": Fn("bool", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "all": Fn("bool", NP, ("self", "axis"), arrays=("self",), shape="reduce"),
    "item": Fn("item", NP, ("self",), arrays=("self",)),
    "dot": Fn("promote", NP, ("self", "b"), arrays=("self", "b"), shape="contract"),
    "clip": Fn("promote", NP, ("self", "min", "max"), arrays=("self", "min", "max"), numpy_native_loops_only=True,
               domain_per_operand=True),
}
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

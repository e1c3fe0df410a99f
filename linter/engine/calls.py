"""Calls of catalogued functions and array methods: one implementation per catalog rule."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from linter.dtypes import (
    BUILTIN_TYPE_DTYPES,
    DEFAULT_DTYPE_X64,
    DTYPES,
    MODULE_DTYPE_ATTRIBUTES,
    is_64bit,
    narrow_x32,
    resolve_string,
)
from linter.engine import operations
from linter.engine.catalog import CATALOG, CONSTANTS, METHODS, NUMPY_FORWARDED, Fn
from linter.engine.context import Context
from linter.systems.base import Operand
from linter.engine.values import (
    UNKNOWN,
    Array,
    Bound,
    DTypeRef,
    FInfo,
    Items,
    Library,
    Reference,
    Refusal,
    Value,
    array,
    python_scalar,
)


@dataclass
class Call:
    """A call bound to its catalog entry: what rules read (``dtype=`` requests, operands)."""

    name: str
    fn: Fn
    bound: dict[str, Value] = field(default_factory=dict)
    ctx: Context = field(default_factory=Context)

    def arrays(self) -> list[Array]:
        out: list[Array] = []
        for param in self.fn.arrays:
            value = self.bound.get(param)
            items = value.items if isinstance(value, Items) else (value,)
            out += [v for v in items if isinstance(v, Array)]
        return out

    def requested_dtype(self) -> DTypeRef | None:
        for param in ("dtype", "new_dtype"):
            value = self.bound.get(param)
            if isinstance(value, DTypeRef):
                return value
        return None


def bind(fn: Fn, args: Sequence[Value], kwargs: Mapping[str, Value]) -> dict[str, Value]:
    bound = dict(zip(fn.params, args))
    bound.update(kwargs)
    return bound


# --- dtype requests --------------------------------------------------------------------------
def as_dtype(value: Value | None) -> DTypeRef | None:
    """A value used as a dtype argument: ``np.float32``, ``'f4'``, ``float``, ``x.dtype``."""
    if isinstance(value, DTypeRef):
        return value
    if isinstance(value, Array) and value.library is Library.PYTHON and isinstance(value.literal, str):
        name = resolve_string(value.literal)
        return DTypeRef(name) if name else None
    return None


def requested(ref: DTypeRef, library: Library, ctx: Context) -> Array:
    """The array an explicit ``dtype=`` produces: JAX narrows 64-bit requests with x64 off
    (warning unless the request was a builtin type, keeping them with explicit x64 'allow')."""
    name = ref.name
    if library is Library.JAX and not ctx.x64:
        keeps = ctx.explicit_x64 == "allow" and not ref.builtin
        name = name if keeps else narrow_x32(name)
    intended = is_64bit(name) and not ref.builtin
    return array(name, library, intended64=intended or (library is Library.JAX and ctx.x64 and is_64bit(name)))


def default(kind: str, library: Library, ctx: Context, what: str) -> Array:
    if kind in DTYPES:
        name = kind
    elif library is Library.JAX:
        name = ctx.jax.default_dtype(kind)
    else:
        name = DEFAULT_DTYPE_X64[kind]
    return array(
        name,
        library,
        intended64=library is Library.JAX and is_64bit(name),
        provenance=f"{what} defaults to {name}",
    )


def _scalar_or_array(value: Array, fn_library: Library, inputs: Sequence[Array]) -> Library:
    """NumPy functions of scalars give NumPy scalars; of any array, arrays."""
    if fn_library is not Library.NUMPY_ARRAY:
        return fn_library
    if any(v.library in (Library.NUMPY_ARRAY, Library.JAX) for v in inputs):
        return Library.NUMPY_ARRAY
    return Library.NUMPY_SCALAR


def _as_numpy(value: Array) -> Array:
    """A JAX array passed to a NumPy function is converted through ``__array__``."""
    if value.library is Library.JAX:
        return Array(value.dtypes, Library.NUMPY_ARRAY, False)
    return value


def _library_inputs(call: Call) -> list[Array]:
    """The array arguments as the function sees them: NumPy functions convert JAX arrays
    through ``__array__``; JAX functions narrow NumPy values as ``jnp.asarray`` does."""
    inputs = call.arrays()
    if call.fn.library is Library.NUMPY_ARRAY:
        return [_as_numpy(v) for v in inputs]
    if call.fn.library is Library.JAX:
        return [_as_jax(v, call.ctx) for v in inputs]
    return inputs


def _as_jax(value: Array, ctx: Context) -> Array:
    if value.library is Library.JAX or value.library is Library.PYTHON or ctx.x64:
        return value
    return Array(frozenset(narrow_x32(d) for d in value.dtypes), value.library, False)


def _promote(call: Call, inputs: Sequence[Array]) -> Value:
    library = _scalar_or_array(inputs[0], call.fn.library, inputs) if inputs else call.fn.library
    rules = Library.JAX if library is Library.JAX else Library.NUMPY_ARRAY
    outcome = operations.collect(operations.promote(inputs, rules, call.ctx), library)
    if isinstance(outcome, Array) and library is not Library.JAX:
        outcome = Array(outcome.dtypes, library, False)
    return outcome


# --- rules ------------------------------------------------------------------------------------
def _rule_create(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    return default(call.fn.default, call.fn.library, call.ctx, _short(call.name))


def _rule_full(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    fill = call.bound.get("fill_value")
    return _rule_asarray(Call(call.name, call.fn, {"object": fill}, call.ctx)) if fill is not None else UNKNOWN


def _rule_like(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    inputs = call.arrays()
    if not inputs:
        return UNKNOWN
    source = inputs[0]
    if call.fn.library is Library.JAX:
        return _rule_asarray(Call(call.name, call.fn, {"object": source}, call.ctx))
    return Array(source.dtypes, Library.NUMPY_ARRAY, False)


def _rule_asarray(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    data = call.bound.get("object", call.bound.get("a"))
    library = call.fn.library
    if isinstance(data, Items):
        leaves = _leaves(data)
        if leaves is None or not leaves:
            return UNKNOWN
        if library is Library.JAX:
            # jnp.array of a list: the elements' result type, strong; NumPy elements are narrowed.
            outcome = operations.collect(operations.promote(leaves, Library.JAX, call.ctx), Library.JAX)
            return Array(outcome.dtypes, Library.JAX, False) if isinstance(outcome, Array) else outcome
        # np.array of a list: Python scalars count as their default dtypes, not as weak.
        strong = [Array(v.dtypes, Library.NUMPY_SCALAR, False) if v.library is Library.PYTHON else _as_numpy(v)
                  for v in leaves]  # fmt: skip
        outcome = operations.collect(operations.promote(strong, Library.NUMPY_ARRAY, call.ctx), Library.NUMPY_ARRAY)
        return Array(outcome.dtypes, Library.NUMPY_ARRAY, False) if isinstance(outcome, Array) else outcome
    if not isinstance(data, Array):
        return UNKNOWN
    if library is Library.JAX:
        if data.library is Library.JAX:
            return data
        if data.library is Library.PYTHON:
            overflow = _python_int_overflow(data, call.ctx)
            if overflow:
                return overflow
            dtypes = frozenset(call.ctx.jax.canonical_dtype(Operand(d)) for d in data.dtypes)
            return Array(dtypes, Library.JAX, data.weak, provenance=data.provenance)
        dtypes = frozenset(narrow_x32(d) if not call.ctx.x64 else d for d in data.dtypes)
        return Array(dtypes, Library.JAX, False)
    return Array(data.dtypes, Library.NUMPY_ARRAY, False, intended64=data.intended64)


def _python_int_overflow(value: Array, ctx: Context) -> Refusal | None:
    if type(value.literal) is not int:
        return None
    bounds = operations.int_bounds("int64" if ctx.x64 else "int32")
    if bounds and not bounds[0] <= value.literal <= bounds[1]:
        return Refusal("OverflowError", f"Python int {value.literal} too large to convert to "
                       f"{'int64' if ctx.x64 else 'int32'}")  # fmt: skip
    return None


def _leaves(items: Items) -> list[Array] | None:
    leaves: list[Array] = []
    for item in items.items:
        if isinstance(item, Items):
            inner = _leaves(item)
            if inner is None:
                return None
            leaves += inner
        elif isinstance(item, Array) and item.dtypes:
            leaves.append(item)
        else:
            return None
    return leaves


def _rule_arange(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    bounds = [call.bound[p] for p in ("start", "stop", "step") if p in call.bound]
    if not all(isinstance(b, Array) for b in bounds):
        return UNKNOWN
    kinds = {DTYPES[d].kind for b in bounds for d in b.dtypes}
    kind = "f" if kinds & {"f", "c"} else "i"
    if any(b.library is not Library.PYTHON for b in bounds):
        return Array(frozenset(), call.fn.library, None)  # arange of arrays: left to promotion, not modelled
    return default(kind, call.fn.library, call.ctx, _short(call.name))


def _rule_linspace(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    return default("f", call.fn.library, call.ctx, _short(call.name))


def _rule_promote(call: Call) -> Value:
    inputs = _library_inputs(call)
    if not inputs:
        return UNKNOWN
    return _promote(call, inputs)


def _rule_inexact(call: Call) -> Value:
    inputs = _library_inputs(call)
    if not inputs:
        return UNKNOWN
    promoted = _promote(call, inputs) if len(inputs) > 1 else _promote(call, inputs[:1])
    if not isinstance(promoted, Array):
        return promoted
    if call.fn.library is Library.JAX:
        return operations.to_inexact(promoted, Library.JAX)
    if len(inputs) > 1:  # NumPy's binary float functions have no float16 loop for ints
        return Array(frozenset("float64" if DTYPES[d].kind in "biu" else d for d in promoted.dtypes),
                     promoted.library, False)  # fmt: skip
    return operations.to_inexact(promoted, Library.NUMPY_ARRAY)


def _rule_same(call: Call) -> Value:
    inputs = _library_inputs(call)
    if not inputs:
        return UNKNOWN
    if call.fn.library is Library.PYTHON:
        return inputs[0]
    return _promote(call, inputs[:1])


def _rule_bool(call: Call) -> Value:
    inputs = _library_inputs(call)
    library = _scalar_or_array(inputs[0], call.fn.library, inputs) if inputs else call.fn.library
    if len(inputs) > 1:
        promoted = _promote(call, inputs)
        if isinstance(promoted, Refusal):
            return promoted
    return array("bool", library)


def _rule_index(call: Call) -> Value:
    return default("i", call.fn.library, call.ctx, _short(call.name))


def _rule_sum(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    inputs = _library_inputs(call)
    if not inputs:
        return UNKNOWN
    library = call.fn.library
    source = inputs[0]
    result = set()
    for d in source.dtypes:
        kind = DTYPES[d].kind
        if kind in "bi" and (library is not Library.JAX or DTYPES[d].bits < 32 or kind == "b"):
            result.add(default("i", library, call.ctx, "").dtype)
        elif kind == "u" and (library is not Library.JAX or DTYPES[d].bits < 32):
            result.add(default("u", library, call.ctx, "").dtype)
        else:
            result.add(d)
    return Array(frozenset(result), _reduction_library(call, source), False)


def _reduction_library(call: Call, source: Array) -> Library:
    if call.fn.library is Library.JAX:
        return Library.JAX
    return Library.NUMPY_SCALAR if "axis" not in call.bound else Library.NUMPY_ARRAY


def _rule_cumsum(call: Call) -> Value:
    if call.fn.library is Library.JAX:
        ref = as_dtype(call.bound.get("dtype"))
        if ref:
            return requested(ref, Library.JAX, call.ctx)
        inputs = call.arrays()
        return Array(inputs[0].dtypes, Library.JAX, False) if inputs else UNKNOWN
    summed = _rule_sum(call)
    return Array(summed.dtypes, Library.NUMPY_ARRAY, False) if isinstance(summed, Array) else summed


def _rule_mean(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    inputs = _library_inputs(call)
    if not inputs:
        return UNKNOWN
    source = inputs[0]
    if call.fn.library is Library.JAX:
        return Array(operations.to_inexact(source, Library.JAX).dtypes, Library.JAX, False)
    dtypes = frozenset("float64" if DTYPES[d].kind in "biu" else d for d in source.dtypes)
    return Array(dtypes, _reduction_library(call, source), False, provenance="np.mean of integers is float64")


def _rule_reduce(call: Call) -> Value:
    inputs = _library_inputs(call)
    if not inputs:
        return UNKNOWN
    return Array(inputs[0].dtypes, _reduction_library(call, inputs[0]), False)


def _rule_concatenate(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    sequence = next((call.bound[p] for p in call.fn.arrays if p in call.bound), None)
    if not isinstance(sequence, Items):
        return UNKNOWN
    leaves = [v for v in sequence.items if isinstance(v, Array)]
    if len(leaves) != len(sequence.items) or not leaves:
        return UNKNOWN
    if call.fn.library is not Library.JAX:
        leaves = [_as_numpy(v) for v in leaves]
    promoted = _promote(call, leaves)
    if isinstance(promoted, Array):
        library = Library.NUMPY_ARRAY if call.fn.library is Library.NUMPY_ARRAY else Library.JAX
        return Array(promoted.dtypes, library, promoted.weak if library is Library.JAX else False)
    return promoted


def _rule_where(call: Call) -> Value:
    inputs = _library_inputs(call)
    if len(inputs) != 2:
        return UNKNOWN  # one-argument where gives index arrays
    return _promote(call, inputs)


def _rule_fixed(call: Call) -> Value:
    return array(call.fn.default, call.fn.library, provenance=f"{_short(call.name)} gives {call.fn.default}")


def _rule_random(call: Call) -> Value:
    return _rule_create(call)


def _rule_finfo(call: Call) -> Value:
    arg = call.bound.get("dtype")
    ref = as_dtype(arg)
    name = ref.name if ref else (arg.dtype if isinstance(arg, Array) and arg.dtype else None)
    if name is None:
        return UNKNOWN
    if call.fn.library is Library.JAX and not call.ctx.x64:
        name = narrow_x32(name)
    return FInfo(name)


def _rule_iinfo(call: Call) -> Value:
    finfo = _rule_finfo(Call(call.name, call.fn, {"dtype": call.bound.get("int_type")}, call.ctx))
    return FInfo(finfo.dtype, integer=True) if isinstance(finfo, FInfo) else UNKNOWN


def _rule_dtype_of(call: Call) -> Value:
    arg = call.bound.get("dtype")
    ref = as_dtype(arg)
    if ref:
        return DTypeRef(ref.name)
    if isinstance(arg, Array) and arg.dtype:
        return DTypeRef(arg.dtype)
    return UNKNOWN


def _rule_result_type(call: Call) -> Value:
    return UNKNOWN  # needs varargs; dtype results are rarely used in arithmetic


def _rule_lax(call: Call) -> Value:
    """``jax.lax`` binary ops: operands must share a dtype; Python scalars count as their
    default dtype."""
    inputs = call.arrays()
    if len(inputs) != 2 or not all(v.dtype for v in inputs):
        return UNKNOWN
    dtypes = [call.ctx.jax.canonical_dtype(Operand(v.dtype)) if v.library is not Library.JAX else v.dtype
              for v in inputs]  # fmt: skip
    op = _short(call.name).split(".")[-1]
    if dtypes[0] != dtypes[1]:
        return Refusal("TypeError", f"lax.{op} requires arguments to have the same dtypes, got "
                       f"{dtypes[0]}, {dtypes[1]}.")  # fmt: skip
    dtype = "bool" if op in ("eq", "ne", "lt", "le", "gt", "ge") else dtypes[0]
    weak = all(v.weak for v in inputs) and dtype != "bool"
    return array(dtype, Library.JAX, weak)


def _rule_lax_convert(call: Call) -> Value:
    ref = as_dtype(call.bound.get("new_dtype"))
    return requested(ref, Library.JAX, call.ctx) if ref else UNKNOWN


def _rule_python_scalar(call: Call) -> Value:
    return python_scalar(call.fn.default)


def _rule_astype(call: Call) -> Value:
    receiver = call.bound.get("self")
    ref = as_dtype(call.bound.get("dtype"))
    if not isinstance(receiver, Array) or ref is None:
        return UNKNOWN
    library = Library.JAX if receiver.library is Library.JAX else receiver.library
    return requested(ref, library, call.ctx)


def _rule_item(call: Call) -> Value:
    receiver = call.bound.get("self")
    if not isinstance(receiver, Array) or receiver.dtype is None:
        return UNKNOWN
    kind = DTYPES[receiver.dtype].kind
    return python_scalar({"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}[kind])


def _rule_forward(call: Call) -> Value:
    """``np.sum(J)`` calls ``J.sum()``: JAX arrays get JAX's method, the rest NumPy's function."""
    source = call.bound.get("a")
    name = _short(call.name).split(".")[-1]
    if isinstance(source, Array) and source.library is Library.JAX:
        return call_method(source, name, [], {k: v for k, v in call.bound.items() if k != "a"}, call.ctx)[0]
    fn = NUMPY_FORWARDED[name]
    return RULES[fn.rule](Call(call.name, fn, call.bound, call.ctx))


RULES: dict[str, Callable[[Call], Value]] = {
    name[len("_rule_") :]: rule for name, rule in globals().items() if name.startswith("_rule_")
}


def _short(qualname: str) -> str:
    for module, alias in (("jax.numpy.", "jnp."), ("numpy.", "np.")):
        if qualname.startswith(module):
            return alias + qualname[len(module) :]
    return qualname


# --- entry points -----------------------------------------------------------------------------
def resolve_reference(qualname: str) -> Value:
    """A dotted name: a dtype (``numpy.float32``), a constant (``numpy.pi``), or a reference."""
    module, _, attr = qualname.rpartition(".")
    dtype = MODULE_DTYPE_ATTRIBUTES.get(module, {}).get(attr)
    if dtype:
        return DTypeRef(dtype, module=module)
    if qualname in CONSTANTS:
        return python_scalar("float", CONSTANTS[qualname], provenance=f"{_short(qualname)} is a Python float")
    if module == "builtins" and attr in BUILTIN_TYPE_DTYPES:
        return DTypeRef(BUILTIN_TYPE_DTYPES[attr], builtin=True)
    return Reference(qualname)


def call(func: Value, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    """Call a function value: a catalogued function, an array method, or a scalar type."""
    if isinstance(func, Reference):
        return call_function(func.qualname, args, kwargs, ctx)
    if isinstance(func, Bound):
        return call_method(func.receiver, func.method, args, kwargs, ctx)
    if isinstance(func, DTypeRef):
        return _call_scalar_type(func, args, kwargs, ctx)
    return UNKNOWN, None


def _call_scalar_type(ref: DTypeRef, args, kwargs, ctx: Context) -> tuple[Value, Call | None]:
    """``np.float32(x)`` is a NumPy scalar, ``jnp.float32(x)`` a strong JAX array, ``float(x)``
    a Python float."""
    if ref.builtin:
        kind = {"bool": "bool", "int64": "int", "float64": "float", "complex128": "complex"}[ref.name]
        return (_builtin_conversion(kind, args[0]) if args else python_scalar(kind, kind != "bool" and 0 or False)), None
    library = Library.JAX if ref.module == "jax.numpy" else Library.NUMPY_SCALAR
    fn = Fn("scalar_type", library, ("x",))
    # The type called is the dtype requested: rules read it as if passed as dtype=.
    bound = Call(f"{ref.module or 'numpy'}.{ref.name}", fn, {**bind(fn, args, kwargs), "dtype": ref}, ctx)
    source = bound.bound.get("x")
    if library is Library.JAX and isinstance(source, Array) and source.library is Library.PYTHON:
        overflow = _python_int_overflow(source, ctx)
        if overflow:
            return overflow, bound
    return requested(DTypeRef(ref.name), library, ctx), bound


def call_function(qualname: str, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    fn = CATALOG.get(qualname)
    if fn is None:
        return UNKNOWN, None
    call = Call(qualname, fn, bind(fn, args, kwargs), ctx)
    return RULES[fn.rule](call), call


def _builtin_conversion(kind: str, source: Value) -> Value:
    literal = None
    if isinstance(source, Array) and source.library is Library.PYTHON and source.literal is not None:
        try:
            literal = {"bool": bool, "int": int, "float": float, "complex": complex}[kind](source.literal)
        except (TypeError, ValueError, OverflowError):
            literal = None
    return python_scalar(kind, literal)


def call_method(receiver: Value, name: str, args: Sequence[Value], kwargs: Mapping[str, Value], ctx: Context) -> tuple[Value, Call | None]:
    if isinstance(receiver, FInfo):
        return UNKNOWN, None
    if not isinstance(receiver, Array) or receiver.library is Library.PYTHON:
        return UNKNOWN, None
    fn = METHODS.get(name)
    if fn is None:
        return UNKNOWN, None
    library = Library.JAX if receiver.library is Library.JAX else Library.NUMPY_ARRAY
    fn = Fn(fn.rule, library, fn.params, fn.default, fn.arrays)
    call = Call(name, fn, bind(fn, [receiver, *args], kwargs), ctx)
    value = RULES[fn.rule](call)
    if isinstance(value, Array) and receiver.library is Library.NUMPY_SCALAR and value.library is Library.NUMPY_ARRAY:
        value = Array(value.dtypes, Library.NUMPY_SCALAR, value.weak, intended64=value.intended64)
    return value, call


def attribute(value: Value, name: str) -> Value:
    """``x.T``, ``x.dtype``, ``finfo.eps``, ``x.real``, ``x.shape`` ..."""
    if isinstance(value, Reference):
        return resolve_reference(f"{value.qualname}.{name}")
    if isinstance(value, FInfo):
        if name in ("eps", "max", "min", "tiny", "resolution", "smallest_normal", "epsneg") and not value.integer:
            return array(value.dtype, Library.NUMPY_SCALAR, provenance=f"finfo({value.dtype}).{name} is a NumPy "
                         f"{value.dtype} scalar")  # fmt: skip
        if name in ("max", "min", "bits"):
            return python_scalar("int")
        if name == "dtype":
            return DTypeRef(value.dtype)
        return UNKNOWN
    if isinstance(value, DTypeRef):
        if name == "type":
            return value
        return UNKNOWN
    if not isinstance(value, Array):
        return UNKNOWN
    if name in ("T", "mT"):
        return value
    if name == "dtype":
        return DTypeRef(value.dtype) if value.dtype else UNKNOWN
    if name in ("real", "imag") and value.library is not Library.PYTHON:
        dtypes = frozenset({"complex64": "float32", "complex128": "float64"}.get(d, d) for d in value.dtypes)
        return Array(dtypes, value.library, value.weak)
    if name in ("ndim", "size", "nbytes", "itemsize"):
        return python_scalar("int")
    if name in METHODS or name in ("at",):
        return Bound(value, name)
    return UNKNOWN

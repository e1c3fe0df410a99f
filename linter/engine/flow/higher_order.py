"""JAX functions that take functions: transformations that keep what the function computes
(``jax.jit``, ``vmap``, ``pmap``, ``shard_map``, ``checkpoint``, ``custom_jvp``...), the
gradients (``jax.grad``, ``value_and_grad``), ``jax.jvp``, ``tree_map``, ``functools.partial``,
and lax's control flow (``promolint.engine.flow.control``).  Measured on jax 0.10.2
(tests/oracle/corpus/higher_order.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from promolint.core.dtypes import DTYPES
from promolint.engine import calls
from promolint.engine.context import Context
from promolint.engine.flow import control
from promolint.engine.flow.frames import Frame
from promolint.engine.flow.functions import Functions
from promolint.engine.flow.trees import leaves, rebuild, unknown_leaf
from promolint.engine.records import OperationKind
from promolint.engine.values import (UNKNOWN, Array, Bound, Class, Elements, Function, Instance, Items, Keyed, Reference,
                                     Refusal, Value, is_none)

# JAX's transformations that trace the function: its arguments arrive as JAX arrays.
TRACING = frozenset({
    "jax.jit", "jax.vmap", "jax.pmap", "jax.checkpoint", "jax.remat", "jax.ad_checkpoint.checkpoint",
    "jax.ad_checkpoint.remat", "jax.shard_map", "jax.experimental.shard_map.shard_map", "jax.experimental.pjit.pjit",
    "jax.numpy.vectorize",
})  # fmt: skip
# Those that compile it, cached by the dtypes and weak types of its arguments.
COMPILING = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})
# Decorators that keep what the function's body computes.  ``custom_jvp``/``custom_vjp`` call
# it with the arguments as they are (a Python float stays one, measured) unless it is traced.
TRANSPARENT = TRACING | {"jax.named_call", "jax.custom_jvp", "jax.custom_vjp", "functools.wraps", "functools.cache",
                         "functools.lru_cache", "staticmethod"}  # fmt: skip
# vmap and pmap pass an argument mapped over no axis (``in_axes`` None) as it is.
_MAPPING = frozenset({"jax.vmap", "jax.pmap"})
# ``jnp.vectorize`` converts its positional arguments with ``jnp.asarray`` and maps the function
# over them, all but those ``excluded`` names (positions, or keywords: passed as they are).
_VECTORIZE = "jax.numpy.vectorize"
_GRADIENTS = MappingProxyType({"jax.grad": False, "jax.value_and_grad": True})  # with the value?
_TREE_MAPS = MappingProxyType({  # with the path?
    "jax.tree_util.tree_map": False, "jax.tree.map": False, "jax.tree_map": False,
    "jax.tree_util.tree_map_with_path": True, "jax.tree.map_with_path": True,
})  # fmt: skip
_TREE_LEAVES = frozenset({"jax.tree_util.tree_leaves", "jax.tree.leaves", "jax.tree_leaves"})
_PARTIAL = "functools.partial"
_MAP = "builtins.map"
_JVP = "jax.jvp"


@dataclass(frozen=True)
class Partial(Value):
    """``functools.partial(func, *args, **kwargs)``: calls ``func`` with these arguments first."""

    func: Value
    args: tuple[Value, ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()


@dataclass(frozen=True)
class Gradient(Value):
    """``jax.grad(func, argnums, has_aux)`` or ``jax.value_and_grad(...)`` (``with_value``)."""

    func: Value
    argnums: int | tuple[int, ...] = 0
    has_aux: bool = False
    with_value: bool = False


class Host(Protocol):
    """What higher-order calls need of the flow (``promolint.engine.flow.flow.Flow``)."""

    functions: Functions
    recording: bool

    def call(self, func: Value, args: list[Value], kwargs: dict[str, Value], frame: Frame, handle: object,
             static: Callable[[list[str]], frozenset[str]]) -> Value: ...  # fmt: skip

    def operation(self, kind: str, op: str, operands: tuple[Value, ...], result: Value, frame: Frame,
                  handle: object, **extra) -> None: ...  # fmt: skip


def keeps_body(decorators: Sequence[str | None]) -> bool:
    """Whether a function with these decorators (qualified names) computes what its body does."""
    return all(name in TRANSPARENT for name in decorators)


def no_static(names: list[str]) -> frozenset[str]:
    """No parameter stays static: a call made by JAX or by an operator, not by the code's syntax."""
    return frozenset()


def call(flow: Host, func: Value, args: list[Value], kwargs: dict[str, Value], frame: Frame, handle: object,
         static: Callable[[list[str]], frozenset[str]]) -> Value | None:  # fmt: skip
    """The value of ``func(*args, **kwargs)`` when ``func`` takes or is made from functions (else
    None): ``static`` names the parameters ``jax.jit(f, ...)`` keeps static, given f's
    parameter names (the front end reads them from the call's syntax)."""

    def invoke(callee: Value, arguments: Sequence[Value], keywords: Mapping[str, Value] | None = None) -> Value:
        return flow.call(callee, list(arguments), dict(keywords or {}), frame, handle, no_static)

    def quiet(callee: Value, arguments: Sequence[Value]) -> Value:
        recording, flow.recording = flow.recording, False
        try:
            return invoke(callee, arguments)
        finally:
            flow.recording = recording

    if isinstance(func, Partial):
        return flow.call(func.func, [*func.args, *args], {**dict(func.kwargs), **kwargs}, frame, handle, static)
    if isinstance(func, Gradient):
        return _gradient(func, args, kwargs, frame.ctx, invoke)
    if not isinstance(func, Reference):
        return None
    name = func.qualname
    first = args[0] if args else kwargs.get("fun", kwargs.get("f"))
    if name in TRANSPARENT and first is not None:
        return _transformed(flow.functions, name, first, args[1:], kwargs, static)
    if name in _GRADIENTS and first is not None:
        return _gradient_of(first, args[1:], kwargs, _GRADIENTS[name])
    if name == _PARTIAL and args:
        return Partial(args[0], tuple(args[1:]), tuple(sorted(kwargs.items())))
    if name in _TREE_MAPS and len(args) >= 2:
        return _tree_map(invoke, args[0], args[1], args[2:], with_path=_TREE_MAPS[name])
    if name == _MAP and len(args) >= 2 and all(isinstance(a, Items) for a in args[1:]):
        return _builtin_map(invoke, args[0], args[1:])  # type: ignore[arg-type]
    if name in _TREE_LEAVES and args:
        found = leaves(args[0])
        return Items(tuple(found), is_tuple=False) if found is not None else UNKNOWN
    if name in control.CONTROL:
        operands, result = control.run(name, invoke, quiet, args, kwargs, frame.ctx)
        flow.operation(OperationKind.CONTROL, name, operands, result, frame, handle)
        return result
    if name == _JVP and len(args) + len(kwargs) >= 3 and first is not None:
        primals, tangents = (args[i] if len(args) > i else kwargs.get(key)
                             for i, key in ((1, "primals"), (2, "tangents")))  # fmt: skip
        result = _jvp(invoke, first, primals, tangents, kwargs.get("has_aux"), frame.ctx)
        return flow.operation(OperationKind.CALL, name, tuple(args), result, frame, handle)
    return None


def _jvp(invoke: Callable[..., Value], func: Value, primals: Value | None, tangents: Value | None,
         has_aux: Value | None, ctx: Context) -> Value:  # fmt: skip
    """``jax.jvp(func, primals, tangents)``: each tangent must have its primal's dtype as JAX
    canonicalizes it (a Python float's is float64 under x64; the weak flag does not count), and
    an integer or bool primal's tangent must be float0, so any other raises TypeError (measured,
    jax 0.10.2); then the function's output and, for its inexact leaves, tangents of their dtype."""
    if not (isinstance(primals, Items) and isinstance(tangents, Items)) or len(primals.items) != len(tangents.items):
        return UNKNOWN
    traced = [calls.as_traced(p, ctx) for p in primals.items]
    wanted, given = leaves(Items(tuple(traced), is_tuple=True)), leaves(tangents)
    if given is None or wanted is None or len(given) != len(wanted):
        return UNKNOWN
    for primal, tangent in zip(wanted, (calls.as_traced(t, ctx) for t in given)):
        if not (isinstance(primal, Array) and primal.dtype and isinstance(tangent, Array) and tangent.dtype):
            continue
        if DTYPES[primal.dtype].kind in "biu" or primal.dtype != tangent.dtype:
            expected = "float0" if DTYPES[primal.dtype].kind in "biu" else primal.dtype
            return Refusal("TypeError", f"primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
                           f"or in case of int/bool primal dtype the tangent dtype must be float0. Got primal dtype "
                           f"{primal.dtype} and so expected tangent dtype {expected}, but got tangent dtype "
                           f"{tangent.dtype} instead")  # fmt: skip
    if has_aux is not None and not (isinstance(has_aux, Array) and has_aux.literal is False):
        return UNKNOWN
    output = invoke(func, traced)
    found = leaves(output)
    if isinstance(output, Refusal) or found is None:
        return UNKNOWN
    inexact = [leaf if isinstance(leaf, Array) and leaf.dtypes and all(DTYPES[d].kind in "fc" for d in leaf.dtypes)
               else UNKNOWN for leaf in found]  # fmt: skip
    return Items((output, rebuild(output, inexact)), is_tuple=True)


def out_of_sight(func: Value, args: Sequence[Value], kwargs: Mapping[str, Value],
                 open_keywords: bool = False) -> tuple[bool, frozenset[object]]:  # fmt: skip
    """How a call of ``func``, a value other than the program's own function, may call the
    program's functions where the engine does not follow it: whether the callee may itself be
    one (a value the engine does not know), and the functions (their keys) it is given that it
    may call (library code other than the transformations above, whose functions' calls the
    flow follows).  ``functools.partial`` given arguments by position (or ``**`` a mapping the
    engine does not know) leaves unknown which parameter a later call's arguments fill."""
    if isinstance(func, (Partial, Gradient, Class)):
        return False, frozenset()
    if isinstance(func, (Reference, Bound, Instance)):  # a method may be the library's (``self.assertRaises``)
        name = func.qualname if isinstance(func, Reference) else ""
        if name in TRANSPARENT or name in _GRADIENTS or (name == _PARTIAL and len(args) < 2 and not open_keywords):
            return False, frozenset()
        return False, _functions_in((*args, *kwargs.values()))
    return True, _functions_in((*args, *kwargs.values()))


def _functions_in(values: Sequence[Value]) -> frozenset[object]:
    """The keys of the program's functions ``values`` hold, in containers and objects too."""
    found, stack = set(), list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, Function):
            found.add(value.key)
        elif isinstance(value, Items):
            stack.extend(value.items)
        elif isinstance(value, Keyed):
            stack.extend(v for _, v in value.entries)
        elif isinstance(value, Instance):
            stack.extend(v for _, v in value.fields)
        elif isinstance(value, Elements):
            stack.append(value.element)
        elif isinstance(value, Partial):
            stack.extend((value.func, *value.args, *(v for _, v in value.kwargs)))
    return frozenset(found)


# --- transformations ---------------------------------------------------------------------------
def _transformed(functions: Functions, name: str, func: Value, args: Sequence[Value], kwargs: Mapping[str, Value],
                 static: Callable[[list[str]], frozenset[str]]) -> Value:  # fmt: skip
    """``jax.jit(f)`` is f, traced: its arguments arrive as JAX arrays, all but the static ones
    (``static_argnums``/``static_argnames``, and for vmap and pmap those mapped over no axis);
    the other transparent wrappers are f itself."""
    if name not in TRACING:
        return func
    if isinstance(func, Partial):
        inner = _transformed(functions, name, func.func, args, kwargs, static)
        if not isinstance(inner, Function):
            return func
        # The partial's own arguments are constants of the traced function, not its arguments.
        names = functions.parameter_names(inner.key)
        bound = set(names[: len(func.args)]) | {k for k, _ in func.kwargs}
        return Partial(Function(inner.key, True, inner.static | bound, inner.compiled), func.args, func.kwargs)
    if not isinstance(func, Function):
        return func
    names = functions.parameter_names(func.key)
    kept = func.static | static(names) | _static_numbers(kwargs.get("static_argnums"), names)
    if name == _VECTORIZE and kwargs.get("excluded") is not None:
        excluded = _excluded(kwargs["excluded"], names)
        if excluded is None:
            return UNKNOWN
        kept |= excluded
    if name in _MAPPING:
        kept |= _unmapped(kwargs.get("in_axes", args[0] if name == "jax.vmap" and args else None), names)
    return Function(func.key, True, kept, name in COMPILING)


def _excluded(value: Value, names: list[str]) -> frozenset[str] | None:
    """The parameters ``jnp.vectorize``'s ``excluded`` names (positions and keywords, in a set,
    tuple or list), None where they are not literals."""
    items = value.items if isinstance(value, Items) else None
    if items is None:
        return None
    found = set()
    for item in items:
        literal = item.literal if isinstance(item, Array) else None
        if type(literal) is int and 0 <= literal < len(names):
            found.add(names[literal])
        elif type(literal) is str:
            found.add(literal)
        else:
            return None
    return frozenset(found)


def _literal_ints(value: Value | None) -> list[int] | None:
    items = value.items if isinstance(value, Items) else (value,)
    found = [v.literal for v in items if isinstance(v, Array) and type(v.literal) is int]
    return found if len(found) == len(items) else None


def _static_numbers(value: Value | None, names: list[str]) -> frozenset[str]:
    numbers = _literal_ints(value) or []
    return frozenset(names[n] for n in numbers if 0 <= n < len(names))


def _unmapped(in_axes: Value | None, names: list[str]) -> frozenset[str]:
    """The parameters ``in_axes`` maps over no axis: all for ``None``, those at a None in a tuple."""
    if is_none(in_axes):
        return frozenset(names)
    if isinstance(in_axes, Items):
        return frozenset(name for name, axis in zip(names, in_axes.items) if is_none(axis))
    return frozenset()


# --- gradients ---------------------------------------------------------------------------------
def _gradient_of(func: Value, args: Sequence[Value], kwargs: Mapping[str, Value], with_value: bool) -> Value:
    argnums_value = kwargs.get("argnums", args[0] if args else None)
    has_aux_value = kwargs.get("has_aux", args[1] if len(args) > 1 else None)
    if argnums_value is None:
        argnums: int | tuple[int, ...] = 0
    else:
        numbers = _literal_ints(argnums_value)
        if numbers is None:
            return UNKNOWN
        argnums = tuple(numbers) if isinstance(argnums_value, Items) else numbers[0]
    has_aux = isinstance(has_aux_value, Array) and has_aux_value.literal is True
    if has_aux_value is not None and not (isinstance(has_aux_value, Array) and type(has_aux_value.literal) is bool):
        return UNKNOWN
    return Gradient(func, argnums, has_aux, with_value)


def _gradient(gradient: Gradient, args: list[Value], kwargs: dict[str, Value], ctx: Context,
              invoke: Callable[..., Value]) -> Value:  # fmt: skip
    """Differentiated arguments are traced; the gradient of each has its float dtype and weak
    flag as traced (an integer one raises); the function must return a real scalar."""
    numbers = gradient.argnums if isinstance(gradient.argnums, tuple) else (gradient.argnums,)
    if any(n >= len(args) for n in numbers):
        return UNKNOWN
    traced = list(args)
    for n in numbers:
        traced[n] = calls.as_traced(args[n], ctx)
        if isinstance(traced[n], Refusal):
            return traced[n]
    grads = []
    for n in numbers:
        grad = _tangent(traced[n])
        if isinstance(grad, Refusal):
            return grad
        grads.append(grad)
    output = invoke(gradient.func, traced, kwargs)
    if isinstance(output, Refusal):
        return UNKNOWN  # the function raised: reported where it did
    value, aux = output, None
    if gradient.has_aux:
        if not (isinstance(output, Items) and len(output.items) == 2):
            return UNKNOWN
        value, aux = output.items
    if not (isinstance(value, Array) and value.dtypes):
        return UNKNOWN  # the function may have raised: the gradient is claimed for known results only
    refused = _output_refusal(value)
    if refused:
        return refused
    grad_value = Items(tuple(grads), is_tuple=True) if isinstance(gradient.argnums, tuple) else grads[0]
    result = Items((grad_value, aux), is_tuple=True) if gradient.has_aux else grad_value
    if not gradient.with_value:
        return result
    value = calls.as_traced(value, ctx)
    shown = Items((value, aux), is_tuple=True) if gradient.has_aux else value
    return Items((shown, result), is_tuple=True)


def _tangent(value: Value) -> Value:
    """The gradient of a traced argument: its structure, each leaf as it is when inexact."""
    found = leaves(value)
    if found is None:
        return UNKNOWN
    for leaf in found:
        if isinstance(leaf, Array) and leaf.dtypes and all(DTYPES[d].kind in "biu" for d in leaf.dtypes):
            dtype = "|".join(sorted(leaf.dtypes))
            return Refusal("TypeError", f"grad requires real- or complex-valued inputs (input dtype that is a "
                           f"sub-dtype of np.inexact), but got {dtype}.")  # fmt: skip
    return rebuild(value, [leaf if isinstance(leaf, Array) and leaf.dtypes and
                           all(DTYPES[d].kind in "fc" for d in leaf.dtypes) else UNKNOWN for leaf in found])


def _output_refusal(value: Value) -> Refusal | None:
    """grad differentiates a real scalar: an integer, bool or complex result raises, and so
    does one with dimensions."""
    if not isinstance(value, Array) or not value.dtypes:
        return None
    if all(DTYPES[d].kind != "f" for d in value.dtypes):
        dtype = "|".join(sorted(value.dtypes))
        return Refusal("TypeError", f"grad requires real-valued outputs (output dtype that is a sub-dtype of "
                       f"np.floating), but got {dtype}.")  # fmt: skip
    if value.rank:
        return Refusal("TypeError", "Gradient only defined for scalar-output functions.")
    return None


def _builtin_map(invoke: Callable[..., Value], func: Value, iterables: Sequence[Items]) -> Value:
    """``map(f, *iterables)`` over tuples and lists the engine knows (``x, f = map(jnp.asarray,
    (x, f))``): f of each element and those at the same place in the others, as far as the
    shortest goes.  The map runs f only as it is read: where a call raises, the map is no refusal
    itself, and unknown."""
    mapped = []
    for elements in zip(*(iterable.items for iterable in iterables)):
        value = invoke(func, list(elements))
        if isinstance(value, Refusal):
            return UNKNOWN
        mapped.append(value)
    return Items(tuple(mapped), is_tuple=True)


# --- trees -------------------------------------------------------------------------------------
def _tree_map(invoke: Callable[..., Value], func: Value, tree: Value, rest: Sequence[Value],
              with_path: bool) -> Value:  # fmt: skip
    """``tree_map(f, tree, *rest)``: f of each leaf and the leaves at the same place in ``rest``,
    in the tree's structure.  A leaf of a tree whose structure is unknown is
    ``trees.unknown_leaf``: f still runs on it, and the result is unknown."""
    path = (UNKNOWN,) if with_path else ()
    found = leaves(tree)
    if found is None:
        invoke(func, [*path, unknown_leaf(tree), *(unknown_leaf(r) for r in rest)])
        return UNKNOWN
    others = [leaves(r) for r in rest]
    others = [o if o is not None and len(o) == len(found) else [unknown_leaf(r)] * len(found)
              for o, r in zip(others, rest)]  # fmt: skip
    mapped = []
    for index, leaf in enumerate(found):
        value = invoke(func, [*path, leaf, *(o[index] for o in others)])
        if isinstance(value, Refusal):
            return value
        mapped.append(value)
    return rebuild(tree, mapped)

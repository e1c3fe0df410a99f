"""Where a value's 64 bits come from.

A 64-bit NumPy or JAX value that nobody asked for (no ``dtype=np.float64``, no JAX default under
x64) was made somewhere: a NumPy default (``np.zeros(n)``), a strong NumPy scalar of a Python
number (``np.log(2)``), a promotion of narrower operands (NumPy's int32 with float32), a Python
float meeting x64's int64 (``jnp.power(0.5, jnp.arange(k))``).  The flow gives the value made
there a ``ValueSource`` (the front end's handle on that expression), and every value computed
from it that keeps 64 bits carries it on: through names, joins, calls and function returns.
A rule can then report a leak where it starts, not only where it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from promolint.core.dtypes import is_64bit
from promolint.engine import symbolic
from promolint.engine.context import Context
from promolint.engine.values import Array, Items, Library, Value, ValueSource


def asked(value: Array) -> bool:
    """64 bits the code requested for an array (by name, or through JAX's defaults with x64
    on).  A NumPy scalar written ``np.float64(c)`` is a request to NumPy only: JAX takes it as
    a strong float64, which is how float64 leaks into float32 JAX code; so does a value that
    took its 64 bits from such a scalar (it carries the scalar's source)."""
    return value.intended64 and value.library is not Library.NUMPY_SCALAR and value.source is None


def wide(value: Value) -> bool:
    """A NumPy or JAX value whose dtype may be 64-bit."""
    return (isinstance(value, Array) and value.library is not Library.PYTHON
            and any(is_64bit(d) for d in value.dtypes))  # fmt: skip


def traced(result: Value, operands: Iterable[Value], handle: object, ctx: Context, module: str = "") -> Value:
    """``result`` of an operation at ``handle`` on ``operands``, with the source of its 64 bits:
    an operand's that it keeps, a new one at ``handle`` where the 64 bits are made there, none
    where they were asked for or come from a value of unknown origin (an annotated parameter).
    ``module``: the program's other module whose code runs, "" for the module analysed."""
    if not isinstance(result, Array):
        return result
    if not wide(result):
        return replace(result, source=None) if result.source is not None else result
    if result.source is not None:
        return result
    arrays = [v for v in _flattened(operands) if isinstance(v, Array) and v.library is not Library.PYTHON
              and (v.weak is not True or result.weak is not False)]  # a weak operand never decides a strong width
    same = [v for v in arrays if v.dtypes & result.dtypes and wide(v)]
    if any(asked(v) for v in same):
        return result
    carried = next((v.source for v in same if v.source is not None), None)
    if same:  # the 64 bits were there already: carried on, or of unknown origin
        return replace(result, source=carried) if carried is not None else result
    carried = next((v.source for v in arrays if wide(v) and v.source is not None), None)
    if carried is not None:  # another 64-bit dtype made them (an int64 count widening float32 data)
        return replace(result, source=carried)
    if asked(result):
        return result
    return replace(result, source=ValueSource(handle, _what(result, arrays, ctx), module))


def made_at(value: Value, handle: object) -> bool:
    """Whether ``value``'s 64 bits were made at ``handle``."""
    return isinstance(value, Array) and value.source is not None and value.source.handle is handle


def made_at_some_member(operands: Sequence[object], result: Value, handle: object, ctx: Context) -> bool:
    """Whether an operation on variables makes 64 bits itself: at some member of them ``traced``
    gives its result a new source at ``handle`` (``np.zeros(n)`` for an int ``n``;
    ``jnp.power(0.5, jnp.arange(x.shape[0]))``, a Python float meeting x64's int64).  Otherwise a
    result that is 64-bit at every member took its 64 bits from an operand, wherever that operand
    got them (``jnp.clip(x)`` of a float64 ``x``): no source is made there."""
    instances = symbolic.instances(operands, result)
    if instances is None:
        return False
    return any(made_at(traced(value, members, handle, ctx), handle) for members, value in instances)


def kept(converted: Value, original: Value) -> Value:
    """``converted`` (``original`` converted, e.g. traced into a JAX array) with the original's
    source while it keeps 64 bits."""
    if isinstance(converted, Array) and isinstance(original, Array) and original.source is not None and wide(converted):
        return replace(converted, source=original.source)
    return converted


def anchored(value: Value, handle: object | None, here: str) -> Value:
    """``value`` as it arrives from another module's code at ``handle`` (the call, or the read of
    the imported name) in the code of module ``here`` ("" for the module analysed): a source made
    in another module is a place in another file, so the source becomes ``handle``, saying where
    the 64 bits were made; without a handle, none (of unknown origin, as a parameter's)."""
    if isinstance(value, Items):
        return replace(value, items=tuple(anchored(item, handle, here) for item in value.items))
    if not isinstance(value, Array) or value.source is None or value.source.module in ("", here):
        return value
    if handle is None:
        return replace(value, source=None)
    what = f"gets its 64 bits from {value.source.module}, where a value {value.source.what}"
    return replace(value, source=ValueSource(handle, what, here))


def _what(result: Array, operands: Sequence[Array], ctx: Context) -> str:
    """What a 64-bit value made here is, for messages: ``is a strong NumPy float64 scalar``."""
    dtype = "|".join(sorted(result.dtypes))
    mode = " (x64 on)" if result.library is Library.JAX and ctx.x64 else ""
    if result.provenance:
        return f"is {dtype} ({result.provenance}){mode}"
    narrower = [v for v in operands if v.weak is False and v.dtypes and not wide(v)]
    if narrower and len(narrower) == len(operands):
        described = " with ".join(v.describe() for v in narrower)
        library = "JAX" if result.library is Library.JAX else "NumPy"
        return f"is {dtype}: {library} promotes {described} to {dtype}{mode}"
    strength = "weak" if result.weak else "strong"
    kind = {Library.NUMPY_SCALAR: "NumPy scalar", Library.NUMPY_ARRAY: "NumPy array", Library.JAX: "JAX array"}
    return f"is a {strength} {dtype} {kind[result.library]}{mode}"


def _flattened(values: Iterable[Value]) -> Iterable[Value]:
    for value in values:
        if isinstance(value, Items):
            yield from _flattened(value.items)
        else:
            yield value

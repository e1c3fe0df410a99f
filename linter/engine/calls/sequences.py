"""Calls that give several arrays: ``split`` (a list of pieces of the input), ``meshgrid`` and
``broadcast_arrays`` (each input as an array, in its own dtype), ``lax.top_k`` (the values and
their int32 indices), ``tril_indices`` (two arrays of the default int)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.engine.calls.conversions import default, library_inputs
from promolint.engine.calls.promotion import promote
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Elements, Items, Library, Value


def _alone(call: Call, value: Array) -> Value:
    """One input as the function makes an array of it: JAX keeps a weak value weak, NumPy makes
    a Python scalar a strong array of its 64-bit dtype."""
    made = promote(call, [value])
    if isinstance(made, Array) and call.fn.library is Library.NUMPY_ARRAY:
        made = replace(made, library=Library.NUMPY_ARRAY, weak=False)
    return made


def _split(call: Call) -> Value:
    """``split(ary, n)``: a list of arrays of ary's dtype and rank.  NumPy's splits a JAX array
    with its own methods: the pieces are JAX arrays (not modelled)."""
    source = call.first()
    inputs = library_inputs(call)
    if not inputs or not isinstance(source, Array):
        return UNKNOWN
    if call.fn.library is Library.NUMPY_ARRAY and source.library is Library.JAX:
        return UNKNOWN
    piece = _alone(call, inputs[0])
    return Elements(replace(piece, ndim=source.rank)) if isinstance(piece, Array) else piece


def _meshgrid(call: Call) -> Value:
    """``meshgrid(*xi)`` / ``broadcast_arrays(*args)``: each input as an array of its own dtype
    (JAX: a list; NumPy: a tuple), all of one rank."""
    sequence = next((call.bound[p] for p in call.fn.arrays if p in call.bound), None)
    if not isinstance(sequence, Items) or not sequence.items or not all(isinstance(v, Array) for v in sequence.items):
        return UNKNOWN
    pieces = []
    for value in library_inputs(call):
        piece = _alone(call, value)
        if not isinstance(piece, Array):
            return UNKNOWN
        pieces.append(replace(piece, ndim=len(sequence.items) if call.short == "meshgrid" else None))
    return Items(tuple(pieces), is_tuple=call.fn.library is Library.NUMPY_ARRAY)


def _top_k(call: Call) -> Value:
    """``lax.top_k(operand, k)``: the k largest values (the operand's dtype) and their indices,
    int32 whatever x64 says (measured)."""
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    values = promote(call, inputs[:1])
    if not isinstance(values, Array):
        return values
    rank = inputs[0].rank
    return Items((replace(values, ndim=rank), Array(frozenset({"int32"}), Library.JAX, False, ndim=rank)))


def _indices(call: Call) -> Value:
    """``tril_indices(n)``: the row and column indices, two 1-d arrays of the default int."""
    index = default(call.fn.result, call.fn.library, call.ctx, "", ndim=1)
    return Items((index, index), is_tuple=True)


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "split": _split,
    "meshgrid": _meshgrid,
    "top_k": _top_k,
    "indices": _indices,
}

"""What expressions compute beyond single operators and calls, whatever syntax spells them:
literals, indexing and its ranks, item assignment, iteration and unpacking, augmented
assignment, chains."""

from __future__ import annotations

from dataclasses import replace

from promolint.core.dtypes import DTYPES, resolve_string
from promolint.engine import calls, operations
from promolint.engine.calls.conversions import out_of_bounds
from promolint.engine.calls.python_functions import element_of
from promolint.engine.context import Context
from promolint.engine.records import Operation
from promolint.engine.symbolic import Symbolic, apply, extended_key, is_symbolic, lifted
from promolint.engine.values import (
    AT_INDEXED,
    UNKNOWN,
    Array,
    Bound,
    DTypeRef,
    Elements,
    Items,
    Library,
    Reference,
    Refusal,
    Value,
    is_none,
    numpy_library,
    python_scalar,
)

_SCALAR_KINDS = {bool: "bool", int: "int", float: "float", complex: "complex"}
LONGEST_CHAIN = 32
ELLIPSIS = "builtins.Ellipsis"


def constant(value: object) -> Value:
    """A literal: Python scalars; a string that spells a dtype (``'float32'``, ``'f4'``); None."""
    kind = _SCALAR_KINDS.get(type(value))
    if kind is not None:
        return python_scalar(kind, value)
    if type(value) is str:
        name = resolve_string(value)
        return DTypeRef(name) if name else UNKNOWN
    if value is None:
        return calls.resolve_reference("builtins.None")
    if value is Ellipsis:  # an index: ``x[..., 0]``
        return calls.resolve_reference(ELLIPSIS)
    return UNKNOWN  # bytes


@lifted("augmented")
def augmented(op: str, current: Value, other: Value, ctx: Context) -> Value:
    """``current op= other``: in place on a NumPy array (cast back to its dtype, or refused);
    with a JAX operand NumPy declines and Python falls back to ``a = a op j``, which rebinds
    the name to the JAX result."""
    result = operations.binary(op, current, other, ctx)
    if isinstance(current, Array) and current.library is Library.NUMPY_ARRAY and isinstance(result, Array) \
            and result.library is not Library.JAX:  # fmt: skip
        result = operations.in_place(current, result)
    return result


@lifted("subscript")
def subscript(base: Value, slices: list[bool], indices: list[Value]) -> Value:
    """``base[...]``: ``slices`` says which index elements are slices, ``indices`` holds the
    values of the others, in order."""
    if isinstance(base, Bound) and base.method == "at":
        return Bound(base.receiver, AT_INDEXED)
    if isinstance(base, Elements):
        if slices == [True] and not indices:  # x.shape[1:]: more of the same
            return base
        # An integer of any library indexes a tuple (through __index__); where it cannot (an
        # array of more than one element, a tracer) the program raises and nothing follows.
        if len(indices) == 1 and isinstance(indices[0], Array) and indices[0].dtypes \
                and all(DTYPES[d].kind in "biu" for d in indices[0].dtypes):  # fmt: skip
            return base.element
        return UNKNOWN
    if isinstance(base, Items) and len(indices) == 1 and isinstance(indices[0], Array):
        literal = indices[0].literal
        if type(literal) is int and -len(base.items) <= literal < len(base.items):
            return base.items[literal]
        return UNKNOWN
    if isinstance(base, Array) and base.library is not Library.PYTHON:
        inexact = next((i for i in indices if isinstance(i, Array) and i.dtypes
                        and all(DTYPES[d].kind in "fc" for d in i.dtypes)), None)  # fmt: skip
        if inexact is not None:  # measured: jax 0.10.2, numpy 2.4.6
            if base.library is Library.JAX:
                return Refusal("TypeError", f"Indexer must have integer or boolean type, got indexer with type "
                                            f"{'|'.join(sorted(inexact.dtypes))}")  # fmt: skip
            return Refusal("IndexError", "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                                         "integer or boolean arrays are valid indices")  # fmt: skip
        ndim = _indexed_rank(base.rank, slices, indices)
        library = _numpy_indexed_library(ndim, slices, indices) if base.library.is_numpy else base.library
        if library is None:
            return UNKNOWN  # a NumPy scalar or an array, as the index's shape decides
        return replace(base, literal=None, provenance="", ndim=ndim, library=library)
    return UNKNOWN


@lifted("string_subscript")
def string_subscript(base: Value, key: str) -> Value:
    """``base["key"]``: a dict's or an object's entry the engine does not follow (unknown); an
    array or a NumPy scalar raises (measured: jax 0.10.2, numpy 2.4.6)."""
    if not isinstance(base, Array) or base.library is Library.PYTHON:
        return UNKNOWN
    if base.library is Library.JAX:
        return Refusal("TypeError", f"JAX does not support string indexing; got idx={key!r}")
    if base.library is Library.NUMPY_SCALAR:
        return Refusal("IndexError", "invalid index to scalar variable.")
    return Refusal("IndexError", "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                                 "boolean arrays are valid indices")  # fmt: skip


def _numpy_indexed_library(ndim: int | None, slices: list[bool], indices: list[Value]) -> Library | None:
    """What indexing a NumPy array gives: a scalar where integers index every dimension (``a[0]``
    of a vector), an array where any index element keeps or adds one (a slice, ``None``,
    ``...``, a boolean, a list or an array with dimensions); None where only the index's
    unknown value or shape, or the base's unknown rank, would say which."""
    if ndim is not None:
        return numpy_library(ndim)
    if any(slices) or any(_keeps_dimensions(index) for index in indices):
        return Library.NUMPY_ARRAY
    return None


def _keeps_dimensions(index: Value) -> bool:
    if is_none(index) or (isinstance(index, Reference) and index.qualname == ELLIPSIS):
        return True
    if isinstance(index, Items):
        return not index.is_tuple or any(_keeps_dimensions(item) for item in index.items)
    if isinstance(index, Array):
        return (index.rank or 0) > 0 or "bool" in index.dtypes and len(index.dtypes) == 1
    return False


_JAX_IMMUTABLE = ("JAX arrays are immutable and do not support in-place item assignment. Instead of x[idx] = y, "
                  "use x = x.at[idx].set(y)")


def store(element: Value, value: Value) -> Value:
    """``base[index] = value``, where ``element`` is what ``base[index]`` reads: what the
    assigned elements hold afterwards, or the exception raised.  A NumPy array converts a Python
    scalar to its dtype, and raises OverflowError for an int out of its range or a float whose
    integer part is, TypeError for a complex into a real dtype (measured: ``uint8_array[i, j] =
    638``); other values it casts silently.  JAX arrays are immutable: TypeError."""
    if not isinstance(element, Array) or element.library is Library.PYTHON:
        return UNKNOWN
    if element.library is Library.JAX:
        return Refusal("TypeError", _JAX_IMMUTABLE)
    if isinstance(value, Array) and value.library is Library.PYTHON and element.dtype is not None:
        refused = out_of_bounds(value, element.dtype)
        if refused is not None:
            return refused
        numbers = value.dtypes - {"bool"}
        if value.literal is None and numbers and DTYPES[element.dtype].kind in "iu":
            return replace(element, dtypes=frozenset(), weak=None, literal=None, provenance="")  # may not fit
    return replace(element, literal=None, provenance="")


def _indexed_rank(rank: int | None, slices: list[bool], indices: list[Value]) -> int | None:
    """Dimensions left after basic indexing: an integer drops one, a slice keeps it, ``None``
    adds one; an array index (advanced indexing) or ``...`` leaves it unknown."""
    if rank is None:
        return None
    values = iter(indices)
    for is_slice in slices:
        if is_slice:
            continue
        index = next(values)
        if isinstance(index, Items) and index.is_tuple:  # x[(0,), 1]: the inner tuple indexes too; z[()] nothing
            inner = _indexed_rank(rank, [False] * len(index.items), list(index.items))
            if inner is None:
                return None
            rank = inner
            continue
        if isinstance(index, Array) and index.rank == 0 and index.dtypes and all(
                DTYPES[d].kind in "iu" for d in index.dtypes):  # fmt: skip
            rank -= 1  # an integer: Python's, a NumPy scalar or a 0-d array
        elif is_none(index):
            rank += 1
        else:
            return None
    return rank if rank >= 0 else None


def unpack(value: Value, count: int, starred: bool) -> list[Value]:
    """What each of ``count`` targets gets from ``a, b = value`` (a starred target makes
    positions unknown)."""
    if isinstance(value, Items) and len(value.items) == count and not starred:
        return list(value.items)  # whatever the items are: `rng, state = carry` of symbolic ones
    if is_symbolic(value):
        return [apply("unpack", _unpacked, (value, count, starred, i)) for i in range(count)]
    each = element_of(value) if not starred and not isinstance(value, Items) else UNKNOWN
    return [each] * count


def _unpacked(value: Value, count: int, starred: bool, position: int) -> Value:
    return unpack(value, count, starred)[position]


def unpacked_key(value: object) -> tuple | None:
    """The key of ``x[i]`` where ``value`` is what target ``i`` of ``a, b = x`` gets from a
    variable ``x`` (its key, the name extended), else None.  An attribute no number has read
    from it (craftax's `rng, state = rng_and_state`, then `state.zombies`) says ``x`` holds a
    tuple of objects: the attribute is a variable of its own, as one of ``x`` itself is."""
    if type(value) is not Symbolic or value.function is not _unpacked:
        return None
    source, _, starred, position = value.arguments
    if starred or type(source) is not Symbolic or source.variable is None:
        return None
    return extended_key(source.variable.key, f"[{position}]")


def extend_chain(inner: Operation, right: Value, inner_texts: tuple[str, str], right_text: str
                 ) -> tuple[tuple[Value, ...], tuple[str, ...]]:  # fmt: skip
    """The leaves of ``(a op b) op c`` and their source texts, from the inner operation (whose
    own leaves are ``inner_texts`` when it is not a chain itself).  A chain longer than
    ``LONGEST_CHAIN`` starts anew, its first leaf the value of all before: still a true way to
    associate it, and it keeps generated thousand-term sums linear."""
    if len(inner.chain) >= LONGEST_CHAIN:
        return (), ()
    return (inner.chain or inner.operands) + (right,), (inner.chain_text or inner_texts) + (right_text,)

"""Operators and promotion as they really dispatch between Python, NumPy and JAX values.

Measured on jax 0.10.2 / numpy 2.4: Python with Python stays Python; NumPy with NumPy uses
NumPy's rules; anything with a JAX array uses JAX's rules in either order (NumPy's operator
returns NotImplemented and JAX's reflected method runs), NumPy operands counting as strong.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import replace

from promolint.core.dtypes import DTYPES, INTN, NUMPY_NATIVE
from promolint.engine.catalog import (
    JAX_BOOL_AS_INT32,
    NUMPY_INT_TO_FLOAT64,
    NUMPY_INTN_LOOPS,
    NUMPY_NO_BOOL_LOOP,
    OPERATOR_FUNCTIONS,
)
from promolint.engine.context import Context
from promolint.engine.domains import refusal_error
from promolint.engine.symbolic import lifted
from promolint.engine.values import (
    UNKNOWN,
    Array,
    Elements,
    Items,
    Library,
    Refusal,
    Value,
    broadcast_rank,
    join,
    numpy_library,
    python_scalar,
)
from promolint.systems.base import Operand, Origin, Promoted, Refused
from promolint.systems.jax import TO_INEXACT as JAX_TO_INEXACT
from promolint.systems.numpy import LOOPS, SAFE_CASTS

ARITHMETIC = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>"}
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
MAX_COMBINATIONS = 64

# NumPy's float loops: the first one an integer safely casts to (``np.sqrt(int8)`` is float16).
NUMPY_TO_INEXACT: dict[str, str] = {
    "bool": "float16",
    "int8": "float16",
    "uint8": "float16",
    "int16": "float32",
    "uint16": "float32",
    "int32": "float64",
    "uint32": "float64",
    "int64": "float64",
    "uint64": "float64",
    # ml_dtypes' small ints cast safely to float16 too (np.exp of int4 is float16)
    **dict.fromkeys(("int1", "int2", "int4", "uint1", "uint2", "uint4"), "float16"),
}
# NumPy's true division: integer loops that give float64; ml_dtypes' narrow ints have none and
# take the first float loop (float16).
NUMPY_TRUE_DIVIDE: dict[str, str] = {k: "float16" if k in INTN else "float64" for k in NUMPY_TO_INEXACT}
_INT_BOUNDS = {f"{s}int{b}": ((0, 2**b - 1) if s else (-(2 ** (b - 1)), 2 ** (b - 1) - 1))
               for s in ("", "u") for b in (1, 2, 4, 8, 16, 32, 64)}  # fmt: skip
_PY_FOLD = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
}


def int_bounds(dtype: str) -> tuple[int, int] | None:
    return _INT_BOUNDS.get(dtype)


def result_library(values: Iterable[Array]) -> Library:
    """Who computes an operator's result: JAX if any operand is a JAX array, else NumPy if any
    operand is NumPy (a scalar when no operand has dimensions: ``np.array(1.0) + 1`` is an
    ``np.float64``), else Python."""
    values = list(values)
    libraries = {v.library for v in values}
    if Library.JAX in libraries:
        return Library.JAX
    if libraries & {Library.NUMPY_ARRAY, Library.NUMPY_SCALAR}:
        return numpy_library(broadcast_rank(values))
    return Library.PYTHON


# --- promotion over candidate sets ------------------------------------------------------------
def _weak_options(value: Array) -> tuple[bool, ...]:
    return (False, True) if value.weak is None else (value.weak,)


def _jax_operand(value: Array, dtype: str, weak: bool) -> Operand:
    if value.library is Library.JAX:
        return Operand(dtype, weak, Origin.ARRAY)
    # NumPy values are strong inside JAX; Python scalars keep their weak flag.
    return Operand(dtype, weak and value.library is Library.PYTHON, Origin.VALUE)


def _combinations(values: Sequence[Array]) -> Iterable[tuple[tuple[str, bool], ...]]:
    choices = [[(d, w) for d in sorted(v.dtypes) for w in _weak_options(v)] for v in values]
    return itertools.islice(itertools.product(*choices), MAX_COMBINATIONS)


def promote(values: Sequence[Array], library: Library, ctx: Context,
            true_divide: bool = False) -> list[Promoted | Refused]:  # fmt: skip
    """Every (dtype, weak) outcome of promoting ``values`` under ``library``'s rules (for NumPy's
    true_divide with ``true_divide``); none when some operand's dtype is unknown."""
    outcomes: list[Promoted | Refused] = []
    for combination in _combinations(values):
        if library is Library.JAX:
            operands = [_jax_operand(v, d, w) for v, (d, w) in zip(values, combination)]
            outcome = ctx.jax.result_type(*operands)
        else:
            operands = [Operand(d, w and v.library is Library.PYTHON) for v, (d, w) in zip(values, combination)]
            outcome = ctx.numpy.true_divide_type(*operands) if true_divide else ctx.numpy.result_type(*operands)
        if outcome not in outcomes:
            outcomes.append(outcome)
    return outcomes


def collect(outcomes: Sequence[Promoted | Refused], library: Library, provenance: str = "",
            ndim: int | None = None) -> Value:  # fmt: skip
    """One value from the outcomes over all candidates: refused only if every candidate is."""
    promoted = [o for o in outcomes if isinstance(o, Promoted)]
    if not outcomes:
        return Array(frozenset(), library, None, ndim=ndim, provenance=provenance)  # library known, dtype not
    if promoted and len(promoted) < len(outcomes):
        # LIMITATION: some candidates promote and some are refused (``y + 1.0`` in strict mode where
        # y is int8 or float32).  A value cannot say "this dtype, or an exception", and claiming the
        # dtype would be wrong whenever the refused candidate is the real one: the dtype is unknown.
        return Array(frozenset(), library, None, ndim=ndim, provenance=provenance)
    if not promoted:
        refused = outcomes[0]
        return Refusal("TypePromotionError" if library is Library.JAX else "TypeError", refused.message,
                       refused.reason.value, provenance=provenance)  # fmt: skip
    weaks = {o.weak for o in promoted}
    return Array(
        frozenset(o.dtype for o in promoted),
        library,
        weaks.pop() if len(weaks) == 1 else None,
        ndim=ndim,
        provenance=provenance,
    )


def literal_overflow(values: Sequence[Array], result: Value, library: Library, ctx: Context,
                     compare: bool) -> Value | None:  # fmt: skip
    """An OverflowError raised by a Python int literal, as JAX and NumPy raise it."""
    literals = [v.literal for v in values if v.library is Library.PYTHON and type(v.literal) is int]
    if not literals:
        return None
    if library is Library.JAX:
        # Any jitted jnp op parses the literal as the default int first.
        low, high = _INT_BOUNDS["int64" if ctx.x64 else "int32"]
        bad = [lit for lit in literals if not low <= lit <= high]
        if bad:
            return Refusal("OverflowError", f"Python int {bad[0]} too large to convert to "
                           f"{'int64' if ctx.x64 else 'int32'}")  # fmt: skip
        return None
    if compare or not isinstance(result, Array) or result.dtype is None:
        return None
    bounds = _INT_BOUNDS.get(result.dtype)
    bad = [lit for lit in literals if bounds and not bounds[0] <= lit <= bounds[1]]
    if bad:
        return Refusal("OverflowError", f"Python integer {bad[0]} out of bounds for {result.dtype}")
    return None


def update_promotion(target: Array, update: Array, ctx: Context) -> Value:
    """What JAX's ``x.at[i].set(v)`` family checks, ``dtypes.safe_to_cast(v, x)``: the promotion
    of the update with the array's dtype taken strong (the cast is safe where that is the
    array's dtype); under strict promotion, the TypePromotionError JAX raises there."""
    return collect(promote([replace(target, weak=False), update], Library.JAX, ctx), Library.JAX)


# --- operators --------------------------------------------------------------------------------
def _fold_python(op: str, left: Array, right: Array) -> int | float | complex | bool | None:
    if left.literal is None or right.literal is None or op not in _PY_FOLD:
        return None
    if op in ("**", "<<") and isinstance(right.literal, int) and abs(right.literal) > 256:
        return None  # folding 10**10**6 or 1 << 10**9 would hang the linter; the value stays unknown
    try:
        return _PY_FOLD[op](left.literal, right.literal)
    except (ArithmeticError, ValueError, TypeError):
        return None


def _python_kind(left: Array, right: Array) -> str:
    """The kind Python computes two of its scalars in: the wider of theirs."""
    kinds = {DTYPES[d].kind for d in left.dtypes | right.dtypes}
    return "c" if "c" in kinds else "f" if "f" in kinds else "i" if kinds - {"b"} else "b"


def _python_binary(op: str, left: Array, right: Array) -> Value:
    if len(left.dtypes) != 1 or len(right.dtypes) != 1:
        return UNKNOWN
    folded = _fold_python(op, left, right)
    if folded is not None:
        return python_scalar(type(folded).__name__, folded)
    kind = _python_kind(left, right)
    if op == "/" and kind in "ib":
        kind = "f"
    if kind == "b" and op not in ("&", "|", "^"):
        kind = "i"  # True + True is 2
    name = {"b": "bool", "i": "int", "f": "float", "c": "complex"}[kind]
    return check_domain(op, Library.PYTHON, python_scalar(name))


# Python's own operator methods that accept a NumPy scalar: ``complex.__add__`` takes any
# ``float`` instance, and ``np.float64`` subclasses ``float``, so ``1j + np.float64(1)`` is a
# Python complex.  (A subclass of the *left* operand's type gets its reflected method called
# first, which is why ``1.0 + np.float64(1)`` stays NumPy; NumPy's integers subclass nothing.)
_PYTHON_ACCEPTS: dict[str, frozenset[str]] = {"complex128": frozenset({"float64"})}
_PYTHON_COMPLEX_OPS = frozenset({"+", "-", "*", "/", "**", "==", "!="})


def _python_handles(op: str, left: Array, right: Array) -> bool:
    return (
        left.library is Library.PYTHON
        and right.library is Library.NUMPY_SCALAR
        and op in _PYTHON_COMPLEX_OPS
        and left.dtype is not None
        and right.dtype is not None
        and right.dtype in _PYTHON_ACCEPTS.get(left.dtype, ())
    )


@lifted("binary")
def binary(op: str, left: Value, right: Value, ctx: Context) -> Value:
    """``left <op> right`` for an arithmetic or bitwise operator."""
    if isinstance(left, Items) or isinstance(right, Items):
        return _sequence_binary(op, left, right)
    if not (isinstance(left, Array) and isinstance(right, Array)):
        return UNKNOWN
    library = result_library([left, right])
    if library is Library.PYTHON:
        return _python_binary(op, left, right)
    if _python_handles(op, left, right):
        return _python_binary(op, left, Array(right.dtypes, Library.PYTHON, True))
    if op == "**" and library is Library.JAX:
        return jax_power(left, right, ctx)
    ndim = broadcast_rank([left, right])
    outcomes = promote([left, right], library, ctx, true_divide=op == "/")
    if op == "/":
        outcomes = [_to_inexact(o, library) for o in outcomes]
    if op == "@":
        ndim = matmul_rank(left, right)
        library = numpy_library(ndim) if library.is_numpy else library
    name = OPERATOR_FUNCTIONS[op]
    if op == "**" and left.library is Library.NUMPY_ARRAY and type(right.literal) is int and right.literal == 2:
        # ndarray.__pow__'s fast path: np.square of the base alone (bool ** 2 is int8)
        name, outcomes = "square", promote([left], library, ctx)
    result = fallback_loops(name, library, check_domain(op, library, collect(outcomes, library, ndim=ndim)))
    if op == "@" and library.is_numpy:
        result = native_loop(result)
    return _with_overflow([left, right], result, library, ctx)


_MOST_REPEATED = 64  # items a repeated list display is followed one by one up to


def _sequence_binary(op: str, left: Value, right: Value) -> Value:
    """Python's operators on lists and tuples: two of one kind joined (``[a] + [b]``), one
    repeated by a Python int (``[np.inf] * 6``; by an int of unknown value, a list of unknown
    length, maybe empty).  Anything else is not followed."""
    if op == "+" and isinstance(left, Items) and isinstance(right, Items) and left.is_tuple == right.is_tuple:
        return Items(left.items + right.items, left.is_tuple)
    sequence, count = (left, right) if isinstance(left, Items) else (right, left)
    if op != "*" or not isinstance(sequence, Items) or not isinstance(count, Array) \
            or count.library is not Library.PYTHON or count.dtypes != {"int64"}:  # fmt: skip
        return UNKNOWN
    if type(count.literal) is int and count.literal <= _MOST_REPEATED:
        return Items(sequence.items * max(count.literal, 0), sequence.is_tuple)
    return Elements(join(sequence.items)) if sequence.items else sequence


def _concrete_integer(value: Array) -> bool:
    """A value ``operator.index`` takes outside a trace: a Python int or bool, a NumPy integer
    scalar (not np.bool_), a 0-d JAX integer array (assumed not traced).  ml_dtypes' integers
    narrower than a byte (int1 to uint4) define no ``__index__``, as scalars or 0-d arrays."""
    kinds = {DTYPES[d].kind for d in value.dtypes}
    if not kinds or value.rank != 0:
        return False
    if value.library is Library.PYTHON:
        return kinds <= {"b", "i"}
    return kinds <= {"i", "u"} and not value.dtypes & INTN


def jax_power(base: Array, exponent: Array, ctx: Context) -> Value:
    """``jnp.power(base, exponent)`` and ``**`` with a JAX operand, as jax 0.10.2 dispatches it
    (measured).  A concrete integer exponent goes to ``lax.integer_pow``: the base alone decides
    (bools become int32), the exponent is never converted nor promoted (no overflow, no strict
    refusal), and a negative one of an integer base raises TypeError.  Otherwise the operands
    promote; an integer result is strong, and an inexact base with an integer exponent keeps its
    own dtype (``lax.pow``), weak only when both are.  A 0-d JAX integer is concrete outside a
    trace and traced inside ``jax.jit``, which the engine does not tell apart: where the two
    give one dtype and differ only in the weak flag (optax's ``decay**count``), the flag is
    unknown; where they give two dtypes, the concrete one stands (a known limitation)."""
    ndim = broadcast_rank([base, exponent])
    if not _concrete_integer(exponent):
        return _pow(base, exponent, ndim, ctx)
    alone = collect(promote([base], Library.JAX, ctx), Library.JAX, ndim=ndim)
    result = fallback_loops("power", Library.JAX, alone)
    negative = isinstance(exponent.literal, int) and exponent.literal < 0
    integral = isinstance(result, Array) and result.dtypes and all(DTYPES[d].kind in "iu" for d in result.dtypes)
    if negative and integral:
        return Refusal("TypeError", "Integers cannot be raised to negative powers")
    concrete = _with_overflow([base], result, Library.JAX, ctx)
    if exponent.library is Library.JAX and isinstance(concrete, Array):
        traced = _pow(base, exponent, ndim, ctx)
        if isinstance(traced, Array) and traced.dtypes == concrete.dtypes and traced.weak != concrete.weak:
            return replace(concrete, weak=None)
    return concrete


def _pow(base: Array, exponent: Array, ndim: int | None, ctx: Context) -> Value:
    """``jnp.power`` of an exponent that is not a concrete integer: ``lax.pow`` of the promoted
    operands."""
    promoted = collect(promote([base, exponent], Library.JAX, ctx), Library.JAX, ndim=ndim)
    promoted = check_domain("**", Library.JAX, promoted)
    if not isinstance(promoted, Array) or not promoted.dtypes:
        return _with_overflow([base, exponent], promoted, Library.JAX, ctx)
    base_kinds = {DTYPES[d].kind for d in base.dtypes}
    if all(DTYPES[d].kind in "biu" for d in promoted.dtypes):  # computed by multiplying: strong
        result = replace(fallback_loops("power", Library.JAX, promoted), weak=False)
    elif base_kinds and base_kinds <= {"f", "c"} and {DTYPES[d].kind for d in exponent.dtypes} <= {"i", "u"}:
        dtypes = frozenset(ctx.jax.canonical_dtype(Operand(d)) if base.library is not Library.JAX else d
                           for d in base.dtypes)  # fmt: skip
        weaks = {False if v.library.is_numpy else v.weak for v in (base, exponent)}
        weak = False if False in weaks else None if None in weaks else True
        result = Array(dtypes, Library.JAX, weak, ndim=ndim)
    else:
        result = promoted
    return _with_overflow([base, exponent], result, Library.JAX, ctx)


def matmul_rank(left: Array, right: Array) -> int | None:
    """Dimensions of ``left @ right``: vectors contract to a scalar, matrices stay matrices."""
    a, b = left.rank, right.rank
    if a is None or b is None:
        return None
    return max(a, b) if a >= 2 and b >= 2 else max(a + b - 2, 0)


def native_loop(value: Value) -> Value:
    """A NumPy ufunc without ml_dtypes loops (matmul, clip) runs an ml_dtypes type in the first
    native loop it casts to safely: bfloat16 in float32, float8_e4m3fn in float16."""
    if not isinstance(value, Array):
        return value
    dtypes = frozenset(d if d in NUMPY_NATIVE else next((loop for loop in LOOPS if loop in SAFE_CASTS.get(d, ())), d)
                       for d in value.dtypes)  # fmt: skip
    return replace(value, dtypes=dtypes)


def check_domain(name: str, library: Library, outcome: Value, what: str = "") -> Value:
    """``outcome``, or the exception ``library``'s function or operator ``name`` raises for its
    dtype (promolint.engine.domains): ``//`` of complex values, ``-`` of bools, bitwise operators
    of floats.  When only some of the candidate dtypes raise, the dtype is unknown."""
    if not isinstance(outcome, Array) or not outcome.dtypes:
        return outcome
    key = "jax" if library is Library.JAX else "python" if library is Library.PYTHON else "numpy"
    errors = {refusal_error(key, name, d) for d in outcome.dtypes}
    if errors == {None}:
        return outcome
    if len(errors) > 1:
        return Array(frozenset(), outcome.library, None, ndim=outcome.ndim)
    kinds = "|".join(sorted(outcome.dtypes))
    return Refusal(errors.pop(), f"{what or name} is not supported for {kinds} operands")


def fallback_loops(name: str, library: Library, outcome: Value, ufunc: bool = True) -> Value:
    """The loop a function runs a dtype in when it has none of its own: bools in NumPy's int8 or
    JAX's int32 (whatever x64 says); ml_dtypes' narrow ints in NumPy's int8, in ufuncs only
    (np.where, np.dot and np.concatenate keep int4)."""
    if not isinstance(outcome, Array):
        return outcome
    intn = ufunc and library.is_numpy and outcome.dtypes & INTN
    if intn and name not in NUMPY_INTN_LOOPS | NUMPY_INT_TO_FLOAT64:
        outcome = replace(outcome, dtypes=frozenset("int8" if d in INTN else d for d in outcome.dtypes))
    if "bool" not in outcome.dtypes:
        return outcome
    target, names = ("int32", JAX_BOOL_AS_INT32) if library is Library.JAX else ("int8", NUMPY_NO_BOOL_LOOP)
    if name in names:
        return replace(outcome, dtypes=frozenset(target if d == "bool" else d for d in outcome.dtypes), weak=False)
    return outcome


def _with_overflow(values, result: Value, library: Library, ctx: Context, compare: bool = False) -> Value:
    overflow = literal_overflow(values, result, library, ctx, compare)
    if overflow is not None:
        return overflow
    if isinstance(result, Array) and result.dtype is not None:
        arrays = [v for v in values if isinstance(v, Array) and result.dtype in v.dtypes]
        if any(v.intended64 for v in arrays):
            return replace(result, intended64=True, named64=any(v.named64 for v in arrays), literal=None)
    return result


def kept_name(values: Iterable[Value], result: Value) -> Value:
    """``result``, marked as 64 bits the code named (``named64``, so asked for) where an operand
    of its dtype was: ``jnp.sqrt(jnp.asarray(x, dtype=float))`` keeps ``dtype=float``'s request,
    as ``jnp.asarray(x, dtype=float) - c`` does (``_with_overflow``)."""
    if isinstance(result, Array) and result.dtype is not None and not result.named64 and any(
            isinstance(v, Array) and v.named64 and result.dtype in v.dtypes for v in values):  # fmt: skip
        return replace(result, intended64=True, named64=True, literal=None)
    return result


def _to_inexact(outcome: Promoted | Refused, library: Library) -> Promoted | Refused:
    if isinstance(outcome, Refused):
        return outcome
    table = JAX_TO_INEXACT if library is Library.JAX else NUMPY_TRUE_DIVIDE
    return Promoted(table.get(outcome.dtype, outcome.dtype), outcome.weak)


def to_inexact(value: Value, library: Library) -> Value:
    """What ``sin``/``sqrt``/``mean`` turn a value's dtype into, per library."""
    if not isinstance(value, Array):
        return UNKNOWN
    table = JAX_TO_INEXACT if library is Library.JAX else NUMPY_TO_INEXACT
    return Array(frozenset(table.get(d, d) for d in value.dtypes), value.library, value.weak, ndim=value.ndim)


@lifted("compare")
def compare(op: str, left: Value, right: Value, ctx: Context) -> Value:
    """A comparison gives bool; in JAX it is weak when the promoted operands were weak."""
    if not (isinstance(left, Array) and isinstance(right, Array)):
        return UNKNOWN
    library = result_library([left, right])
    if _python_handles(op, left, right):
        return python_scalar("bool")  # 1j == np.float64(1) is complex.__eq__'s
    if library is Library.PYTHON:
        # Python refuses to order complex numbers (the operands' common kind decides)
        common = {"b": "bool", "i": "int64", "f": "float64", "c": "complex128"}[_python_kind(left, right)]
        refused = check_domain(op, library, Array(frozenset([common]), library))
        return refused if isinstance(refused, Refusal) else python_scalar("bool")
    outcomes = promote([left, right], library, ctx)
    promoted = collect(outcomes, library)
    if library is Library.JAX:
        # JAX parses a Python int literal before it promotes: OverflowError comes first.
        overflow = literal_overflow([left, right], promoted, library, ctx, compare=True)
        if overflow is not None:
            return overflow
    if isinstance(promoted, Refusal):
        return promoted
    if library is Library.JAX and any(v.dtypes & ctx.jax_facts.unsure_comparisons for v in (left, right)):
        return Array(frozenset(), library, None, ndim=broadcast_rank([left, right]))  # the JAX version's fact
    if isinstance(promoted, Array) and not promoted.dtypes and library is Library.JAX and (
            ctx.strict or any(v.dtypes & INTN for v in (left, right))):  # fmt: skip
        # An operand of unknown dtype: in strict mode, or beside a sub-byte int (which JAX refuses
        # beside every one of NumPy's numeric dtypes), the comparison may well be refused.
        return Array(frozenset(), library, None, ndim=broadcast_rank([left, right]))
    overflow = literal_overflow([left, right], promoted, library, ctx, compare=True)
    if overflow is not None:
        return overflow
    weak = promoted.weak if library is Library.JAX and isinstance(promoted, Array) else False
    return Array(frozenset(["bool"]), library, weak, ndim=broadcast_rank([left, right]))


@lifted("unary")
def unary(op: str, operand: Value, ctx: Context) -> Value:
    if op == "not":  # a known truth stays known (`if not isinstance(x, jax.Array):`)
        known = isinstance(operand, Array) and operand.library is Library.PYTHON and type(operand.literal) is bool
        return python_scalar("bool", not operand.literal if known else None)
    if not isinstance(operand, Array):
        return UNKNOWN
    if operand.library is Library.PYTHON:
        if operand.dtype == "bool" and op in ("-", "+", "~"):
            return python_scalar("int", -int(operand.literal) if op == "-" and operand.literal is not None else None)
        literal = operand.literal
        if literal is not None and op == "-":
            literal = -literal
        elif literal is not None and op == "~" and type(literal) is int:
            literal = ~literal
        value = Array(operand.dtypes, Library.PYTHON, operand.weak, literal)
        return check_domain(f"{op}x", Library.PYTHON, value, f"unary {op}")
    library = numpy_library(operand.rank) if operand.library.is_numpy else operand.library  # -np.array(1.0) is a scalar
    result = Array(operand.dtypes, library, operand.weak, intended64=operand.intended64, ndim=operand.ndim,
                   named64=operand.named64)
    if op in ("-", "+") and operand.library is Library.NUMPY_SCALAR and operand.dtypes <= INTN:
        return result  # ml_dtypes' sub-byte scalars negate themselves, not through NumPy's int8 loop (measured)
    if op in ("-", "~", "+"):
        name = {"-": "negative", "~": "invert", "+": "positive"}[op]
        return fallback_loops(name, library, check_domain(f"{op}x", library, result, f"unary {op}"))
    return result


_KIND_ORDER = "buifc"


def in_place(target: Array, result: Array) -> Value:
    """``A += x`` on a NumPy array keeps A's dtype when the result casts back 'same_kind';
    otherwise NumPy raises UFuncTypeError (a TypeError)."""
    kinds = {DTYPES[d].kind for d in result.dtypes}
    target_kinds = {DTYPES[d].kind for d in target.dtypes}
    if not kinds or not target_kinds:
        return Array(target.dtypes, target.library, False, ndim=target.ndim)
    # Dtype sets are alternatives (`np.array([...])` of a list that may be empty: float64|int64):
    # NumPy refuses only if every alternative does; a result of the target's own kind casts back.
    if min(_KIND_ORDER.index(k) for k in kinds) > max(_KIND_ORDER.index(k) for k in target_kinds):
        return Refusal("TypeError", f"Cannot cast ufunc output from {'|'.join(sorted(result.dtypes))} to "
                       f"{'|'.join(sorted(target.dtypes))} with casting rule 'same_kind'")  # fmt: skip
    return Array(target.dtypes, target.library, False, intended64=target.intended64, ndim=target.ndim,
                 named64=target.named64)

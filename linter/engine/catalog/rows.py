"""What a row of the function catalog says: ``Fn``, the semantics a function's result follows and
the parameters they read, with the named details some semantics need (``Weak``, ``Spectrum``,
``Part``, ``Draw``, ``RankChange``, ``LaxChecks``) and the dimensions a result has (``SHAPES``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from promolint.engine.values import Library


class StrEnum(str, Enum):
    """A ``str`` enum (``enum.StrEnum`` from Python 3.11): members equal and print as their values."""

    __str__ = str.__str__
    __format__ = str.__format__


class Weak(StrEnum):
    """Where a result's weak flag does not follow promotion (measured per function).  The values
    are those ``promolint.systems.jax_versions.JaxFacts.inexact_weak`` gives per JAX version."""

    PROMOTED = ""  # as promotion gives it
    STRONG = "strong"  # never weak: built from strong constants (jnp.log2, jax.nn.gelu, scatters' updates)
    AS_FIRST = "weak-as-x1"  # weak where the first operand is a weak number and promotion is weak (jnp.heaviside)
    ALL = "all-weak"  # weak when every operand is (jnp.hypot)
    ALL_IF_COMPLEX = "all-weak-if-complex"  # that, for complex results (jnp.logaddexp)
    STRONG_IF_INEXACT = "strong-if-inexact"  # strong for float and complex results (jnp.nan_to_num)
    AS_OPERAND = "weak-as-operand"  # the operand's flag (lax.scatter)


class Spectrum(StrEnum):
    """What an FFT gives: complex of a real or complex input (``fft``), complex of a real input
    only (``rfft``), or real (``irfft``)."""

    COMPLEX = "complex"
    RFFT = "rfft"
    REAL = "real"


class RankChange(StrEnum):
    """How a function that always builds an array sets its dimensions from its input's."""

    UNKNOWN = ""  # reshape, tile, repeat...: not followed
    KEPT = "kept"  # transpose, flip, sort...
    FLAT = "flat"  # ravel, flatten, unique: one dimension


@dataclass(frozen=True)
class Part:
    """One array of a decomposition's result: in the input's float dtype or its real dtype
    (eigenvalues, singular values), with the input's rank plus ``rank_change``."""

    rank_change: int
    real: bool = False


@dataclass(frozen=True)
class Draw:
    """A ``jax.random`` draw whose ``shape`` defaults to None: the parameters whose broadcast
    gives its dimensions without ``shape``, the dimensions the draw adds to that (categorical draws
    along ``axis`` of ``logits``: one fewer), and those it adds to a ``shape`` given (dirichlet's
    last axis of ``alpha`` is the sample)."""

    params: tuple[str, ...]
    added: int = 0
    added_to_shape: int = 0


@dataclass(frozen=True)
class LaxChecks:
    """What a ``jax.lax`` function checks beside its operands' one dtype (measured, jax 0.10.2)."""

    # The parameters whose ranks must agree: lax broadcasts neither a Python scalar nor a 0-d
    # array there (``lax.select(c, x, 0.0)`` raises).
    same_rank: tuple[str, ...] = ()
    scalar: str = ""  # the parameter that must be a scalar
    which: str = ""  # the selector: booleans or integers
    integer_indices: bool = False  # ``start_indices``: integers of one type
    # The name JAX's error gives where it is not the function's own: the primitive it lowers to
    # (``lax.scatter_add`` says "lax.scatter requires ...").
    reported_as: str = ""


@dataclass(frozen=True)
class Fn:
    """A catalogued function: the ``semantics`` its result follows (one implementation each, in
    ``promolint.engine.calls``), its library, its positional parameters in order, and what the
    semantics read of the row."""

    semantics: str
    library: Library
    params: tuple[str, ...] = ()
    # The result's dtype where the row fixes it: a kind ('f', 'i', 'u', 'b': the library's default
    # of it) or a dtype name, a Python type's name for Python results; for lax: 'bool' or 'complex'.
    result: str = ""
    weak: Weak = Weak.PROMOTED
    arrays: tuple[str, ...] = ()  # the parameters whose dtypes take part (promote, where, ...)
    shape: str = "elementwise"  # how the result's dimensions follow the inputs (SHAPES)
    rank_change: RankChange = RankChange.UNKNOWN  # for the "array" shape: of the same dtype, or indices (argsort)
    parts: tuple[Part, ...] = ()  # decomposition
    spectrum: Spectrum | None = None  # fft
    scalar: str = ""  # scaled: the Python scalar type an activation computes with
    then_inexact: bool = False  # scaled: the result made inexact (softplus)
    least_ndim: int = 0  # atleast and jax.random.permutation: the least number of dimensions
    real: bool = False  # the result's complex dtypes made real (var and std)
    float16_runs: bool = False  # linalg and solve: a float16 loop exists
    operator: str = ""  # compare: the comparison operator the function computes
    lax: LaxChecks = LaxChecks()  # lax
    # Facts of the function itself, measured on the pinned versions:
    needs_dimensions: bool = False  # raises for a value without dimensions (a Python scalar, a 0-d array)
    unmodelled: frozenset[str] = frozenset()  # arguments the semantics do not model: given, the result is unknown
    draw: Draw | None = None  # jax.random draws whose `shape` defaults to None
    weak_kinds: str = ""  # JAX predicates: weak when every input is weak and of these kinds
    through_nonzero: bool = False  # NumPy indexing through a JAX argument's own `nonzero` (np.argwhere)
    falls_back: bool = False  # forward: a TypeError of the JAX method makes NumPy run its own function
    numpy_result_type: bool = False  # NumPy combines the inputs with np.result_type, not a ufunc's loops
    numpy_native_loops_only: bool = False  # NumPy runs ml_dtypes' types in its native loops (no custom loop)
    domain_per_operand: bool = False  # JAX checks each operand's domain before promoting them (jnp.clip)


# Array parameters that take a sequence of arrays (np.concatenate's `arrays`), besides the
# starred ones (`*operands`): the others take one array, which a list given there becomes first.
SEQUENCE_PARAMETERS = frozenset({"arrays", "tup", "operands"})


def takes_sequence(fn: Fn, param: str) -> bool:
    return param in SEQUENCE_PARAMETERS or f"*{param}" in fn.params


# What a function's result dimensions are; for NumPy it decides scalar or array, since NumPy
# turns results without dimensions into scalars except where a function always builds an array.
SHAPES = {
    "elementwise": "the broadcast of the array parameters (a ufunc: scalar when all are 0-d)",
    "reduce": "the first array parameter reduced over `axis` (all of it when absent: a scalar)",
    "array": "an array whatever the inputs (creation, joining, reshaping); the semantics give its rank",
    "keep": "the first array parameter's kind and rank (astype keeps a scalar a scalar)",
    "contract": "dot/matmul/inner: the ranks of both operands less the contracted ones",
    "scalar": "always without dimensions (vdot)",
    "sample": "random draws: an array with a `size`, else a single scalar",
    "draw": "jax.random draws: the dimensions of `shape`, or where it is absent, its `draw`'s",
    "as-is": "whatever the semantics returned (they applied another entry's shape already)",
}


def many(names: str, fn: Fn) -> dict[str, Fn]:
    """The same row under each of the space-separated ``names``."""
    return {name: fn for name in names.split()}

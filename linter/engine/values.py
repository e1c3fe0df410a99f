"""Abstract values: what the engine knows about an expression without running it.

An ``Array`` is anything with a dtype: a Python scalar, a NumPy scalar or array, a JAX array
(or tracer).  Its dtype is exact, a small set of candidates (after an ``if``/``else``, or from
an annotation such as jaxtyping's ``Float[Array, ""]``), or unknown.  Other values (dtype
objects, sequences, module references, refusals) are their own small classes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

MAX_CANDIDATES = 8  # a join with more possibilities than this becomes unknown


class Library(enum.Enum):
    PYTHON = "python"
    NUMPY_SCALAR = "numpy-scalar"
    NUMPY_ARRAY = "numpy-array"
    JAX = "jax"

    @property
    def is_numpy(self) -> bool:
        return self in (Library.NUMPY_SCALAR, Library.NUMPY_ARRAY)


PYTHON_TYPE_NAMES = {"bool": "bool", "int64": "int", "float64": "float", "complex128": "complex"}


@dataclass(frozen=True)
class Value:
    """Base of every abstract value; ``provenance`` says where it came from, for messages."""

    provenance: str = field(default="", compare=False, kw_only=True)


@dataclass(frozen=True)
class Unknown(Value):
    """Nothing is known: rules never fire on it."""


UNKNOWN = Unknown()
MAX_AMONG = 64  # a wider set narrows little (every numeric value is about 100 members): unknown


@dataclass(frozen=True)
class Among(Unknown):
    """One of ``members`` (arrays of one dtype each), which depend on the parameters of the
    function that computed it: unknown to every operation, as ``Unknown``, but where a
    parameter's object holds it (``self.n`` after ``self.n = n`` of an ``n: int``), a variable
    over them (``promolint.engine.flow.objects``)."""

    members: tuple[Array, ...] = ()


@dataclass(frozen=True)
class OrNone(Unknown):
    """None, or ``value``: a name bound to None on one path and to a value on another (``idx =
    None if done else np.argsort(t)``).  Unknown to every operation; a test that it is not None
    narrows it to ``value`` (``if idx is not None: t = t[idx]``)."""

    value: Value = UNKNOWN


@dataclass(frozen=True, eq=False)
class ValueSource:
    """Where a value's 64 bits were made, for findings that trace a leak back to it: the front
    end's opaque handle on the expression that made them (the front end turns it into a place)
    and what it is (``is a strong NumPy float64``).  Values computed from such a value keep its
    source while they keep its 64 bits (``promolint.engine.sources``)."""

    handle: object
    what: str
    module: str = ""  # the program's other module whose code made them; "" for the module analysed


@dataclass(frozen=True)
class Array(Value):
    """A value with a dtype.

    ``dtypes`` holds every dtype the value may have (one when exact; none when only the library
    is known, as for a parameter annotated ``jax.Array``).  ``weak`` is None when the
    candidates disagree.  ``literal`` is the Python value of a literal, for overflow checks.
    ``intended64`` marks a 64-bit dtype the code asked for: by name (``dtype=np.float64``) or
    through a JAX default with x64 on; not one a NumPy default or a promotion produced.
    ``ndim`` is the number of dimensions when known (None: unknown).  It matters for NumPy,
    where an operation whose result has no dimensions gives a scalar, not a 0-d array
    (``np.array(1.0) + 1`` and ``np.ones(3).sum()`` are ``np.float64`` scalars).
    ``source``, on a 64-bit value nobody asked for, is where those 64 bits were made; it takes
    no part in comparisons (two values of one dtype are the same value wherever they came from).
    ``named64`` marks 64 bits the code named (``dtype=float``, ``.astype(jnp.float64)``), not a
    default's: a float32 input widened by such a value is widened on purpose.  No part in
    comparisons either.
    """

    dtypes: frozenset[str]
    library: Library
    weak: bool | None = False
    literal: int | float | complex | bool | None = None
    intended64: bool = False
    ndim: int | None = None
    source: ValueSource | None = field(default=None, compare=False)
    named64: bool = field(default=False, compare=False)

    @property
    def dtype(self) -> str | None:
        """The dtype when it is exactly known."""
        return next(iter(self.dtypes)) if len(self.dtypes) == 1 else None

    @property
    def rank(self) -> int | None:
        """Dimensions, as far as known: Python and NumPy scalars have none."""
        return 0 if self.library in (Library.PYTHON, Library.NUMPY_SCALAR) else self.ndim

    @property
    def exact(self) -> bool:
        return len(self.dtypes) == 1 and self.weak is not None

    def describe(self) -> str:
        """``float32``, ``weak float32``, ``Python float``, ``float16|float32``."""
        if self.library is Library.PYTHON and self.dtype in PYTHON_TYPE_NAMES:
            return f"Python {PYTHON_TYPE_NAMES[self.dtype]}"
        if not self.dtypes:
            return f"a {self.library.value} value of unknown dtype"
        names = "|".join(sorted(self.dtypes))
        return f"weak {names}" if self.weak else names


@dataclass(frozen=True)
class DTypeRef(Value):
    """A dtype written in code: ``np.float32``, ``'f4'``, ``x.dtype``, or a builtin type.

    ``builtin`` marks ``float``/``int``/...: JAX narrows them with x64 off without a warning.
    """

    name: str
    builtin: bool = False
    module: str = field(default="", compare=False)  # numpy, jax.numpy, ml_dtypes: what calling it makes


@dataclass(frozen=True)
class Items(Value):
    """A list or tuple display whose items are known (for ``jnp.array([1, 2])``)."""

    items: tuple[Value, ...]
    is_tuple: bool = False


@dataclass(frozen=True)
class Elements(Value):
    """A sequence of unknown length whose items are all like ``element``: ``range(n)`` and
    ``x.shape`` hold Python ints."""

    element: Value


@dataclass(frozen=True)
class Reference(Value):
    """A module, function or class, by qualified name (``jax.numpy.zeros``)."""

    qualname: str


NONE = Reference("builtins.None")


def is_none(value: Value | None) -> bool:
    """Whether ``value`` is Python's ``None`` (an argument such as ``axis=None``)."""
    return isinstance(value, Reference) and value.qualname == "builtins.None"


# The method of ``x.at[i]`` (a Bound whose receiver is ``x``); ``x.at[i].set`` is ``at.set``.
AT_INDEXED = "at."


@dataclass(frozen=True)
class Bound(Value):
    """A method looked up on a value (``x.astype``), waiting for its call."""

    receiver: Value
    method: str

    @property
    def at_update(self) -> str | None:
        """The update of ``x.at[i].set(v)`` and its kin (``set``, ``add``, ...); None otherwise."""
        return self.method.removeprefix(AT_INDEXED) or None if self.method.startswith(AT_INDEXED) else None


@dataclass(frozen=True)
class FInfo(Value):
    """``np.finfo(dtype)`` / ``jnp.finfo`` / ``np.iinfo``: attributes are NumPy scalars."""

    dtype: str
    integer: bool = False


@dataclass(frozen=True)
class Refusal(Value):
    """An operation the target library rejects at run time; carries the reason for rules."""

    error: str  # the exception class JAX/NumPy raise: TypePromotionError, OverflowError, TypeError
    message: str
    reason: str = ""  # the promotion system's reason class, when one applies


@dataclass(frozen=True)
class Function(Value):
    """A function of the module being analyzed, or a lambda: the front end evaluates its calls.

    ``traced`` marks it wrapped by ``jax.jit``/``vmap``/...: its arguments, all but the
    ``static`` ones (parameter names), arrive as JAX arrays, and so does its result.
    ``compiled`` marks the outermost of those wrappers as ``jax.jit``: each call whose arguments
    differ in dtype or weak type from every earlier call's traces and compiles it again."""

    key: object  # the front end's handle on the definition
    traced: bool = False
    static: frozenset[str] = frozenset()
    compiled: bool = False


@dataclass(frozen=True)
class Returns(Value):
    """A function known only by what its calls return (another module's declared return type)."""

    result: Value


@dataclass(frozen=True)
class Imported(Value):
    """``name`` bound by ``from module import name`` where ``module`` is one of the program's own
    modules: that module's top level runs only when the code reads the name
    (``promolint.engine.flow.modules``)."""

    module: str
    name: str


def array(dtype: str, library: Library, weak: bool = False, **kwargs) -> Array:
    return Array(frozenset([dtype]), library, weak, **kwargs)


def broadcast_rank(values: Iterable[Array]) -> int | None:
    """Dimensions of the broadcast of ``values``: the largest rank, None if one is unknown."""
    ranks = [v.rank for v in values]
    return None if any(r is None for r in ranks) else max(ranks, default=0)


def numpy_library(ndim: int | None) -> Library:
    """What a NumPy ufunc or reduction returns: a scalar for a result without dimensions,
    otherwise (or when the rank is unknown) an array."""
    return Library.NUMPY_SCALAR if ndim == 0 else Library.NUMPY_ARRAY


def python_scalar(kind: str, literal=None, provenance: str = "") -> Array:
    """A Python ``bool``/``int``/``float``/``complex`` value; the last three are weak."""
    dtype = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}[kind]
    return Array(frozenset([dtype]), Library.PYTHON, kind != "bool", literal, provenance=provenance)


def join(values: Iterable[Value]) -> Value:
    """The value of a variable after control flow merges: equal values stay, different dtypes
    of one library become a candidate set, anything else becomes unknown."""
    values = list(values)
    if not values:
        return UNKNOWN
    first = values[0]
    if all(v == first for v in values[1:]):
        if isinstance(first, Array) and first.source is None:  # equal values may differ in source
            source = next((v.source for v in values if v.source is not None), None)
            return replace(first, source=source) if source is not None else first
        return first
    if any(type(v) is Among for v in values):
        return among(values)
    if not all(isinstance(v, Array) for v in values):
        return join_objects(values)
    libraries = {v.library for v in values}
    if len(libraries) != 1:
        return UNKNOWN
    dtypes = frozenset().union(*(v.dtypes for v in values))
    if any(not v.dtypes for v in values):
        dtypes = frozenset()  # one of them may have any dtype of its library
    if len(dtypes) > MAX_CANDIDATES:
        return UNKNOWN
    weaks = {v.weak for v in values}
    ranks = {v.ndim for v in values}
    return Array(
        dtypes,
        libraries.pop(),
        weaks.pop() if len(weaks) == 1 else None,
        intended64=all(v.intended64 for v in values),
        ndim=ranks.pop() if len(ranks) == 1 else None,
        named64=all(v.named64 for v in values),
        source=next((v.source for v in values if v.source is not None), None),
        provenance=first.provenance,
    )


def among(values: Iterable[Value]) -> Value:
    """One of ``values``, ``Among`` values and arrays: every member of each, where each array is a
    few exact ones (a candidate set of dtypes, weak or strong as it is); else unknown."""
    members: dict[Array, None] = {}
    for value in values:
        if type(value) is Among:
            members.update(dict.fromkeys(value.members))
        elif type(value) is Array and value.dtypes and value.weak is not None:
            rank = 0 if value.library is Library.NUMPY_SCALAR else None
            members.update(dict.fromkeys(Array(frozenset([d]), value.library, value.weak, ndim=rank)
                                         for d in sorted(value.dtypes)))  # fmt: skip
        else:
            return UNKNOWN
    return Among(members=tuple(members)) if len(members) <= MAX_AMONG else UNKNOWN


# --- objects of the program (``promolint.engine.flow.objects``) -----------------------------
@dataclass(frozen=True)
class Instance(Value):
    """An object of one of the program's classes (``cls``: the key of its class).

    ``fields`` are the values this very object was given where it was made (dataclass, flax,
    equinox and NamedTuple fields bound from the constructor's arguments).  ``exact`` is False
    for ``self`` in a method analysed on its own: it may be an object of a subclass.  ``origin``:
    the parameter it came in as (its variable's key), whose fields nothing else says anything
    of are variables of their own (``promolint.engine.symbolic.attribute_variable``).
    ``receiver``: for ``self`` in a method analysed on its own, that parameter's key: what its
    class assigns to an attribute, of no known dtype, is a variable of its own there.  It is no
    part of the object's identity (calls given ``self`` from several methods are one memoized
    call), so a body such a call runs may read a variable of its caller's ``self``."""

    cls: int
    fields: tuple[tuple[str, Value], ...] = ()
    exact: bool = True
    origin: tuple | None = None
    receiver: tuple | None = field(default=None, compare=False)

    def field(self, name: str) -> Value | None:
        return next((value for key, value in self.fields if key == name), None)


@dataclass(frozen=True)
class Class(Value):
    """One of the program's classes itself: calling it makes an ``Instance``."""

    cls: int


@dataclass(frozen=True)
class Member(Value):
    """A member of one of the program's enumerations (``BlockType.STONE``): its ``.value`` is the
    Python scalar its class body bound.  The member itself takes part in no operation the engine
    models: an IntEnum member is a weak int to JAX but a strong int64 to NumPy (measured on
    numpy 2.4.6: ``np.int8(1) + Color.RED`` is int64), neither what a Python int is."""

    value: Value


@dataclass(frozen=True)
class Keyed(Value):
    """A dict whose keys are all literals, each with the value it holds (``{"w": w}``,
    ``dict(w=w)``), in insertion order."""

    entries: tuple[tuple[object, Value], ...]

    def get(self, key: object) -> Value | None:
        return next((value for k, value in self.entries if k == key and type(k) is type(key)), None)

    def with_entry(self, key: object, value: Value) -> Keyed:
        """The dict after ``d[key] = value``: an existing key keeps its place."""
        if self.get(key) is None:
            return Keyed(self.entries + ((key, value),))
        return Keyed(tuple((k, value if k == key and type(k) is type(key) else v) for k, v in self.entries))


@dataclass(frozen=True)
class Alternatives(Value):
    """One of several functions, modules or classes, which one known only when the code runs
    (``op = jnp.greater if reverse else jnp.less``, a dict of functions indexed by a key that is
    no literal): a call gives the join of what each option's call gives, an attribute the join
    of each option's.  ``options`` are distinct, in a fixed order."""

    options: tuple[Value, ...]


# What a join keeps as alternatives: values that are called or read, never operands.
_ALTERNATIVE_KINDS = (Reference, Function, Class)


def join_objects(values: list[Value]) -> Value:
    """The join of dicts with the same keys (entry by entry), of objects of one class made with
    the same fields (field by field), or of functions, modules and classes (``Alternatives``);
    anything else is unknown."""
    first = values[0]
    if all(isinstance(v, (*_ALTERNATIVE_KINDS, Alternatives)) for v in values):
        options = {o for v in values for o in (v.options if isinstance(v, Alternatives) else (v,))}
        return Alternatives(tuple(sorted(options, key=repr))) if len(options) <= MAX_CANDIDATES else UNKNOWN
    if isinstance(first, Keyed) and all(isinstance(v, Keyed) and [k for k, _ in v.entries] ==
                                        [k for k, _ in first.entries] for v in values):  # fmt: skip
        return Keyed(tuple((k, join([v.entries[i][1] for v in values])) for i, (k, _) in enumerate(first.entries)))
    if isinstance(first, Instance) and all(isinstance(v, Instance) and (v.cls, v.exact) == (first.cls, first.exact)
                                           and [n for n, _ in v.fields] == [n for n, _ in first.fields]
                                           for v in values):  # fmt: skip
        origin = first.origin if all(v.origin == first.origin for v in values) else None
        return Instance(first.cls, tuple((n, join([v.fields[i][1] for v in values]))
                                         for i, (n, _) in enumerate(first.fields)), first.exact, origin)  # fmt: skip
    return UNKNOWN

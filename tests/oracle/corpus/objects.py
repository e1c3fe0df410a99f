# Objects: attributes assigned in one method and read in another, dataclass and NamedTuple
# fields with their defaults, dicts with literal keys.
import numpy as np
import jax
import jax.numpy as jnp


class Encoding:
    def __init__(self, size):
        self.table = np.zeros((size, 4))
        self.scale = np.float32(0.5)

    def __call__(self, x):
        return x + self.table[: x.shape[0]] * self.scale


encoding = Encoding(8)
encoded = encoding(jnp.ones((3, 4), jnp.float32))
table = encoding.table
# ---
class Layer:
    def setup(self):
        self.weights = jax.device_put(np.ones((2, 2)))
        self.bias = jnp.zeros(2, jnp.bfloat16)

    def apply(self, x):
        return x @ self.weights + self.bias


layer = Layer()
layer.setup()
applied = layer.apply(jnp.ones((1, 2), jnp.float32))
# ---
class Counter:
    def __init__(self):
        self.total = np.int32(0)
        self.steps = 0

    def add(self, value):
        self.total += value
        self.steps += 1
        return self.total


counter = Counter()
counted = counter.add(np.int32(2))
again = counter.add(np.int32(3))
steps = counter.steps
# ---
class Twice:
    def __init__(self):
        self.state = jnp.ones(3, jnp.float16)

    def widen(self):
        self.state = jnp.ones(3, jnp.float32)

    def read(self):
        return self.state * 2


twice = Twice()
first = twice.read()
twice.widen()
second = twice.read()
# ---
class Holder:
    def __init__(self):
        self.value = np.ones(2, np.float32)

    def doubled(self):
        return self.value * 2


holder = Holder()
before = holder.doubled()
holder.value = np.ones(2, np.int8)
after = holder.doubled()
outside = holder.value
# ---
from dataclasses import dataclass, field


@dataclass
class Config:
    features: int
    dtype: object = jnp.float32
    scale: float = 0.5

    def init(self):
        return jnp.ones(self.features, self.dtype) * self.scale


plain = Config(3)
half = Config(2, dtype=jnp.bfloat16)
made_plain = plain.init()
made_half = half.init()
plain_scale = plain.scale
half_dtype = jnp.zeros(1, half.dtype)
# ---
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    rate: float = field(default=0.1)
    base: np.ndarray = field(default_factory=lambda: np.ones(2))

    def step(self, x):
        return x * self.rate


options = Options()
stepped = options.step(jnp.ones(2, jnp.float16))
rate = options.rate
# ---
from typing import NamedTuple


class Point(NamedTuple):
    x: jax.Array
    y: np.ndarray
    weight: float = 1.0


point = Point(x=jnp.ones(2, jnp.bfloat16), y=np.ones(2, np.float32))
px = point.x
py = point[1]
a, b, w = point
total = point.x * point.weight + point.y
moved = point._replace(x=jnp.ones(2, jnp.int8))
mx = moved.x
# ---
# A decorator marked with PEP 681's dataclass_transform makes dataclasses (pgx's copy of
# flax.struct.dataclass); a field of an annotated parameter holds what any object is made or
# replaced with, also where that code comes after the function that reads it.
import dataclasses
from typing import dataclass_transform


@dataclass_transform()
def pytree_dataclass(cls):
    return dataclasses.dataclass(frozen=True)(cls)


@pytree_dataclass
class Counter:
    count: jax.Array


def bumped(counter: Counter):
    return counter.count + 1


def widened(counter: Counter):
    return dataclasses.replace(counter, count=jnp.zeros((), jnp.float32))


def made_wide():
    return Counter(count=jnp.zeros((), jnp.float16))


bumped_int = bumped(Counter(jnp.int32(0)))
bumped_float = bumped(widened(Counter(jnp.int32(0))))
bumped_half = bumped(made_wide())
# ---
# An environment's state: what `step` makes a field with depends on the field it was given, which
# `reset` and `step` itself made (gymnax's DiscountingChain): int64 under x64 where it runs, weak
# as the action is, not a variable over every dtype.
from typing import NamedTuple


class ChainState(NamedTuple):
    context: jax.Array
    time: int


def chain_reset():
    return ChainState(context=jnp.array(-1), time=0)


def chain_step(state: ChainState, action: jax.Array):
    context = jax.lax.select(state.time == 0, action, state.context)
    return ChainState(context=context, time=state.time + 1)


chain = chain_reset()
for name in ("int64", "int64"):
    chain = chain_step(chain, jnp.ones((), getattr(jnp, name)))
chained = chain.context
# ---
class Model:
    def __init__(self, width):
        self.width = width
        self.params = {"w": jnp.ones((width, width), jnp.float32), "b": np.zeros(width, np.float16)}

    @classmethod
    def create(cls):
        return cls(2)

    @property
    def kernel(self):
        return self.params["w"]

    def forward(self, x):
        return x @ self.kernel + self.params["b"]


model = Model.create()
forward = model.forward(jnp.ones((1, 2), jnp.float32))
kernel = model.kernel
bias = model.params["b"]
# ---
class Base:
    def __init__(self):
        self.buffer = np.ones(3, np.float32)

    def total(self):
        return self.buffer.sum() + np.float32(1)


class Wide(Base):
    def __init__(self):
        super().__init__()
        self.buffer = np.ones(3, np.float64)


narrow = Base().total()
wide = Wide().total()
# ---
state = {"w": jnp.ones(3, jnp.float32), "step": 0}
w = state["w"]
state["w"] = state["w"] + np.float64(1)
updated = state["w"]
params = {"dense": {"kernel": np.ones((2, 2), np.float32), "bias": np.zeros(2, np.float16)}}
kernel = params["dense"]["kernel"]
summed = params["dense"]["kernel"] + params["dense"]["bias"]
built = dict(scale=np.float32(2), shift=jnp.zeros(2, jnp.int8))
shifted = built["shift"] + built["scale"]
merged = {**built, "extra": np.int16(1)}
extra = merged["extra"] + merged["shift"]
# ---
grads = {"a": np.ones(2, np.float32), "b": np.ones(2, np.float32)}
norms = [jnp.sum(g) for g in grads.values()]
for name, g in grads.items():
    scaled = g * 0.5
copied = grads.copy()
ca = copied["a"]
accum = {}
accum["x"] = np.ones(2, np.int16)
accum["y"] = accum["x"] * 2
ay = accum["y"]
# ---
SCALE = np.float32(0.5)
OFFSETS = {"low": np.int8(1), "high": np.int16(2)}


def rescale(x):
    return x * SCALE + OFFSETS["high"]


rescaled = rescale(jnp.ones(2, jnp.float16))
# ---
pair = (jnp.ones(2, jnp.int8), np.float32(2))
first_of_pair = pair[0] * pair[1]
leaves = jax.device_put({"a": np.ones(2), "b": 1.0})
leaf = leaves["a"] + leaves["b"]
listed = jax.device_put([np.int64(1), np.float32(2)])
# ---
# A jaxtyping annotation says the dtype, not the weak flag: fields made with jnp.array(-1.0) are
# weak, read in a method the engine analyses without the object (made from a dict it does not follow).
import dataclasses

from jaxtyping import Array, Float


@dataclasses.dataclass
class Bounds:
    low: Float[Array, "..."]
    high: Float[Array, "..."]

    def width(self):
        return self.high - self.low


ends = {"low": jnp.array(-1.0), "high": jnp.array(1.0)}
w = Bounds(**{k: v for k, v in ends.items()}).width()
# ---
# A method's `self` whose field nothing types (the objects are made from dicts the engine does not
# follow): the field's reads are a variable of their own, and what the method computes from it holds
# for every value the field may hold.
import dataclasses


@dataclasses.dataclass
class Matern:
    scale: jax.Array | float

    def design(self):
        f = np.sqrt(5) / self.scale
        return f, jnp.asarray(self.scale).astype(jnp.float16), jnp.asarray(self.scale, jnp.int32) + 1


given = [{"scale": f32}, {"scale": 2.0}, {"scale": i8}]
designs = [Matern(**{k: v for k, v in d.items()}).design() for d in given]
# ---
# A field annotated `int` that nothing types ranges over the ints of every library, never floats.
import dataclasses


@dataclasses.dataclass
class Encoding:
    d_model: int

    def scale(self):
        return np.log(10000.0) / self.d_model, np.arange(0, self.d_model, 2, dtype=np.float32)


sizes = [{"d_model": 8}, {"d_model": np.int32(8)}, {"d_model": jnp.int32(8)}]
scales = [Encoding(**{k: v for k, v in d.items()}).scale() for d in sizes]
# ---
# A dict with literal keys indexed by a key the engine does not follow: one of its values
# (KeyError otherwise), as dinosaur's `{'linear': 2, 'quadratic': 3, 'cubic': 4}[dealiasing]`.
def order(dealiasing):
    return {"linear": 2, "quadratic": 3, "cubic": 4}[dealiasing]


TABLES = {"a": f32, "b": f32 * 2}


def lookup(name, mode):
    scaled = TABLES[name] * order(mode)
    either = {"a": f32, "b": i8}[name]
    fallback = {"a": 1.0, "b": 2.5}.get(name, 0.5)
    return scaled, either, fallback


y = order("cubic")
y2 = lookup("b", "linear")
y3 = lookup("a", "cubic")
# ---
# Attributes `__init__` assigns from values nothing types (a list the caller gives, an object's
# attribute), read by methods analysed on their own: variables of their own, so what holds for
# every dtype of them is claimed (dinosaur's HeldSuarezForcingSigma, coordax's LabeledAxis).
class Levels:
    def __init__(self, raw, source):
        self.values = jnp.asarray(raw)
        self.ticks = np.asarray(raw)
        self.scale = source.scale

    def mean32(self):
        return self.values.astype(jnp.float32).mean()

    def positions(self):
        return np.searchsorted(self.ticks, self.ticks)

    def scaled(self, x):
        return x * self.scale, self.ticks < 1


class Source:
    scale = 2.0


levels = Levels([1, 2, 3], Source())
y = levels.mean32()
y2 = levels.positions()
y3 = levels.scaled(f16)
# ---
# Operators that call the program's own methods: a NamedTuple's `__eq__` and `__add__` (jumanji's
# snake `Position`), `__mul__` and the reflected `__rmul__` that a Python number or a JAX array on
# the left defers to (jaxns' `LogSpace`); a NumPy scalar on the left converts the object instead.
from typing import NamedTuple


class Position(NamedTuple):
    row: jnp.ndarray
    col: jnp.ndarray

    def __eq__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        return (self.row == other.row) & (self.col == other.col)

    def __add__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        return Position(row=self.row + other.row, col=self.col + other.col)


class LogSpace(NamedTuple):
    log_abs_val: jnp.ndarray

    def __mul__(self, other):
        if not isinstance(other, LogSpace):
            return NotImplemented
        return LogSpace(self.log_abs_val + other.log_abs_val)

    def __rmul__(self, n):
        return LogSpace(n * self.log_abs_val)


head = Position(jnp.int32(1), jnp.int32(2))
moved = head + Position(jnp.ones((), jnp.int32), jnp.zeros((), jnp.int32))
eaten = moved == head
row = moved.row
log_p = LogSpace(jnp.ones(3, jnp.float32))
product = (log_p * LogSpace(jnp.ones(3, jnp.float32))).log_abs_val
scaled = (0.5 * log_p).log_abs_val
traced = (jnp.float32(2) * log_p).log_abs_val
converted = np.float64(2) * log_p

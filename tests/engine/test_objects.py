"""Objects (``promolint.engine.flow.objects``) against real NumPy and JAX: attributes assigned in
one method and read in another, dataclass, flax and NamedTuple fields, dicts with literal keys.

Each program runs for real with x64 off and on; the values its module-level names end with are
the expectations, and ``reveal`` must give them at those names' last assignment.  Where the
engine cannot be sure, ``reveal`` must say unknown."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.engine.walker.analysis import Settings
from promolint.driver.reveal import reveal_records_many

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from run_corpus import load_corpus  # noqa: E402
from workers import worker_environment  # noqa: E402

IMPORTS = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
EVOSAX = ROOT / "tests" / "data" / "evosax" / "positional_encoding.py"

# name -> (program, {variable: (x64 off, x64 on)}): what running the program leaves in them.
CASES = {
    "init then call": ("""
class Encoding:
    def __init__(self, size):
        self.table = np.zeros((size, 4))

    def __call__(self, x):
        return x + self.table[: x.shape[0]]

out = Encoding(8)(jnp.ones((3, 4), jnp.float32))
""", {"out": ("float32 [jax]", "float64 [jax]")}),
    "setup before other methods": ("""
class Layer:
    def apply(self, x):
        return x * self.scale

    def setup(self):
        self.scale = np.float64(2)

layer = Layer()
layer.setup()
out = layer.apply(jnp.ones(2, jnp.float32))
""", {"out": ("float32 [jax]", "float64 [jax]")}),
    "dataclass field defaults and arguments": ("""
from dataclasses import dataclass

@dataclass
class Config:
    features: int
    dtype: object = jnp.bfloat16

    def make(self):
        return jnp.ones(self.features, self.dtype)

default = Config(3).make()
chosen = Config(3, dtype=jnp.float16).make()
""", {"default": ("bfloat16 [jax]", "bfloat16 [jax]"), "chosen": ("float16 [jax]", "float16 [jax]")}),
    "NamedTuple fields": ("""
from typing import NamedTuple

class Batch(NamedTuple):
    x: jax.Array
    y: np.ndarray

batch = Batch(x=jnp.ones(2, jnp.bfloat16), y=np.ones(2, np.int8))
bx = batch.x
by = batch[1]
ux, uy = batch
""", {"bx": ("bfloat16 [jax]",) * 2, "by": ("int8 [numpy-array]",) * 2, "ux": ("bfloat16 [jax]",) * 2,
      "uy": ("int8 [numpy-array]",) * 2}),
    "dicts with literal keys": ("""
params = {"dense": {"kernel": np.ones((2, 2), np.float32)}}
kernel = params["dense"]["kernel"]
state = dict(w=jnp.ones(3, jnp.float16))
state["w"] = state["w"] + np.float32(1)
w = state["w"]
""", {"kernel": ("float32 [numpy-array]",) * 2, "w": ("float32 [jax]",) * 2}),
    "class method and property": ("""
class Model:
    def __init__(self):
        self.params = {"w": jnp.ones(2, jnp.bfloat16)}

    @classmethod
    def create(cls):
        return cls()

    @property
    def kernel(self):
        return self.params["w"]

kernel = Model.create().kernel
""", {"kernel": ("bfloat16 [jax]",) * 2}),
    "assigned from outside": ("""
class Holder:
    def __init__(self):
        self.value = np.ones(2, np.float32)

    def doubled(self):
        return self.value * 2

holder = Holder()
holder.value = np.ones(2, np.float64)
out = holder.doubled()
""", {"out": ("float64 [numpy-array]",) * 2}),
    "a dict with literal keys indexed by a key that is no literal": ("""
def order(dealiasing):
    return {"linear": 2, "quadratic": 3, "cubic": 4}[dealiasing]

TABLES = {"a": jnp.ones(2, jnp.float16), "b": jnp.zeros(2, jnp.float16)}

def scaled(name, dealiasing):
    return TABLES[name] * order(dealiasing)

def fallback(name):
    return {"a": np.float32(1), "b": np.float32(2)}.get(name, np.float32(0))

out = scaled("b", "cubic")
fb = fallback("c")
""", {"out": ("float16 [jax]",) * 2, "fb": ("float32 [numpy-scalar]",) * 2}),
    "frozen dataclass fields set by name in __init__ and __post_init__": ("""
import dataclasses

@dataclasses.dataclass(frozen=True)
class Sigma:
    boundaries: np.ndarray

    def __init__(self, boundaries):
        object.__setattr__(self, "boundaries", np.asarray(boundaries, np.float32))

    @property
    def centers(self):
        return (self.boundaries[1:] + self.boundaries[:-1]) / 2

@dataclasses.dataclass(frozen=True)
class Hybrid:
    a: np.ndarray
    n: int = 0

    def __post_init__(self):
        object.__setattr__(self, "a", np.asarray(self.a))

    def thickness(self):
        return np.diff(self.a) * jnp.ones(2, jnp.float16)

class Options:
    def __init__(self):
        setattr(self, "w", np.ones(2, np.int8))

centers = Sigma([0.0, 0.5, 1.0]).centers
thickness = Hybrid(np.ones(3, np.int16)).thickness()
w = Options().w
""", {"centers": ("float32 [numpy-array]",) * 2, "thickness": ("float16 [jax]",) * 2,
      "w": ("int8 [numpy-array]",) * 2}),
}
# An operator calls the program's method: the left object's own (jumanji's snake `Position`), or
# the right object's reflected one where a Python number or a JAX array is on the left (jaxns'
# `LogSpace`); `isinstance` of an object of the program's class is decided.  The oracle's snippet.
CASES["operators call the program's methods"] = (
    next(s.text for s in load_corpus() if "class Position(NamedTuple)" in s.text),
    {name: ((dtype,) * 2) for name, dtype in (("eaten", "bool [jax]"), ("row", "int32 [jax]"),
                                               ("product", "float32 [jax]"), ("scaled", "float32 [jax]"),
                                               ("traced", "float32 [jax]"))},
)

# Programs where the engine cannot be sure: the names must be unknown (running gives a dtype).
UNSURE = {
    # An enumeration's members are no values the engine models (jumanji's `Face.UP.value` was
    # claimed an AttributeError of a Python int).
    "an enumeration's members": ("""
import enum

class Face(enum.IntEnum):
    UP = 0
    FRONT = 1

out = jnp.zeros(3)[Face.FRONT.value] * Face.FRONT
""", "out"),
    "a base class the engine does not know": ("""
import types

class Mine(types.SimpleNamespace):
    def total(self):
        return self.scale * 2

out = Mine(scale=np.float16(1)).total()
""", "out"),
    "a method whose decorator may change it": ("""
import functools

def wrap(f):
    @functools.wraps(f)
    def inner(self):
        return f(self).astype(np.int8)
    return inner

class Thing:
    def __init__(self):
        self.v = np.ones(2, np.float32)

    @wrap
    def get(self):
        return self.v

out = Thing().get()
""", "out"),
    "attributes set by name": ("""
class Options:
    def __init__(self, **overrides):
        self.v = np.ones(2, np.float32)
        for key, value in overrides.items():
            setattr(self, key, value)

    def get(self):
        return self.v

out = Options(v=np.ones(2, np.int8)).get()
""", "out"),
    "a method defined under a condition": ("""
class Switch:
    def __init__(self):
        self.v = np.ones(2, np.float32)

    if True:
        def widen(self):
            self.v = np.ones(2, np.int8)

s = Switch()
s.widen()
out = s.v
""", "out"),
    "a dict changed by a method call": ("""
d = {"w": np.ones(2, np.float32)}
d.update(w=np.ones(2, np.int8))
out = d["w"]
""", "out"),
    "an attribute each call widens": ("""
class Grow:
    def __init__(self):
        self.v = np.ones(2, np.int8)

    def step(self, other):
        self.v = self.v + other

g = Grow()
g.step(np.ones(2, np.float32))
out = g.v
""", "out"),
}

_RUN = """
import json, sys, types, warnings
warnings.simplefilter("ignore")
from promolint.runtime.observe import observe
programs = json.loads(sys.stdin.read())
out = {}
for name, (text, names) in programs.items():
    module = types.ModuleType("program")
    sys.modules["program"] = module
    exec(compile(text, name, "exec"), module.__dict__)
    out[name] = {n: observe(module.__dict__[n]) for n in names}
print(json.dumps(out))
"""


def _describe(record: dict) -> str | None:
    if record.get("dtype") is None:
        return None
    return f"{'weak ' if record['weak'] else ''}{record['dtype']} [{record['library']}]"


def _holds(claim: str | None, seen: str) -> bool:
    """A claim holds when it names what was seen, or a set of dtypes that includes it."""
    if claim is None:
        return False
    dtypes, _, rest = claim.partition(" [")
    seen_dtype, _, seen_rest = seen.partition(" [")
    weak = dtypes.startswith("weak ")
    return weak == seen_dtype.startswith("weak ") and rest == seen_rest and \
        seen_dtype.removeprefix("weak ") in dtypes.removeprefix("weak ").split("|")


def _run(programs: dict[str, tuple[str, list[str]]], x64: str) -> dict:
    process = subprocess.run([sys.executable, "-c", _RUN], input=json.dumps(programs), cwd=ROOT, capture_output=True,
                             text=True, timeout=300, env=worker_environment(JAX_ENABLE_X64=x64))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    return json.loads(process.stdout)


@pytest.fixture(scope="module")
def observed() -> dict[str, dict]:
    """x64 flag -> program -> name -> what running left in it."""
    programs = {name: (IMPORTS + text, list(expected)) for name, (text, expected) in CASES.items()}
    programs.update({name: (IMPORTS + text, [target]) for name, (text, target) in UNSURE.items()})
    return {flag: _run(programs, flag) for flag in ("0", "1")}


def revealed(text: str, x64: str) -> dict[str, str | None]:
    """What reveal says each name holds at its last assignment."""
    records = reveal_records_many(text.encode(), [Settings(x64=x64)])[0]
    names: dict[str, str | None] = {}
    for record in sorted(records, key=lambda r: (r["line"], r["column"])):
        if record["target"]:
            names[record["text"]] = _describe(record)
    return names


@pytest.mark.parametrize("name", list(CASES))
def test_reveal_gives_what_running_gives(name, observed) -> None:
    text, expected = CASES[name]
    for index, (flag, x64) in enumerate((("0", "off"), ("1", "on"))):
        ran = {n: _describe(o) for n, o in observed[flag][name].items()}
        assert ran == {n: pair[index] for n, pair in expected.items()}, f"running {name} with x64 {x64}"
        claims = revealed(IMPORTS + textwrap.dedent(text), x64)
        for variable, seen in ran.items():
            assert _holds(claims.get(variable), seen), f"reveal of {variable} in {name} with x64 {x64}"


@pytest.mark.parametrize("name", list(UNSURE))
def test_unknown_where_unsure(name, observed) -> None:
    text, target = UNSURE[name]
    assert _describe(observed["0"][name][target]) is not None  # there is a dtype to get wrong
    for x64 in ("off", "on"):
        assert revealed(IMPORTS + textwrap.dedent(text), x64).get(target) is None, name


# --- evosax's PositionalEncoding ---------------------------------------------------------------
# flax.linen as far as this program's dtypes depend on it: a Module is a dataclass of its
# annotated fields, and apply() runs setup() before __call__.  Real flax is used when installed.
_FLAX_STAND_IN = """
import dataclasses, sys, types
try:
    import flax.linen
except ImportError:
    class Module:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            dataclasses.dataclass(cls)

        def apply(self, variables, *args):
            self.setup()
            return self(*args)

    linen = types.ModuleType("flax.linen")
    linen.Module = Module
    flax = types.ModuleType("flax")
    flax.linen = linen
    sys.modules.update({"flax": flax, "flax.linen": linen})
"""


@pytest.mark.parametrize("x64", ["off", "on"])
def test_evosax_positional_encoding(x64) -> None:
    """setup() stores a NumPy float64 table through jax.device_put; __call__ adds it to a float32
    batch: float64 with x64 on, as running it gives."""
    program = EVOSAX.read_text()
    run = _FLAX_STAND_IN + "\nimport json, runpy\nfrom promolint.runtime.observe import observe\n" \
        f"print(json.dumps(observe(runpy.run_path({str(EVOSAX)!r})['encoded'])))\n"  # fmt: skip
    process = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    ran = _describe(json.loads(process.stdout.splitlines()[-1]))
    assert ran == ("float64 [jax]" if x64 == "on" else "float32 [jax]")
    assert revealed(program, x64)["encoded"] == ran
    records = reveal_records_many(program.encode(), [Settings(x64=x64)])[0]
    table = [_describe(r) for r in records if r["text"] == "self.pe[:, : x.shape[1]]"]
    assert table == [ran]  # the table read in __call__, analysed on its own


def test_an_attribute_no_array_has_is_no_error_claim() -> None:
    """An attribute no number and no array has says the value is some object the engine does
    not model (pgx's `state.replace(...)` on a state of a class it cannot see was claimed an
    AttributeError at every numeric member of the parameter, the whole environment step with it);
    `2.0.astype` still raises: the code took a Python float for an array."""
    records = reveal_records_many(b"x = 2\ny = x.replace\n", [Settings()])[0]
    assert [r["text"] for r in records if r["error"]] == []
    records = reveal_records_many(b"x = 2.0\ny = x.astype\n", [Settings()])[0]
    assert {(r["text"], r["error"]) for r in records if r["error"]} == {("y", "AttributeError"),
                                                                          ("x.astype", "AttributeError")}


_MADE_WITH_A_SIZE = IMPORTS + """
from typing import NamedTuple


class Tree(NamedTuple):
    visits: jax.Array
    values: jax.Array


def make(n: int) -> Tree:
    return Tree(visits=jnp.zeros(n, jnp.int32), values=jnp.zeros(n, jnp.float32))


def read(tree: Tree):
    visits = tree.visits
    return visits + 1
"""


@pytest.mark.parametrize("x64", ["off", "on"])
def test_fields_made_with_a_size_parameter_keep_their_dtype(x64) -> None:
    """mctx-style state: the program makes its Tree with `jnp.zeros(n, jnp.int32)` of an `n: int`,
    and reads the field in a function that takes any Tree.  What `n` is changes the zeros' rank,
    not their dtype: the field is int32 there, as running `read(make(3))` gives."""
    run = _MADE_WITH_A_SIZE + "\nimport json\nfrom promolint.runtime.observe import observe\n" \
        "print(json.dumps(observe(read(make(3)))))\n"  # fmt: skip
    process = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    ran = _describe(json.loads(process.stdout.splitlines()[-1]))
    assert ran == "int32 [jax]"
    records = reveal_records_many(_MADE_WITH_A_SIZE.encode(), [Settings(x64=x64)])[0]
    assert [_describe(r) for r in records if r["text"] == "visits + 1"] == [ran]


_NOT_NUMBERS = """
class Axis:
    def __init__(self, size):
        self.size = size


class Spec:
    def __init__(self, shape):
        self.shape = shape

    size = property(lambda self: sum(ax.size for ax in self.shape))


def dims(leaf):
    if isinstance(leaf, Spec):
        return [ax.size for ax in leaf.shape]
    return []


out = dims(Spec((Axis(2), Axis(3))))
total = Spec((Axis(2),)).size
"""


def test_self_and_objects_a_guard_names_are_no_numbers() -> None:
    """levanter's `property(lambda self: prod(ax.size for ax in self.shape))` and penzai's
    `if isinstance(leaf, ArraySpec): ... dim.size` were claimed AttributeErrors: the lambda's
    `self`, and `leaf` in the guarded branch, were taken for any number, whose `.shape` holds
    Python ints.  An unannotated `self` is an object, and `isinstance(x, C)` with one of the
    program's classes makes `x` an object of it; the program runs."""
    process = subprocess.run([sys.executable, "-c", _NOT_NUMBERS], capture_output=True, text=True, timeout=60)
    assert process.returncode == 0, process.stderr
    records = reveal_records_many(_NOT_NUMBERS.encode(), [Settings()])[0]
    assert [(r["text"], r["error"]) for r in records if r["error"]] == []


_REPLACED_WITH_A_RAISE = IMPORTS + """
from typing import NamedTuple
from jax import lax
import jax_helpers  # unknown to the engine: its values are unknown

EMPTY = 0


class GameState(NamedTuple):
    board: jax.Array = jnp.int32([4, 1, 0, 1])


def apply(state: GameState):
    removed, passant = jax_helpers.square(), jax_helpers.passant()  # unknown
    return state._replace(board=state.board.at[removed].set(lax.select(passant, EMPTY, state.board[removed])))


def peek(state: GameState):
    return state.board + 1
"""


def test_a_field_replaced_with_what_raised_keeps_what_objects_are_made_with() -> None:
    """pgx chess's `_apply_move`: with x64 on, the `lax.select` of a Python int and the int32
    board raises, so `_replace` never runs and makes no object: the board stays int32 in the
    functions that read it (an argument that raised made the whole call unknown, and that unknown
    the field of every GameState), and the raise is still claimed where it happens."""
    helper = "import sys, types\nsys.modules['jax_helpers'] = types.SimpleNamespace(square=lambda: 2, passant=lambda: jnp.bool_(True))\n"
    run = helper + _REPLACED_WITH_A_RAISE + """
import json
from promolint.runtime.observe import observe
try:
    apply(GameState())
    raised = None
except TypeError as error:
    raised = str(error)
print(json.dumps([raised, observe(peek(GameState()))]))
"""
    process = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    raised, peeked = json.loads(process.stdout.splitlines()[-1])
    assert "lax.select requires arguments to have the same dtypes" in raised
    records = reveal_records_many(_REPLACED_WITH_A_RAISE.encode(), [Settings(x64="on")])[0]
    assert [r["error"] for r in records if r["text"].startswith("lax.select(")] == ["TypeError"]
    assert [_describe(r) for r in records if r["text"] == "state.board + 1"] == [_describe(peeked)] == ["int32 [jax]"]


_STEP_BEFORE_RESET = IMPORTS + """
from typing import NamedTuple


class EnvState(NamedTuple):
    pos: int
    time: int


class Env:
    def step(self, state: EnvState, action: jax.Array):
        moved = (action > 0).astype(jnp.int32)
        pos = (1 - moved) * state.pos + moved * 3
        return state._replace(pos=pos, time=state.time + 1)

    def reset(self):
        return EnvState(pos=jnp.int32(9), time=0)
"""


@pytest.mark.parametrize("x64", ["off", "on"])
def test_a_field_read_before_any_object_is_made_settles_on_what_objects_are_made_with(x64) -> None:
    """gymnax's environments define `step_env` before `reset_env`: the step read `state.pos`
    before any EnvState was made (unknown, its annotation a Python int), replaced it with what
    it computed from that, and the unknown stayed in the field for good.  What the step made
    from a guess is forgotten once reset has made one: the field settles on the int32 that reset
    and the step make, and the step's `pos` is int32, as running it gives."""
    run = _STEP_BEFORE_RESET + """
import json
from promolint.runtime.observe import observe
env = Env()
state = jax.jit(env.step)(env.reset(), jnp.int32(1))
print(json.dumps(observe(state.pos)))
"""
    process = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    ran = _describe(json.loads(process.stdout.splitlines()[-1]))
    records = reveal_records_many(_STEP_BEFORE_RESET.encode(), [Settings(x64=x64)])[0]
    assert [_describe(r) for r in records if r["text"] == "pos" and r["line"] == 16] == [ran] == ["int32 [jax]"]



_FIELD_FROM_ITSELF = IMPORTS + """
from typing import NamedTuple


class ChainState(NamedTuple):
    context: jax.Array
    time: int


class Chain:
    def step(self, state: ChainState, action: jax.Array):
        context = jax.lax.select(state.time == 0, action, state.context)
        return ChainState(context=context, time=state.time + 1)

    def reset(self):
        return ChainState(context=jnp.array(-1), time=0)
"""


@pytest.mark.parametrize("x64", ["off", "on"])
def test_a_field_the_step_makes_from_itself_holds_what_reset_makes_it_with(x64) -> None:
    """gymnax's DiscountingChain: `step` makes `context` with `lax.select(..., action,
    state.context)`, from the very field it was given, which `reset` makes with `jnp.array(-1)`.
    Where the step runs, what it makes is that dtype, weak as the action is: the field is the
    default int (weak after reset, strong after a step), not a variable over every dtype.  Run
    with the default int action, the step reads both."""
    run = _FIELD_FROM_ITSELF + """
import json
from promolint.runtime.observe import observe
chain = Chain()
seen = []
state = chain.reset()
for _ in range(2):
    seen.append(observe(state.context))
    state = jax.jit(chain.step)(state, jnp.ones((), int))
print(json.dumps(seen))
"""
    process = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    ran = [_describe(seen) for seen in json.loads(process.stdout.splitlines()[-1])]
    default_int = "int64" if x64 == "on" else "int32"
    assert ran == [f"weak {default_int} [jax]", f"{default_int} [jax]"]
    records = reveal_records_many(_FIELD_FROM_ITSELF.encode(), [Settings(x64=x64)])[0]
    (read,) = [r for r in records if r["text"] == "state.context" and r["line"] == 15]
    assert (read["dtype"], read["weak"], read["library"], read.get("variable")) == (default_int, None, "jax", None)


_CARRIED = IMPORTS + """

def update_mobs(rng, state):
    def _move_zombie(rng_and_state, zombie_index):
        rng, state = rng_and_state
        zombies = state.zombies
        cooldown = jax.lax.select(zombies.mask[zombie_index], 5, zombies.cooldown[zombie_index] - 1)
        return (rng, state), cooldown

    (rng, state), cooldowns = jax.lax.scan(_move_zombie, (rng, state), jnp.arange(3))
    return cooldowns
"""


def test_a_scan_body_gets_each_element_of_a_carried_tuple_and_the_fields_of_a_carried_object() -> None:
    """craftax's `_move_zombie(rng_and_state, zombie_index)`: `rng, state = rng_and_state` used
    to give values of both parameters, and `state.zombies` an unknown of them; each element is
    what was carried (the body hands it back unchanged, so the scan runs it once), and a field of
    the carried object, a field of that too, is the field traced: a variable of its own, which
    the run-time shim binds to what the call passed (the oracle's `cooled` snippets run such
    bodies on real pytrees: no claim there disagrees)."""
    records = reveal_records_many(_CARRIED.encode(), [Settings()])[0]
    depends = {r["text"]: r.get("depends") for r in records if r["line"] == 10 and not r["target"]}
    assert depends["zombies.cooldown[zombie_index] - 1"] == ["state.zombies.cooldown"]
    assert [r.get("depends") for r in records if r["line"] == 9 and r["text"] == "state"] == [["state"]]
    assert [r.get("depends") for r in records if r["line"] == 11 and r["text"] == "rng"] == [["rng"]]


def _solver_of_many_methods(helpers: int, methods: int) -> str:
    """ott-jax's LR solvers' shape of code: every method takes the problem and the state,
    annotated, and hands them to helpers that hand them on."""
    fan_out = "".join(f"        self.h{i}(p, s)\n" for i in range(2, helpers + 2))
    defs = "".join(f"    def h{i}(self, p: Problem, s: State) -> State:\n        return s\n\n"
                   for i in range(2, helpers + 2))  # fmt: skip
    defs += "".join(f"    def m{i}(self, p: Problem, s: State) -> State:\n        return self.h1(p, s)\n\n"
                    for i in range(methods))  # fmt: skip
    return f"""from typing import NamedTuple
import jax.numpy as jnp

class Problem:
    def __init__(self, tau: float = 1.0):
        self.tau = tau

class State(NamedTuple):
    errors: jnp.ndarray

def init():
    return State(errors=jnp.zeros(3))

class Solver:
    def h1(self, p: Problem, s: State) -> State:
{fan_out}        return s

{defs}    def last(self, p: Problem, s: State):
        s = self.h1(p, s)
        return s.errors
"""


def test_calls_given_a_parameters_object_whose_fields_are_typed_are_memoized_across_functions() -> None:
    """ott-jax's `sinkhorn_lr.py:678` `state.errors` (float32: what the states are made with)
    went unknown when every annotated parameter's object kept where it came from: calls given
    `state` in one method and in another were no longer the same call, and the module's call
    budget ran out before `one_iteration`.  An object keeps its origin only where a field of it
    is typed by nothing (mctx's Tree): here `State.errors` is made with `jnp.zeros`."""
    records = reveal_records_many(_solver_of_many_methods(10, 40).encode(), [Settings()])[0]
    assert [(r["dtype"], r["library"]) for r in records if r["text"] == "s.errors"] == [("float32", "jax")]


_MADE_WITH_AN_UNKNOWN = """from typing import NamedTuple
import jax.numpy as jnp

class State(NamedTuple):
    pos: jnp.ndarray
    steps: jnp.ndarray

def reset(pos):
    return State(pos=pos, steps=jnp.zeros((), jnp.int32))

def step(state: State):
    return state.pos + 1, state.steps + 1
"""


def test_a_parameters_object_holds_a_variable_where_objects_are_made_with_an_unknown() -> None:
    """jaxmarl's and brax's states are made with what their reset functions are given: what
    objects are made with is unknown there, and a `state: State` parameter's `state.pos` was
    unknown; it is a variable of its own (the run-time shim binds it: tests/runtime), while
    `state.steps` is what every state is made with."""
    records = reveal_records_many(_MADE_WITH_AN_UNKNOWN.encode(), [Settings()])[0]
    found = {r["text"]: (r["dtype"], r.get("depends")) for r in records if r["line"] == 12 and not r["target"]}
    assert found["state.pos"] == ("dtype of state.pos", ["state.pos"])
    assert found["state.steps + 1"] == ("int32", None)


_CARRIED_BESIDE_VARIABLES = """from typing import NamedTuple
import jax
import jax.numpy as jnp

class Tree(NamedTuple):
    parents: jax.Array
    node_values: jax.Array

def make(values):
    return Tree(jnp.zeros(values.shape, jnp.int32), values)

def backward(tree: Tree, leaf_index: jax.Array):
    def body(loop_state):
        tree, leaf_value, index = loop_state
        parent = tree.parents[index]
        value = tree.node_values[parent] + leaf_value
        return tree._replace(node_values=tree.node_values.at[parent].set(value)), value, parent

    leaf_index = jnp.asarray(leaf_index, dtype=jnp.int32)
    state = (tree, tree.node_values[leaf_index], leaf_index)
    tree, value, index = jax.lax.while_loop(lambda s: s[2] != 0, body, state)
    return tree
"""


def test_an_object_carried_beside_symbolic_leaves_is_the_object_in_the_body() -> None:
    """mctx's `backward`: a while_loop carries `(tree, leaf_value, index)`, the value symbolic
    (of the variable `tree.node_values`).  JAX traces the body again with the weak leaves
    promoted, and every leaf, the tree too, was a symbolic 'promoted carry': `tree.parents`
    was unknown in the body.  JAX promotes arrays, not the objects that hold them, so the tree
    is itself in the body (the oracle's `backward` snippet runs this on real trees)."""
    records = reveal_records_many(_CARRIED_BESIDE_VARIABLES.encode(), [Settings()])[0]
    found = {r["text"]: r["dtype"] for r in records if r["line"] in (15, 16) and not r["target"]}
    assert found["tree.parents[index]"] == "int32"
    assert found["tree.node_values[parent] + leaf_value"] == "dtype of tree.node_values"


_REPLACED = """import jax

def spawn(state, params):
    state = state.replace(mob_map=state.mob_map.at[0].set(True))
    health = state.zombies.health[0] - 1
    state = state.replace(zombies=state.zombies.replace(health=state.zombies.health.at[0].set(health))).replace(n=1)
    return state.zombies.health, state.n, state.mob_map
"""


def test_reads_of_an_object_a_variable_holds_after_replace_give_the_field_replaced_or_the_receivers():
    """craftax's `spawn_mobs`: `state = state.replace(cows=cows, ...)`, then `state.zombies`; the
    replaced state was the call of an attribute variable, unknown, and every read after it too.
    A field replaced is what replaced it; another is what the receiver holds there."""
    records = reveal_records_many(_REPLACED.encode(), [Settings()])[0]
    found = {r["text"]: (r["dtype"], r.get("depends")) for r in records if r["line"] in (5, 7) and not r["target"]}
    assert found["state.zombies.health[0] - 1"] == (None, ["state.zombies.health"])
    assert found["state.zombies.health"] == ("dtype of state.zombies.health", ["state.zombies.health"])
    assert found["state.n"][0] == "int"
    assert found["state.mob_map"] == ("dtype of state.mob_map", ["state.mob_map"])


_SCANNED_AFTER_REPLACE = """import jax
import jax.numpy as jnp

def update(rng, state, count):
    def move(rng_and_state, i):
        rng, state = rng_and_state
        return (rng, state.replace(zombies=state.zombies.replace(cooldown=state.zombies.cooldown - 1))), None
    (rng, state), _ = jax.lax.scan(move, (rng, state), jnp.arange(count))
    (rng, state), _ = jax.lax.scan(move, (rng, state), jnp.arange(count))
    return state.skeletons.cooldown, state.zombies
"""


def test_a_loop_gives_back_an_object_a_variable_holds_with_the_fields_its_body_replaces_unknown():
    """craftax's skeleton scan carries the state the zombie scan gave back: the fields the body
    did not replace are the leaves the loop received (JAX hands them back untouched), twice
    over; the ones it replaced are unknown.  The loop's result was unknown."""
    records = reveal_records_many(_SCANNED_AFTER_REPLACE.encode(), [Settings(x64="on")])[0]
    found = {r["text"]: (r["dtype"], r.get("depends")) for r in records if r["line"] == 10 and not r["target"]}
    # What JAX traced of the field the loop received (a Python scalar there is a weak array now).
    assert found["state.skeletons.cooldown"] == (None, ["state.skeletons.cooldown"])
    assert found["state.zombies"] == (None, None)


def _late_record_program(fillers: int) -> str:
    """A function whose record counts last (a class it reads is made later in the file, so it is
    recorded again) after ``fillers`` functions that spend the file's call budget."""
    filler = "".join(f"\n\ndef filler{i}(x):\n    return grow(grow(grow(grow(x, {i}1), {i}2), {i}3), {i}4) + "
                     f"grow(grow(grow(grow(x, {i}5), {i}6), {i}7), {i}8)\n" for i in range(1, fillers + 1))  # fmt: skip
    return '''from typing import NamedTuple
import jax
import jax.numpy as jnp

class Mobs(NamedTuple):
    health: jax.Array

def update(rng, mobs: Mobs, state, count):
    first = mobs.health[0]
    def move(carry, i):
        rng, state = carry
        zombies = state.zombies
        zombies = zombies.replace(cooldown=zombies.cooldown.at[i].set(zombies.cooldown[i] - 1))
        return (rng, state.replace(zombies=zombies)), None
    (rng, state), _ = jax.lax.scan(move, (rng, state), jnp.arange(count))
    return first, jax.lax.select(state.skeletons.health[0] > 0, 4, state.skeletons.cooldown[0] - 1)

def grow(x, k):
    return x * k + 1
''' + filler + '''

def spawn(n):
    return Mobs(jnp.ones(n, jnp.int32))
'''


@pytest.mark.parametrize("fillers", [0, 24])
def test_a_function_recorded_again_is_not_cut_shorter_than_its_first_record(fillers):
    """craftax's `update_mobs` is recorded three times; its third record, after the rest of the
    file spent the call budget, ran no scan body, and the select after the zombie scan (raising
    for int32 skeleton cooldowns with x64 on, as at game_logic.py:1097) went unreported."""
    from promolint.driver.lint import lint_source

    found = lint_source(_late_record_program(fillers).encode(), "mobs.py", Settings(x64="on"), frozenset({"PRM027"}))
    assert [(d.line, d.code) for d in found] == [(16, "PRM027")]


_READ_BY_A_FUNCTION_FIRST = """import numpy as np

def first(box: "Box"):
    return box.data + 1

class Box:
    def __init__(self, data):
        self._data = np.asarray(data)

    @property
    def data(self):
        return self._data

    def doubled(self):
        return self.data * 2


class Labelled:
    def __init__(self, data):
        self._box = Box(data)

    @property
    def box(self):
        return self._box

    @property
    def data(self):
        return self.box.data

    def halved(self):
        return self.data / 2
"""


def test_what_a_parameters_object_holds_is_a_variable_of_that_parameter_whoever_called_its_property_first():
    """coordax's `NamedArray.data` is a property over `self._data`, assigned from a registry's
    conversion; its methods (`ndim`, `shape`) and functions given a `named_array: NamedArray`
    read it.  A property's call is memoized whichever object it is given, and the first call here
    is `first`'s: `box.data` was unknown and so was `self.data` in `doubled`, which no run could
    bind.  Each is a variable of its own parameter, which the run-time shim binds (tests/runtime)."""
    records = reveal_records_many(_READ_BY_A_FUNCTION_FIRST.encode(), [Settings()])[0]
    found = {r["text"]: (r["dtype"], r.get("depends")) for r in records if not r["target"] and r["line"] < 20}
    assert found["box.data"] == ("dtype of box._data", ["box._data"])
    assert found["self.data"] == ("dtype of self._data", ["self._data"])
    # and what an object such an object holds (coordax's Field and its NamedArray)
    held = [(r["dtype"], r.get("depends")) for r in records if r["text"] in ("self.box.data", "self.data")
            and r["line"] > 20]  # fmt: skip
    assert held == [("dtype of self._box._data", ["self._box._data"])] * 2


# --- jax_dataclasses ----------------------------------------------------------------------------
# jaxlie's and jaxsim's classes: `@jdc.pytree_dataclass` is `dataclasses.dataclass(frozen=True)`
# registered as a pytree (jax_dataclasses 1.6.3).  Real jax_dataclasses is used when installed.
_JDC_STAND_IN = """
import dataclasses, sys, types
try:
    import jax_dataclasses
except ImportError:
    jax_dataclasses = types.ModuleType("jax_dataclasses")
    jax_dataclasses.pytree_dataclass = lambda cls: dataclasses.dataclass(frozen=True)(cls)
    sys.modules["jax_dataclasses"] = jax_dataclasses
"""
_JDC_PROGRAM = """
import jax_dataclasses as jdc

@jdc.pytree_dataclass
class SO2:
    unit_complex: jnp.ndarray

    def inverse(self):
        return SO2(unit_complex=self.unit_complex * jnp.array([1, -1], jnp.float32))

half = SO2(jnp.ones(2, jnp.bfloat16)).unit_complex
inverse = SO2(jnp.ones(2, jnp.float16)).inverse().unit_complex
"""


@pytest.mark.parametrize("x64", ["off", "on"])
def test_jax_dataclasses_fields_hold_what_objects_are_made_with(x64) -> None:
    program = IMPORTS + _JDC_PROGRAM
    run = _JDC_STAND_IN + "\n" + _RUN
    process = subprocess.run([sys.executable, "-c", run], input=json.dumps({"jdc": (program, ["half", "inverse"])}),
                             cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    ran = {n: _describe(o) for n, o in json.loads(process.stdout)["jdc"].items()}
    assert ran == {"half": "bfloat16 [jax]", "inverse": "float32 [jax]"}
    claims = revealed(textwrap.dedent(program), x64)
    assert {n: claims.get(n) for n in ran} == ran

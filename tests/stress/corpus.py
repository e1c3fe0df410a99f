"""A generated stress corpus: valid Python of every shape the grammar allows, at sizes up to what
CPython compiles.  Each program ends with a sentinel line whose finding (PRM006) must survive, so
a program that is analyzed only in part shows."""

from __future__ import annotations

from collections.abc import Callable

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nx = jnp.ones(3, jnp.int8)\n"
SENTINEL = "sentinel = x + 1000\n"  # PRM006: 1000 does not fit int8


def _chain(n: int) -> str:
    return "y = " + " + ".join(["x"] * n) + "\n"


def _power(n: int) -> str:
    return "y = " + " ** ".join(["x"] * n) + "\n"


def _elif(n: int) -> str:
    return "if x[0]:\n    y = x\n" + "".join(f"elif x[{i % 3}] == {i}:\n    y = x + {i % 100}\n" for i in range(n))


def _unary(n: int) -> str:
    return "y = " + "-" * n + "x\n"


def _attributes(n: int) -> str:
    return "y = x" + ".T" * n + "\n"


def _subscripts(n: int) -> str:
    return "y = x" + "[0]" * n + "\n"


def _methods(n: int) -> str:
    return "y = x" + ".astype(jnp.int8)" * n + "\n"


def _boolean(n: int) -> str:
    return "y = " + " and ".join(["x"] * n) + "\n"


def _comparisons(n: int) -> str:
    return "y = " + " < ".join(["x"] * n) + "\n"


def _nested_blocks(n: int) -> str:
    return "".join(" " * i + "if x[0]:\n" for i in range(n)) + " " * n + "y = x\n"


def _nested_functions(n: int) -> str:
    return ("".join(" " * i + f"def f{i}(a=x):\n" for i in range(n)) + " " * n + "return a + 1\n"
            + "y = f0()\n")  # fmt: skip


def _nested_loops(n: int) -> str:
    return "".join(" " * i + f"for i{i} in range(3):\n" for i in range(n)) + " " * n + "x = x + 1\n"


def _nested_lambdas(n: int) -> str:
    return "f = " + "lambda a: " * n + "a + x\n"


def _huge_literal(n: int) -> str:
    return "table = [" + ", ".join(f"{i} * 1.5" for i in range(n)) + "]\nm = np.array([" + \
        ", ".join(str(i) for i in range(n)) + "], np.int64)\n"  # fmt: skip


def _huge_dict(n: int) -> str:
    return "d = {" + ", ".join(f"'k{i}': jnp.ones({i % 7}, jnp.float32)" for i in range(n)) + "}\n"


def _long_function(n: int) -> str:
    body = "".join(f"    v{i} = v{i - 1} * 2 + jnp.float32({i})\n" for i in range(1, n))
    return f"def long(v0):\n{body}    return v{n - 1}\ny = long(x)\n"


SYNTAX = '''
import asyncio
from functools import partial

@partial(jax.jit, static_argnums=(1,))
def decorated(a, n: int, *rest, key=None, **options) -> jax.Array:
    global x
    total = a
    for i in range(n):
        if (m := i * 2) > 3:
            total = total + m
        elif i:
            continue
        else:
            break
    else:
        total = total - 1
    while total.sum() < 0:
        total += 1
    return total

class Model(object, metaclass=type):
    scale: float = 1.0
    pe = np.zeros(3)

    def __init__(self, *, width: int = 3) -> None:
        self.width = width

    @property
    def weights(self):
        return jnp.ones(self.width) * self.scale

    @staticmethod
    def create(*args, **kwargs):
        return Model(*args, **kwargs)

async def run(items):
    async with asyncio.timeout(1) as cm, asyncio.timeout(2):
        async for item in items:
            await asyncio.sleep(0)
    return [i async for i in items if i]

def generator(n):
    yield n
    yield from range(n)
    received = yield
    return received

def handler(v):
    try:
        v = v / 0
    except* ZeroDivisionError as group:
        v = None
    except* ValueError:
        pass
    try:
        pass
    except (TypeError, KeyError) as error:
        raise RuntimeError("bad") from error
    finally:
        del v

def matcher(command):
    match command:
        case [1, 2, *rest] if rest:
            return rest
        case {"key": value, **others}:
            return value
        case Model(width=3) | Model(width=4):
            return command
        case str() as text:
            return text
        case 1 | 2 | 3:
            return None
        case (a, b):
            return a
        case None:
            return None
        case _:
            return command

def outer():
    count = 0
    def inner():
        nonlocal count
        count += 1
        return count
    return inner

values = [v for v in range(10) if v % 2 for w in range(v)]
squares = {v: v * v for v in range(5)}
unique = {v for v in values}
lazy = (v for v in values)
first, *middle, last = values
(a, b), c = (1, 2), 3
z: int
z = a if b else c
s = f"{a!r:>{b}} {c:.{a}f} {'nested' + f'{b}'}"
t = x[1:2, ::3, ..., None]
u = x[..., 0] @ x[0, ...]
w = not a or b and not c
r = lambda p, q=2, *ps, k, **kw: (p, q, ps, k, kw)
v = b"bytes" + rb"raw"
num = 1_000_000 + 0x_ff + 0o17 + 0b101 + 1.5e-3j
assert a < b <= c != a is not None in values not in values, "chained"
with open(__file__) as f, open(__file__) as g:
    pass
'''

SHAPES: dict[str, Callable[[int], str]] = {
    "chain": _chain, "power": _power, "elif": _elif, "unary": _unary, "attributes": _attributes,
    "subscripts": _subscripts, "methods": _methods, "boolean": _boolean, "comparisons": _comparisons,
    "nested_blocks": _nested_blocks, "nested_functions": _nested_functions, "nested_loops": _nested_loops,
    "nested_lambdas": _nested_lambdas, "huge_literal": _huge_literal, "huge_dict": _huge_dict,
    "long_function": _long_function,
}  # fmt: skip


def program(shape: str, n: int) -> str:
    return HEADER + SHAPES[shape](n) + SENTINEL


def deepest(shape: str, limit: int) -> int:
    """The largest size up to ``limit`` that CPython compiles (its parser has limits of its own)."""
    if _compiles(program(shape, limit)):
        return limit
    low, high = 1, limit
    while low < high:
        middle = (low + high + 1) // 2
        if _compiles(program(shape, middle)):
            low = middle
        else:
            high = middle - 1
    return low


def syntax_showcase() -> str:
    return HEADER + SYNTAX + SENTINEL


def _compiles(text: str) -> bool:
    try:
        compile(text, "<stress>", "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return False
    return True

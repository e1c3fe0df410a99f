"""PRM001 implicit-x64: a 64-bit value nobody asked for that widens narrower data, reported at
its source with the places where it widens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from promolint.core.dtypes import DTYPES, is_64bit
from promolint.engine.records import Module, Operation, Returned
from promolint.engine.symbolic import Symbolic, uniform_instances
from promolint.engine.values import Array, Items, Library, Refusal, Value, ValueSource, python_scalar
from promolint.rules.base import Edit, Example, Finding, Fix, Related, Rule, exact
from promolint.rules.rewrites import reevaluate
from promolint.systems.base import Reason

# NumPy ufuncs of one float with a Python equivalent in ``math`` (same value, a Python float).
_MATH = {name: name for name in ("sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                                 "sinh", "cosh", "tanh")} | {
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "deg2rad": "radians", "rad2deg": "degrees", "radians": "radians", "degrees": "degrees",
}  # fmt: skip
# NumPy's 64-bit scalar types and the Python type of the same value (JAX takes the latter as weak).
_BUILTIN = {"float64": "float", "int64": "int"}
# Calls whose result combines their array arguments by promotion: where two narrower arrays can
# make 64 bits together.  Reductions, indices and conversions of one array make 64-bit counts,
# sums and indices by design (``mask.sum()``, ``np.argmax``): those stay on the host.
_PROMOTING_CALLS = frozenset({"promote", "jax_power", "where", "concatenate", "scaled"})
_PARAMETERS_NOT_INPUTS = frozenset({"self", "cls"})  # the object a method belongs to is not data
# The narrower floats every array input is given alike where an operation depends on too many
# inputs to weigh each combination: "called with float32 arrays, does it compute float64?"
_UNIFORM = ("float32", "bfloat16", "float16")
_TEXT = 40  # longest code quoted in a message
_RELATED = 8  # places listed per source


class ImplicitX64(Rule):
    summary = (
        "Flags 64-bit values nobody asked for that widen narrower data. A NumPy float64 default, a "
        "strong NumPy scalar such as `np.log(2)`, a Python float meeting x64's int64, or NumPy's "
        "int32 with float32 is reported where it meets strong float32 (or narrower) operands and "
        "gives a 64-bit result, or leaves a function while the function's array inputs were "
        "narrower: at its source, with each place it widens as a related location. A parameter of "
        "unknown dtype counts as narrower data where, whatever narrower float it holds, the result is "
        "64-bit (in modules that use JAX)."
    )
    why = """
        64-bit arithmetic is slow on GPUs and unsupported on TPUs. NumPy promotes mixed-kind operands
        to 64 bits, and with `jax_enable_x64` a float64 value leaking into JAX code (a NumPy default,
        `np.sqrt(n)`, a strong float64 built from a Python float and `jnp.arange`) silently turns
        float32 models into float64 ones: twice the memory, a fraction of the speed, and no error
        anywhere. An explicit `dtype=np.float32` does not protect an array from a strong NumPy
        scalar: `np.arange(n, dtype=np.float32) * np.log(2.0)` is float64 under NumPy 2. Weak
        64-bit values (`jnp.arange(n) - 0.5` under x64) adopt the dtype of the strong operand they
        meet and widen nothing, as do int64 counts and indices meeting int32 ones (their values
        stay exact; where they turn float data 64-bit, that is reported); values that stay on the
        host (NumPy counts, sizes, in-place updates, which keep their target's dtype) are not
        reported either. A function's parameters have no dtype in the code, but the function is
        called with float32 data somewhere: `x / np.sqrt(n)` is reported where it is float64 for
        every narrower float `x` (and, for an operation on many parameters, when they all hold
        float32, bfloat16 or float16 alike); a parameter annotated `float` is taken at its word.
    """
    fix_safety = """
        The fix depends on intent: write the Python scalar (`math.sqrt(n)`, `float(c)`), give the
        NumPy array a dtype (`np.ones(3, np.float32)`), or cast explicitly (`.astype(jnp.float32)`).
        `promolint check --fix --unsafe-fixes` rewrites a strong NumPy scalar computed from a Python
        number to the Python scalar of the same value (`np.sqrt(n)` to `math.sqrt(n)`, adding
        `import math`; `np.float64(c)` to `float(c)`; `np.float64(0.5)` to `0.5`) when every place
        it widens then keeps its narrower dtype. It does so only where the engine knows the
        argument is a Python int or float, so the value is the same. The fix is unsafe: it changes
        the dtype of what it fixes (float64 becomes float32 under x64), which is its purpose but a
        change of behaviour all the same (and `math` raises ValueError where NumPy returns nan,
        e.g. the square root of a negative number).
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="on", expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            import math
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / math.sqrt(10)
        """),
        Example("""
            import numpy as np
            a = np.ones(3, np.int32) + np.ones(3, np.float32)
        """),
        Example("""
            import numpy as np
            def frequencies(n, d):
                return np.arange(n, dtype=np.float32) * -(np.log(10000.0) / d)
            table = frequencies(16, 64)
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            m = jnp.mean(np.ones(30)) + jnp.ones(3, jnp.float32)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            def damped(x):
                half = jnp.power(0.5, jnp.arange(x.shape[0]))
                return half * x
            y = damped(jnp.ones(3, jnp.float32))
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def scale(x, c):
                return x * np.float64(c)
            x = jnp.ones(3, jnp.float32)
            y = scale(x, x.shape[0] / 2)
        """, x64="on", expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            def scale(x, c):
                return x * float(c)
            x = jnp.ones(3, jnp.float32)
            y = scale(x, x.shape[0] / 2)
        """),
        # x64's int64 made float: the log of a range is a strong float64 whatever x is, and its
        # shape's elements are Python ints (numpyro's StickBreakingTransform).
        Example("""
            import jax.numpy as jnp
            def balanced(x):
                return x - jnp.log(x.shape[-1] - jnp.arange(x.shape[-1]))
        """, x64="on"),
        # A parameter of unknown dtype: a float32 one becomes float64 (netket's PR 1218), a
        # float64 one stays; the finding holds for every narrower dtype the parameter may have.
        Example("""
            import jax
            import numpy as np
            @jax.jit
            def normalized(x):
                return x / np.sqrt(x.shape[-1])
        """, x64="on"),
        # The same shift returned as it is: callers of float32 data get float64.
        Example("""
            import jax.numpy as jnp
            def shifted(f, sx):
                c = jnp.fft.ifft(f, axis=0)
                phase = jnp.exp(-1j * 2 * jnp.pi * jnp.fft.fftfreq(c.shape[0])[:, None] * sx)
                return jnp.fft.fft(c[None].T * phase, axis=0).real
        """, x64="on"),
    )
    valid = (
        # biotite's rotation matrix: NumPy's `dtype=float` is float64 by definition, asked for.
        Example("""
            import numpy as np
            def rotation(v, c):
                v = np.asarray(v, dtype=np.float32)
                c = np.asarray(c, dtype=np.float32)
                m = np.array([[0, -v[0]], [v[1], 0]], dtype=float)
                return m / (1 + c)
        """),
        # jax-cosmo's search range: jnp.log of a Python float is weak, and a weak value never
        # decides a strong result's width; linspace's float64 is JAX's default under x64, asked for.
        Example("""
            import jax.numpy as np
            logr = np.linspace(np.log(1e-4), np.log(1e1), 256)
            def spread(k):
                return np.outer(np.exp(k), np.exp(logr))
        """, x64="on"),
        # uint32 with int32 is int64 under x64: PRM020 (mixed signedness) reports it.
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.uint32) + jnp.ones(3, jnp.int32)
        """, x64="on"),
        # A module that never imports JAX: its parameters hold NumPy data, float64 by default.
        Example("""
            import numpy as np
            def centred(x):
                return x - np.zeros(3)
        """, x64="on"),
        # The 64 bits come from JAX's float64 default under x64, which the code asked for; the
        # clip of the product keeps them and makes none (brax's fluid force).
        Example("""
            import jax.numpy as jnp
            def box(inertia, mass):
                diagonal = jnp.diag(inertia)
                diagonal *= jnp.ones((3, 3)) - 2 * jnp.eye(3)
                return jnp.clip(jnp.sum(diagonal, axis=-1), 1e-12) / mass
        """, x64="on"),
        # With x64 off, JAX takes the NumPy scalar as float32: only NumPy data would widen.
        Example("""
            import numpy as np
            def shift(x):
                return x + np.float64(1)
        """, x64="off"),
        Example("""
            import math
            import jax.numpy as jnp
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / math.sqrt(10)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="off"),
        # A weak 64-bit intermediate takes the dtype of the strong operand it meets.
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32)
            offsets = jnp.arange(3) - 0.5
            y = x * offsets
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            count = jnp.zeros([], jnp.int32)
            step = count + 1.0
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            counts = jnp.sum(jnp.ones(3, bool))
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.float64) * jnp.float64(0.5)
        """, x64="on"),
        Example("""
            import numpy as np
            a = np.ones(3, np.float64) * np.ones(3, np.float32)
        """),
        # A float64 table filled slice by slice on the host: the NumPy 2 widening of the float32
        # ranges by `np.log` changes nothing the table keeps (evosax's positional encoding).
        Example("""
            import jax
            import numpy as np
            table = np.zeros((8, 4))
            position = np.arange(0, 8, dtype=np.float32)[:, None]
            scale = np.exp(np.arange(0, 4, 2, dtype=np.float32) * -(np.log(10000.0) / 4))
            table[:, 0::2] = np.sin(position * scale)
        """, x64="on"),
        # NumPy counts stay on the host; an in-place update keeps its target's dtype.
        Example("""
            import numpy as np
            mask = np.ones(5, bool)
            count = np.sum(mask)
            fraction = count / 5
            image = np.zeros(5, np.float32)
            image += 0.001 * mask
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            table = jnp.asarray(np.asarray([1.0, 2.0], dtype=np.float64))
            y = table * jnp.ones(2, jnp.float32)
        """, x64="on"),
        # jnp.where's condition is no operand of the promotion: an int64 table selected by a mask
        # widens no mask (jumanji's cleaner moves).
        Example("""
            import jax.numpy as jnp
            MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
            def moves(valid, action):
                return jnp.where(valid[:, None], MOVES[action], 0)
        """, x64="on"),
        # The complex128 shift stays inside: the function returns its result cast back to the
        # data's dtype (interpax's FFT interpolation), so no caller sees 64 bits.
        Example("""
            import jax.numpy as jnp
            def shifted(f, sx):
                c = jnp.fft.ifft(f, axis=0)
                phase = jnp.exp(-1j * 2 * jnp.pi * jnp.fft.fftfreq(c.shape[0])[:, None] * sx)
                out = jnp.fft.fft(c[None].T * phase, axis=0)
                return out.real.astype(f.dtype)
        """, x64="on"),
        # Integers widened by integers keep their values: an int32 action moved by an int64 offset
        # only indexes (gymnax's FrozenLake).
        Example("""
            import jax
            import jax.numpy as jnp
            def transition(key, action):
                action = jnp.asarray(action, dtype=jnp.int32)
                offset = jax.random.choice(key, jnp.array((-1, 1)))
                return (action + offset) % 4
        """, x64="on"),
        # A parameter annotated `float` is taken at its word: a Python float widens nothing
        # (jwave's circle geometry, turned into Python lists).
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def points_on_circle(n: int, radius: float, angle: float = 0.0):
                angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
                return (radius * np.cos(angles + angle)).tolist()
        """, x64="on"),
        # `isinstance(c, float)` makes `c` a Python float: weak, it widens nothing (evojax's PGPE
        # spreads its float64 standard deviations by design).
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def spread(n, init_stdev):
                if isinstance(init_stdev, float):
                    return jnp.array(np.ones(n) * abs(init_stdev))
                return jnp.array(init_stdev)
        """, x64="on"),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        return self.check_module(Module([operation]))

    def check_module(self, module: Module) -> Iterator[Finding]:
        syntax = next((op.syntax for op in module.operations if op.syntax is not None), None)
        if syntax is None:
            return
        leaks: dict[int, _Leak] = {}  # by the source's handle: one finding per source
        for operation in module.operations:
            widened = _widening(operation, module.uses_jax)
            if widened is not None:
                source, place = widened
                leaks.setdefault(id(source.handle), _Leak(source)).widens.append(place)
        for returned in module.returns:
            for value in _returned_leaks(returned):
                leaks.setdefault(id(value.source.handle), _Leak(value.source)).returns.append((returned, value))
        for leak in leaks.values():
            # A source in another module's file is reported there (values arriving from it are
            # anchored where they arrive: promolint.engine.sources.anchored).
            if not leak.source.module and not _stays_on_host(leak, module) and not _cast_back(leak, module, syntax):
                yield self._finding(leak, syntax, _raising(leak, module, syntax))

    def _finding(self, leak: _Leak, syntax, raising: Operation | None = None) -> Finding:
        source = leak.source
        text, line = _short(syntax.text(source.handle)), syntax.line(source.handle)
        places = [(place.operation.node, _widens_text(syntax, place)) for place in leak.widens
                  if place.operation.node is not source.handle]  # fmt: skip
        places += [(returned.node, _returns_text(syntax, returned, value)) for returned, value in leak.returns]
        producer = syntax.operation_at(source.handle)
        raises = _raises_text(syntax, raising) if raising is not None else ""
        if len(places) < len(leak.widens) + len(leak.returns):  # the 64 bits are made where they widen data
            message = f"`{text}` {source.what}, which no operand asked for"
            message += f"; it also {places[0][1]}" if places else ""
            message += f". {raises}" if raises else ""
            message += ". Give the operands one dtype, e.g. `.astype(np.float32)`."
        else:
            more = f" (and {len(places) - 1} more {'place' if len(places) == 2 else 'places'})" if len(places) > 1 else ""
            message = f"`{text}` {source.what}, which no operand asked for: from here it {places[0][1]}{more}. "
            message += f"{raises}. {_advice(producer, _narrow_example(leak), where_made=True)}" if raises else \
                _advice(producer, _narrow_example(leak))  # fmt: skip
        if raising is not None:
            places.append((raising.node, _raises_text(syntax, raising)))
        related = tuple(Related(node, f"{place} (64 bits from `{text}`, line {line})") for node, place in places)
        return Finding(self.code, message, source.handle, _python_scalars_fix(leak, syntax), related[:_RELATED])


# NumPy functions that make their 64 bits themselves and take no dtype: the way out of each.
_FUNCTION_ADVICE = {
    "interp": "np.interp computes in float64 whatever its inputs: cast its result (`.astype(np.float32)`).",
    "polyval": "Give the coefficients the narrower dtype (`np.asarray(p, np.float32)`), or cast the result.",
}


def _narrow_example(leak: _Leak) -> str:
    """The narrower dtype the advice names: that of the first data the leak widens, where it is a
    float (integers a leak widens become floats: the advice names float32 for them)."""
    dtypes = leak.widens[0].narrow.dtypes if leak.widens else frozenset()
    dtype = next(iter(dtypes)) if len(dtypes) == 1 else "float32"
    return dtype if DTYPES[dtype].kind in "fc" else "float32"


def _advice(producer: Operation | None, narrow: str, where_made: bool = False) -> str:
    """What to do about the source; ``where_made``: the cast goes where the 64 bits are made (where
    they make JAX raise further on, only a cast before the raising operation removes the error)."""
    if producer is not None and producer.call is not None and producer.call.fn.rule in _FUNCTION_ADVICE:
        return _FUNCTION_ADVICE[producer.call.fn.rule]
    result = exact(producer.result) if producer is not None else None
    library = result.library if result is not None else Library.JAX
    here = " where it is made" if where_made else ""
    if library is Library.NUMPY_SCALAR:
        return f"Use a Python scalar (`math.sqrt(n)`, `float(c)`), or cast it to the narrower dtype{here}."
    if library is Library.NUMPY_ARRAY:
        return f"Give it the narrower dtype (`np.zeros(n, np.{narrow})`), or cast it{here}."
    return f"Cast it to the narrower dtype{here} (`.astype(jnp.{narrow})`), or compute it from narrower operands."


def _raising(leak: _Leak, module: Module, syntax) -> Operation | None:
    """The first place where the leak's 64 bits make JAX raise rather than widen silently: a
    `jax.lax` operation given them (`lax.add` requires equal dtypes), or a loop or conditional
    that raises and is given a body returning them (the carry, the branches must keep one
    dtype): a function by name, or a lambda written in the call."""
    handle = leak.source.handle
    bodies = {syntax.function_of(r.node) for r in module.returns
              if any(_source_handle(v) is handle for v in _leaves(r.value))} - {None}  # fmt: skip
    names = {_function_name(syntax.text(body)) for body in bodies} - {""}
    # A lambda (which has no return statement) whose body ends with what the leak widens returns it.
    lambdas = [text for place in leak.widens if (body := syntax.function_of(place.operation.node)) is not None
               and (text := syntax.text(body)).startswith("lambda")
               and text.endswith(syntax.text(place.operation.node))]  # fmt: skip
    for operation in module.operations:
        if not isinstance(operation.result, Refusal) or operation.result.reason == Reason.STRICT.value:
            continue
        if operation.kind == "call" and operation.op.startswith("jax.lax.") and any(
                _source_handle(v) is handle and v.exact and is_64bit(v.dtype) for v in operation.operands):  # fmt: skip
            return operation
        if operation.kind == "control" and _runs(syntax.text(operation.node), names, lambdas):
            return operation
    return None


def _runs(call: str, names: set[str], lambdas: list[str]) -> bool:
    """Whether a loop's or conditional's call (its code) is given one of the functions: by name,
    or written there as a lambda."""
    by_name = bool(names) and re.search(rf"\b(?:{'|'.join(map(re.escape, sorted(names)))})\b", call) is not None
    return by_name or any(text in call for text in lambdas)


def _function_name(text: str) -> str:
    match = re.match(r"\s*(?:@.*\n\s*)*(?:async\s+)?def\s+(\w+)", text)
    return match.group(1) if match else ""


def _leaves(value: Value) -> tuple[Value, ...]:
    return tuple(leaf for item in value.items for leaf in _leaves(item)) if isinstance(value, Items) else (value,)


def _raises_text(syntax, operation: Operation) -> str:
    mode = "With x64 on, " if operation.ctx.x64 else ""
    return (f"{mode}`{operation.op.removeprefix('jax.')}` raises {operation.result.error} at line "
            f"{syntax.line(operation.node)}: {operation.result.message.rstrip('.')}")


@dataclass(frozen=True)
class _Widening:
    """An operation where 64 bits widen narrower data: the operand they widen (``index`` among
    the operation's operands, None when it is not one of them) to ``dtype``; ``every_member``:
    the operand has an unknown dtype and this holds at every narrower member of it."""

    operation: Operation
    narrow: Array
    index: int | None
    dtype: str
    every_member: bool = False


@dataclass
class _Leak:
    source: ValueSource
    widens: list[_Widening] = field(default_factory=list)
    returns: list[tuple[Returned, Array]] = field(default_factory=list)


def _narrower_data(value: Value) -> bool:
    """A strong NumPy or JAX value of a known dtype narrower than 64 bits, not bool."""
    if not (isinstance(value, Array) and value.library is not Library.PYTHON and value.weak is False):
        return False
    return bool(value.dtypes) and all(not is_64bit(d) and DTYPES[d].kind != "b" for d in value.dtypes)


def _narrower_float(value: Value) -> bool:
    """Narrower data of a floating kind: what a leak into a value of unknown dtype costs (an
    integer that meets a 64-bit count is most often a Python int the annotation admits)."""
    return _narrower_data(value) and all(DTYPES[d].kind in "fc" for d in value.dtypes)


def _arrays(operation: Operation) -> list[Value]:
    if operation.kind == "call" and operation.call is not None:
        return list(operation.call.arrays())
    return list(operation.operands)


def _widening(operation: Operation, uses_jax: bool) -> tuple[ValueSource, _Widening] | None:
    """Where a strong 64-bit value with a source meets strong narrower data and the result is
    64-bit: the source and the narrower operand."""
    if operation.kind not in ("binop", "augassign", "call"):
        return None
    if operation.kind == "call" and (operation.call is None or operation.call.fn.rule not in _PROMOTING_CALLS):
        return None
    result = _sourced_64bit(operation.result)
    narrow = [v for v in _arrays(operation) if _narrower_data(v)] if result is not None else []
    if not narrow:  # nothing known to widen: perhaps an operand of unknown dtype, at each member
        return _widening_at_every_member(operation) if uses_jax else None
    if result.source.handle is operation.node and len(narrow) < 2:
        return None  # made here from one narrower operand and a Python scalar: a kind change, not a leak
    if result.source.handle is operation.node and result.library is Library.JAX and _mixed_signedness(narrow):
        return None  # JAX's uint32 with a signed integer: PRM020 reports it, in both x64 modes
    if _integers_only(operation):
        return None  # integers widened by integers keep their values; where they meet floats, that is reported
    index = next((i for i, v in enumerate(operation.operands) if v is narrow[0]), None)
    return result.source, _Widening(operation, narrow[0], index, result.dtype)


def _widening_at_every_member(operation: Operation) -> tuple[ValueSource, _Widening] | None:
    """Where an operand of unknown dtype (a parameter, what is computed from one) meets a strong
    64-bit value with a source, and at every member where that operand is narrower data the
    result is 64-bit (``x / np.sqrt(n)`` under x64, whatever float32 or narrower ``x`` is): the
    source and the narrower operand at the first such member.  Members where it is not a
    narrower float (a float64 ``x``, a Python scalar) widen nothing and decide nothing; at least one
    must be a JAX array, the data the leak reaches (the caller asks only in modules that use JAX:
    a NumPy module's parameters hold NumPy data)."""
    if operation.members is None:
        return None
    sources = [i for i, v in enumerate(operation.operands) if _sourced_64bit(v) is not None]
    if not sources:
        return None
    instances = operation.members(_UNIFORM)
    if not instances:
        return None
    data = _promoted_positions(operation) - _scalar_annotated(operation)
    first = None
    reaches_jax = False
    for operands, result in instances:
        narrow = [(i, v) for i, v in enumerate(operands) if i in data and i not in sources and _narrower_float(v)]
        if not narrow or isinstance(result, Refusal):
            continue
        if not (isinstance(result, Array) and result.exact and not result.weak and is_64bit(result.dtype)):
            return None
        if first is None or _example_rank(narrow[0][1]) < _example_rank(first.narrow):
            first = _Widening(operation, narrow[0][1], narrow[0][0], result.dtype, every_member=True)
        reaches_jax = reaches_jax or any(v.library is Library.JAX for _, v in narrow)
    if first is None or not reaches_jax:
        return None
    return operation.operands[sources[0]].source, first


def _promoted_positions(operation: Operation) -> set[int]:
    """The operands that take part in the promotion: for a call, not those bound to a parameter
    outside its catalog entry's arrays (``jnp.where``'s condition decides no dtype)."""
    positions = set(range(len(operation.operands)))
    if operation.call is None:
        return positions
    call = operation.call
    promoted = {id(call.bound.get(p)) for p in call.fn.arrays}
    other = {id(v) for p, v in call.bound.items() if p not in call.fn.arrays}
    return {i for i in positions if id(operation.operands[i]) in promoted or id(operation.operands[i]) not in other}


def _scalar_annotated(operation: Operation) -> set[int]:
    """The operands computed only from parameters annotated with Python scalar types (``radius:
    float``) or given Python numbers as defaults: the rule takes the author at their word, and a
    Python float widens nothing (on the primer such a parameter held JAX data nowhere: jwave's
    circle geometry)."""
    return {i for i, v in enumerate(operation.symbolic_operands)
            if type(v) is Symbolic and v.variables and all(var.scalar_annotated for var in v.variables)}


def _sourced_64bit(value: Value) -> Array | None:
    """``value`` if it is a strong 64-bit value whose 64 bits have a source."""
    found = exact(value)
    return found if found is not None and found.source is not None and not found.weak and is_64bit(found.dtype) \
        else None  # fmt: skip


def _example_rank(value: Array) -> tuple[bool, bool]:
    """The member a message names: a JAX float32, the commonest narrower data, else any JAX."""
    return value.library is not Library.JAX, value.dtypes != {"float32"}


def _integers_only(operation: Operation) -> bool:
    """Every operand the promotion weighs is an integer (or bool) of a known dtype: an int64 count
    meeting int32 indices (``action + jnp.array((-1, 1))``, ``occupancy / occupancy.sum()`` under
    x64).  Their values are exact in 64 bits, and JAX puts every integer below the floats (int64
    with float32 is float32), so what they widen is no float data; on the primer every such
    finding was an index or a count (docs/primer.md)."""
    operands = [operation.operands[i] for i in _promoted_positions(operation)]
    return bool(operands) and all(
        isinstance(v, Array) and v.dtypes and all(DTYPES[d].kind in "biu" for d in v.dtypes) for v in operands)


def _mixed_signedness(values: list[Array]) -> bool:
    return {DTYPES[d].kind for v in values for d in v.dtypes} == {"u", "i"}


def _stays_on_host(leak: _Leak, module: Module) -> bool:
    """The leak widens NumPy data only, and its 64-bit values end written into NumPy arrays (which
    keep their own dtype) without ever reaching a JAX value or a function's result: a host-side
    computation, such as a table filled slice by slice (evosax's positional encoding)."""
    if leak.returns or any(_library(place.operation.result) is Library.JAX for place in leak.widens):
        return False
    handle, stored = leak.source.handle, False
    for operation in module.operations:
        values = (*operation.operands, operation.result)
        if any(_library(v) is Library.JAX and _source_handle(v) is handle for v in values):
            return False
        if operation.kind == "store" and len(operation.operands) == 2:
            target, value = operation.operands
            stored = stored or (_source_handle(value) is handle and _library(target) is Library.NUMPY_ARRAY)
    return stored


def _cast_back(leak: _Leak, module: Module, syntax) -> bool:
    """The data the leak widens never leaves the one function it is widened in: that function
    returns, and every value it returns is narrower whenever its inputs are (interpax's FFT shift
    runs in complex128 and returns ``out.astype(f.dtype)``), and nothing it stores holds the 64
    bits.  Its callers see no 64-bit value; the double precision inside is the code's choice."""
    if leak.returns or not leak.widens:
        return False
    functions = {syntax.function_of(place.operation.node) for place in leak.widens}
    function = functions.pop() if len(functions) == 1 else None
    if function is None:
        return False
    returned = [r.value for r in module.returns if syntax.function_of(r.node) is function]
    stores = [op for op in module.operations if op.kind == "store" and syntax.function_of(op.node) is function]
    return bool(returned) and all(_narrow_whenever_inputs_are(v) for v in returned) and \
        not any(_source_handle(v) is leak.source.handle for op in stores for v in op.operands)  # fmt: skip


def _narrow_whenever_inputs_are(value: Value) -> bool:
    """``value`` holds no 64-bit data when its array inputs all hold float32 (bfloat16, float16)
    JAX arrays, the question PRM001 asks of a function; unknown values may."""
    if isinstance(value, Items):
        return all(_narrow_whenever_inputs_are(item) for item in value.items)
    if isinstance(value, Array):
        return value.library is Library.PYTHON or (value.exact and not is_64bit(value.dtype))
    if type(value) is not Symbolic:
        return False
    # Members where the code raises say nothing (a PRNG key given float32 data); one must not.
    outcomes = [outcome for _, outcome in uniform_instances((), value, _UNIFORM) if not isinstance(outcome, Refusal)]
    return bool(outcomes) and all(type(o) is not Symbolic and _narrow_whenever_inputs_are(o) for o in outcomes)


def _library(value: Value) -> Library | None:
    return value.library if isinstance(value, Array) else None


def _source_handle(value: Value) -> object:
    return value.source.handle if isinstance(value, Array) and value.source is not None else None


def _returned_leaks(returned: Returned) -> list[Array]:
    """The 64-bit values with a source that a function returns while every array input it got
    was narrower data (and it got at least one)."""
    inputs = [value for name, value in returned.inputs if name not in _PARAMETERS_NOT_INPUTS]
    arrays = [v for v in inputs if not (isinstance(v, Array) and v.library is Library.PYTHON)]
    if not arrays or not all(_narrower_data(v) for v in arrays):
        return []
    values = returned.value.items if isinstance(returned.value, Items) else (returned.value,)
    return [v for v in values if isinstance(v, Array) and v.exact and is_64bit(v.dtype) and v.source is not None
            and DTYPES[v.dtype].kind not in "iu"]  # an int64 index or count: exact, as for _integers_only


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _TEXT else text[: _TEXT - 3] + "..."


def _widens_text(syntax, place: _Widening) -> str:
    nodes = syntax.operand_nodes(place.operation)
    narrow_text = syntax.text(nodes[place.index]) if place.index is not None and place.index < len(nodes) else ""
    named = f" `{_short(narrow_text)}`" if narrow_text else ""
    line = syntax.line(place.operation.node)
    if place.every_member:
        return (f"widens{named or ' its operand'} to {place.dtype} at line {line} whenever it is narrower "
                f"(e.g. {place.narrow.describe()} {place.narrow.library.value})")  # fmt: skip
    return f"widens {place.narrow.describe()}{named} to {place.dtype} at line {line}"


def _returns_text(syntax, returned: Returned, value: Array) -> str:
    inputs = ", ".join(f"{name}: {v.describe()}" for name, v in returned.inputs
                       if isinstance(v, Array) and v.library is not Library.PYTHON)  # fmt: skip
    return (f"leaves its function as {value.describe()} at line {syntax.line(returned.node)} while the array "
            f"inputs are {inputs}")  # fmt: skip


# --- the fix ---------------------------------------------------------------------------------
def _python_scalars_fix(leak: _Leak, syntax) -> Fix | None:
    """The source, a NumPy scalar made from a Python scalar, written as that Python scalar, if
    every place it widens then keeps its narrower dtype."""
    handle = leak.source.handle
    producer = syntax.operation_at(handle)
    rewrite = _as_python_scalar(producer)
    if rewrite is None:
        return None
    code, argument, imports, kind = rewrite
    replacement = python_scalar(kind)
    narrowed = set()
    for place in leak.widens:
        fixed = exact(_again(syntax, place.operation, producer, replacement))
        if fixed is None or fixed.dtype not in place.narrow.dtypes:
            return None
        narrowed.add(fixed.dtype)
    for returned, _ in leak.returns:  # a returned expression the engine can evaluate again
        operation = syntax.operation_at(returned.node)
        fixed = exact(_again(syntax, operation, producer, replacement)) if operation is not None else None
        if fixed is None or is_64bit(fixed.dtype):
            return None
        narrowed.add(fixed.dtype)
    return Fix(f"Use a Python scalar so the result stays {'|'.join(sorted(narrowed))} (changes its dtype with "
               "x64 on)", (Edit(handle, code, (argument,)),), safe=False, imports=imports)  # fmt: skip


def _again(syntax, operation: Operation, producer: Operation, replacement: Array, depth: int = 0) -> Value | None:
    """``operation``'s result were ``producer``'s value ``replacement``: its operands written
    as that value, or computed from it by operations the engine can evaluate again."""
    nodes = syntax.operand_nodes(operation)
    if len(nodes) != len(operation.operands) or depth > 8:
        return None
    replacements = {}
    for i, (node, value) in enumerate(zip(nodes, operation.operands)):
        if not isinstance(value, Array) or value.source is None or value.source.handle is not producer.node:
            continue
        if node is producer.node or value == producer.result:
            replacements[i] = replacement
            continue
        inner = syntax.operation_at(node)
        computed = _again(syntax, inner, producer, replacement, depth + 1) if inner is not None else None
        if computed is None:
            return None
        replacements[i] = computed
    return reevaluate(operation, replacements, operation.ctx) if replacements else None


def _as_python_scalar(producer: Operation | None) -> tuple[str, object, tuple[str, ...], str] | None:
    """``np.sqrt(n)`` as ``math.sqrt(n)``, ``np.float64(c)`` as ``float(c)`` (``np.float64(0.5)``
    as ``0.5``), for a Python int or float ``n`` or ``c``: the code, the argument's node, the
    imports and the kind of Python scalar it makes."""
    call = producer.call if producer is not None and producer.kind == "call" else None
    result = exact(producer.result) if call else None
    if result is None or result.library is not Library.NUMPY_SCALAR or not call.fn.params:
        return None
    param = call.fn.params[0]
    argument = exact(call.bound.get(param))
    if argument is None or argument.library is not Library.PYTHON or argument.dtype not in ("int64", "float64"):
        return None  # bools and complex numbers have no same-valued math counterpart
    node = producer.syntax.argument_node(producer, param)
    if node is None or not call.name.startswith("numpy."):
        return None
    if call.fn.rule == "scalar_type" and call.short in _BUILTIN:
        kind = _BUILTIN[call.short]
        same = type(argument.literal).__name__ == kind  # a literal of that type already
        return (producer.syntax.text(node) if same else f"{kind}({{0}})"), node, (), kind
    if call.short not in _MATH or set(call.bound) != {param}:
        return None
    return f"math.{_MATH[call.short]}({{0}})", node, ("import math",), "float"

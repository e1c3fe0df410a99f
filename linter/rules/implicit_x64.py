"""PRM001 implicit-x64: a 64-bit value nobody asked for that widens narrower data, reported at
its source with the places where it widens."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from promolint.dtypes import DTYPES, is_64bit
from promolint.engine.records import Module, Operation, Returned
from promolint.engine.values import Array, Items, Library, Value, ValueSource, python_scalar
from promolint.rules.base import Edit, Example, Finding, Fix, Related, Rule, exact
from promolint.rules.rewrites import reevaluate

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
_TEXT = 40  # longest code quoted in a message
_RELATED = 8  # places listed per source


class ImplicitX64(Rule):
    summary = (
        "Flags 64-bit values nobody asked for that widen narrower data. A NumPy float64 default, a "
        "strong NumPy scalar such as `np.log(2)`, a Python float meeting x64's int64, or NumPy's "
        "int32 with float32 is reported where it meets strong float32 (or narrower) operands and "
        "gives a 64-bit result, or leaves a function while the function's array inputs were "
        "narrower: at its source, with each place it widens as a related location."
    )
    why = """
        64-bit arithmetic is slow on GPUs and unsupported on TPUs. NumPy promotes mixed-kind operands
        to 64 bits, and with `jax_enable_x64` a float64 value leaking into JAX code (a NumPy default,
        `np.sqrt(n)`, a strong float64 built from a Python float and `jnp.arange`) silently turns
        float32 models into float64 ones: twice the memory, a fraction of the speed, and no error
        anywhere. An explicit `dtype=np.float32` does not protect an array from a strong NumPy
        scalar: `np.arange(n, dtype=np.float32) * np.log(2.0)` is float64 under NumPy 2. Weak
        64-bit values (`jnp.arange(n) - 0.5` under x64) adopt the dtype of the strong operand they
        meet and widen nothing; values that stay on the host (NumPy counts, sizes, in-place updates,
        which keep their target's dtype) are not reported either.
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
    )
    valid = (
        # uint32 with int32 is int64 under x64: PRM020 (mixed signedness) reports it.
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.uint32) + jnp.ones(3, jnp.int32)
        """, x64="on"),
        # A parameter nothing types may be float64 itself: the scalar widens nothing for sure.
        Example("""
            import numpy as np
            def shift(x):
                return x + np.float64(1)
        """, x64="on"),
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
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        return self.check_module(Module([operation]))

    def check_module(self, module: Module) -> Iterator[Finding]:
        syntax = next((op.syntax for op in module.operations if op.syntax is not None), None)
        if syntax is None:
            return
        leaks: dict[int, _Leak] = {}  # by the source's handle: one finding per source
        for operation in module.operations:
            widened = _widening(operation)
            if widened is not None:
                source, narrow = widened
                leaks.setdefault(id(source.handle), _Leak(source)).widens.append((operation, narrow))
        for returned in module.returns:
            for value in _returned_leaks(returned):
                leaks.setdefault(id(value.source.handle), _Leak(value.source)).returns.append((returned, value))
        for leak in leaks.values():
            yield self._finding(leak, syntax)

    def _finding(self, leak: _Leak, syntax) -> Finding:
        source = leak.source
        text, line = _short(syntax.text(source.handle)), syntax.line(source.handle)
        places = [(operation.node, _widens_text(syntax, operation, narrow)) for operation, narrow in leak.widens
                  if operation.node is not source.handle]  # fmt: skip
        places += [(returned.node, _returns_text(syntax, returned, value)) for returned, value in leak.returns]
        producer = syntax.operation_at(source.handle)
        if len(places) < len(leak.widens) + len(leak.returns):  # the 64 bits are made where they widen data
            message = f"`{text}` {source.what}, which no operand asked for"
            message += f"; it also {places[0][1]}" if places else ""
            message += ". Give the operands one dtype, e.g. `.astype(np.float32)`."
        else:
            more = f" (and {len(places) - 1} more {'place' if len(places) == 2 else 'places'})" if len(places) > 1 else ""
            message = (f"`{text}` {source.what}, which no operand asked for: from here it {places[0][1]}{more}. "
                       f"{_advice(producer)}")  # fmt: skip
        related = tuple(Related(node, f"{place} (64 bits from `{text}`, line {line})") for node, place in places)
        return Finding(self.code, message, source.handle, _python_scalars_fix(leak, syntax), related[:_RELATED])


def _advice(producer: Operation | None) -> str:
    result = exact(producer.result) if producer is not None else None
    library = result.library if result is not None else Library.JAX
    if library is Library.NUMPY_SCALAR:
        return "Use a Python scalar (`math.sqrt(n)`, `float(c)`), or cast it to the narrower dtype."
    if library is Library.NUMPY_ARRAY:
        return "Give it the narrower dtype (`np.zeros(n, np.float32)`), or cast it."
    return "Cast it to the narrower dtype (`.astype(jnp.float32)`), or compute it from narrower operands."


@dataclass
class _Leak:
    source: ValueSource
    widens: list[tuple[Operation, Array]] = field(default_factory=list)
    returns: list[tuple[Returned, Array]] = field(default_factory=list)


def _narrower_data(value: Value) -> bool:
    """A strong NumPy or JAX value of a known dtype narrower than 64 bits, not bool."""
    if not (isinstance(value, Array) and value.library is not Library.PYTHON and value.weak is False):
        return False
    return bool(value.dtypes) and all(not is_64bit(d) and DTYPES[d].kind != "b" for d in value.dtypes)


def _arrays(operation: Operation) -> list[Value]:
    if operation.kind == "call" and operation.call is not None:
        return list(operation.call.arrays())
    return list(operation.operands)


def _widening(operation: Operation) -> tuple[ValueSource, Array] | None:
    """Where a strong 64-bit value with a source meets strong narrower data and the result is
    64-bit: the source and the narrower operand."""
    if operation.kind not in ("binop", "augassign", "call"):
        return None
    result = exact(operation.result)
    if result is None or result.weak or not is_64bit(result.dtype) or result.source is None:
        return None
    if operation.kind == "call" and (operation.call is None or operation.call.fn.rule not in _PROMOTING_CALLS):
        return None
    arrays = _arrays(operation)
    narrow = [v for v in arrays if _narrower_data(v)]
    if not narrow:
        return None
    if result.source.handle is operation.node and len(narrow) < 2:
        return None  # made here from one narrower operand and a Python scalar: a kind change, not a leak
    if result.source.handle is operation.node and result.library is Library.JAX and _mixed_signedness(narrow):
        return None  # JAX's uint32 with a signed integer: PRM020 reports it, in both x64 modes
    return result.source, narrow[0]


def _mixed_signedness(values: list[Array]) -> bool:
    return {DTYPES[d].kind for v in values for d in v.dtypes} == {"u", "i"}


def _returned_leaks(returned: Returned) -> list[Array]:
    """The 64-bit values with a source that a function returns while every array input it got
    was narrower data (and it got at least one)."""
    inputs = [value for name, value in returned.inputs if name not in _PARAMETERS_NOT_INPUTS]
    arrays = [v for v in inputs if not (isinstance(v, Array) and v.library is Library.PYTHON)]
    if not arrays or not all(_narrower_data(v) for v in arrays):
        return []
    values = returned.value.items if isinstance(returned.value, Items) else (returned.value,)
    return [v for v in values if isinstance(v, Array) and v.exact and is_64bit(v.dtype) and v.source is not None]


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _TEXT else text[: _TEXT - 3] + "..."


def _widens_text(syntax, operation: Operation, narrow: Array) -> str:
    nodes = syntax.operand_nodes(operation)
    narrow_text = next((syntax.text(node) for node, value in zip(nodes, operation.operands) if value is narrow), "")
    named = f" `{_short(narrow_text)}`" if narrow_text else ""
    return (f"widens {narrow.describe()}{named} to {exact(operation.result).dtype} at line "
            f"{syntax.line(operation.node)}")  # fmt: skip


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
    for operation, narrow in leak.widens:
        fixed = exact(_again(syntax, operation, producer, replacement))
        if fixed is None or fixed.dtype not in narrow.dtypes:
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

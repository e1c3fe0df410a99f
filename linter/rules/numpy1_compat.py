"""PRM024 numpy1-compat: where NumPy 1 and NumPy 2 give another dtype, or only NumPy 2 raises
(opt-in, ``--numpy1-compat``)."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.core.dtypes import DTYPES, NUMPY_NATIVE
from promolint.engine.model import ARITHMETIC, NUMPY_TRUE_DIVIDE, Operation, OperationKind, in_place, int_bounds
from promolint.engine.values import Array, Library, Refusal, Value
from promolint.rules.base import Example, Finding, Rule, exact
from promolint.rules.shared.integers import wrapped
from promolint.systems.base import Promoted
from promolint.systems.numpy1 import Input, python_input, resolve, uses_values

# Values that stand for a scalar whose value the engine does not know: a small one, and the
# largest its dtype holds (value-based casting gives the narrowest dtype for the first).
_SMALL = {"b": True, "u": 1, "i": 1, "f": 1.0, "c": 1j}
_LARGE_FLOAT = {"float16": 65000.0, "float32": 3.4e38, "float64": 1e300}
_ARITHMETIC = ARITHMETIC - {"@"}  # matmul takes no scalars in NumPy 1 either
_PROMOTING_CALLS = frozenset({"promote", "where"})
# The largest value of each dtype of a kind, narrowest first: where value-based casting changes.
_LADDERS = {
    "i": [("uint8", 255), ("int16", 32767), ("uint16", 65535), ("int32", 2**31 - 1), ("uint32", 2**32 - 1),
          ("int64", 2**63 - 1)],
    "f": [("float16", 64999.0), ("float32", 3.3e38), ("float64", 1e300)],
    "c": [("complex64", 3.3e38j), ("complex128", 1e300j)],
    "b": [("bool", True)],
}


class Numpy1Compat(Rule):
    summary = (
        "With `--numpy1-compat` (or `numpy1-compat = true`, or selecting `PRM024`): flags NumPy "
        "operations whose dtype differs between NumPy 1.x and NumPy 2, or that raise OverflowError "
        "only under NumPy 2, where the difference enters (NEP 50 replaced value-based casting)."
    )
    why = """
        NumPy 1 cast a scalar (a Python scalar, a NumPy scalar or a 0-d array) by its value
        beside arrays, and by its dtype among scalars, a Python int counting as int64 and a
        Python float as float64. NumPy 2 (NEP 50) does neither: `np.float32(3) + 3.0` was
        float64 and is float32, `float32_array * np.float64(0.5)` was float32 and is float64,
        `a = 0.0; a += np.float32(1)` ends a float32, and `np.uint8(1) + 300` was int64 301 and
        raises OverflowError, as do `uint8_array + 300` (uint16 in NumPy 1) and `uint8_array[i]
        = 638` (wrapped to 126 with a DeprecationWarning in NumPy 1.24 to 1.26). ruff's NPY201
        renames the removed APIs; this report lists where results change, for a migration or
        for code that must run under both.
    """
    fix_safety = """
        No automatic fix is offered: which of the two dtypes is meant is for the author to say.
        Write it explicitly (`np.float32(3) + np.float32(3.0)`, `x.astype(np.float32) * s`) so
        both versions agree.
    """
    invalid = (
        Example("""
            import numpy as np
            x = np.float32(3) + 3.0
        """),
        Example("""
            import numpy as np
            y = np.uint8(1) + 300
        """),
        Example("""
            import numpy as np
            a = 0.0
            a += np.float32(1)
        """),
        Example("""
            import numpy as np
            scale = np.float64(0.5)
            z = np.ones(3, np.float32) * scale
        """),
    )
    valid = (
        Example("""
            import numpy as np
            x = np.float32(3) + np.float32(3.0)
        """),
        Example("""
            import numpy as np
            z = np.ones(3, np.float32) * 0.5
        """),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        if operation.kind == OperationKind.STORE:
            yield from self._store(operation)
        elif (operation.kind == OperationKind.CALL and operation.call is not None
              and operation.call.fn.semantics == "scalar_type"):
            yield from self._conversion(operation)
        elif (operation.kind in (OperationKind.BINOP, OperationKind.AUGASSIGN) and operation.op in _ARITHMETIC) or (
                operation.kind == OperationKind.CALL and operation.call is not None
                and operation.call.fn.library is Library.NUMPY_ARRAY
                and operation.call.fn.semantics in _PROMOTING_CALLS):  # fmt: skip
            yield from self._promotion(operation)

    def _promotion(self, operation: Operation) -> Iterator[Finding]:
        values = operation.call.arrays() if operation.kind == OperationKind.CALL else list(operation.operands)
        if len(values) < 2 or not all(isinstance(v, Array) and v.exact for v in values):
            return
        result = operation.result
        if isinstance(result, Array) and result.library in (Library.PYTHON, Library.JAX):
            return  # Python (1j + np.float64(1)) or JAX computes it, not NumPy
        inputs = [_input(v) for v in values]
        now = _numpy2(result)
        if None in inputs or now is None or any(i.dtype not in NUMPY_NATIVE for i in inputs):
            return
        small, large = (_numpy1(operation, [_fill(i, size) for i in inputs], values) for size in ("small", "large"))
        if small is None or small[0] == now:
            return
        unknown = next((n for n, i in enumerate(inputs) if i.scalar and i.value is None), None)
        condition = ""
        if unknown is not None and uses_values(inputs) and (large is None or large[0] == now):
            condition = f" when the {_scalar(values[unknown])}'s value fits {_fits(operation, inputs, values, unknown)}"
        verb = "" if now.startswith("raises") else "gives "
        yield self.finding(operation, f"NumPy 2 {verb}{now}; NumPy 1 gave {small[1]}{condition} "
                           f"({_reason(values, inputs)}){_wraps(operation, values, now)}. Write the dtype "
                           "explicitly if the code must behave alike under NumPy 1 and 2.")  # fmt: skip

    def _store(self, operation: Operation) -> Iterator[Finding]:
        element, value = operation.operands
        result = operation.result
        if not (isinstance(result, Refusal) and result.error == "OverflowError" and isinstance(element, Array)
                and element.library.is_numpy and isinstance(value, Array) and type(value.literal) is int):  # fmt: skip
            return
        yield self.finding(operation, f"NumPy 2 raises OverflowError ({result.message}); NumPy 1.24 to 1.26 "
                           f"stored {wrapped(value.literal, element.dtype)} with a DeprecationWarning, older "
                           "versions silently. Make the value fit the array's dtype.")  # fmt: skip

    def _conversion(self, operation: Operation) -> Iterator[Finding]:
        result = operation.result
        source = operation.call.bound.get("x")
        if not (isinstance(result, Refusal) and result.error == "OverflowError" and operation.call.fn.library.is_numpy
                and isinstance(source, Array) and type(source.literal) is int):  # fmt: skip
            return
        dtype = operation.call.requested_dtype().name
        yield self.finding(operation, f"NumPy 2 raises OverflowError ({result.message}); NumPy 1.24 to 1.26 gave "
                           f"{wrapped(source.literal, dtype)} with a DeprecationWarning, older versions silently. "
                           "Make the value fit the dtype.")  # fmt: skip


def _numpy1(operation: Operation, inputs: list[Input], values: list[Array]) -> tuple[str, str, str] | None:
    """NumPy 1's outcome: what compares with NumPy 2's (a dtype, ``raises ...``), how to say it,
    and the dtype computed."""
    if operation.op == "**" and values[0].library is Library.NUMPY_ARRAY and values[1].literal == 2:
        return None  # ndarray.__pow__'s square fast path: the base alone, in both versions
    try:
        result = resolve(inputs)
    except ValueError:
        return None
    if not isinstance(result, Promoted) or result.weak:
        return None
    dtype = NUMPY_TRUE_DIVIDE.get(result.dtype, result.dtype) if operation.op == "/" else result.dtype
    target = values[0]
    if operation.kind == OperationKind.AUGASSIGN and target.library is Library.NUMPY_ARRAY:
        stored = in_place(target, Array(frozenset([dtype]), Library.NUMPY_ARRAY))
        if isinstance(stored, Refusal):
            return f"raises {stored.error}", f"{dtype}, which raises {stored.error} stored back", dtype
        cast = f"{dtype}, cast back to {target.dtype}" if dtype != target.dtype else dtype
        return target.dtype, cast, dtype
    return dtype, dtype, dtype


def _input(value: Array) -> Input | None:
    """How NumPy 1 sees an operand: Python scalars by their value, NumPy scalars and 0-d arrays
    as scalars (of their value, when known), other arrays as arrays; None when the rank is unknown."""
    if value.library is Library.PYTHON:
        return python_input(value.literal) if value.literal is not None else Input(value.dtype, True, None, True)
    if value.rank is None:
        return None
    literal = value.literal if type(value.literal) in (bool, int, float, complex) else None
    return Input(value.dtype, scalar=value.rank == 0, value=literal)


def _fill(one: Input, size: str) -> Input:
    """A scalar of unknown value given a ``small`` one or the ``large``st its dtype holds."""
    if not one.scalar or one.value is not None:
        return one
    kind = DTYPES[one.dtype].kind
    if size == "small":
        return Input(one.dtype, True, _SMALL[kind], one.python)
    if kind in "iu":
        return Input(one.dtype, True, int_bounds(one.dtype)[1], one.python)
    if kind == "f":
        return Input(one.dtype, True, _LARGE_FLOAT[one.dtype], one.python)
    return Input(one.dtype, True, complex(0, 1e300) if kind == "c" else True, one.python)


def _numpy2(result: Value) -> str | None:
    if isinstance(result, Refusal):
        return f"raises {result.error}" if result.error == "OverflowError" else None
    single = exact(result)
    return single.dtype if single is not None else None


def _scalar(value: Array) -> str:
    if value.library is Library.PYTHON:
        return f"Python {value.describe().split()[-1]}"
    return f"{value.dtype} scalar" if value.library is Library.NUMPY_SCALAR else f"0-d {value.dtype} array"


def _fits(operation: Operation, inputs: list[Input], values: list[Array], unknown: int) -> str:
    """The widest dtype of the unknown scalar's kind whose values still give NumPy 1's result
    for a small value: the condition under which NumPy 1 and 2 differ."""
    small = _numpy1(operation, [_fill(i, "small") for i in inputs], values)
    kind = DTYPES[inputs[unknown].dtype].kind
    ladder = _LADDERS["i" if kind == "u" else kind]
    fits = ladder[0][0]
    for dtype, value in ladder:
        trial = [_fill(i, "small") if n != unknown else Input(i.dtype, True, value, i.python)
                 for n, i in enumerate(inputs)]  # fmt: skip
        if _numpy1(operation, trial, values) != small:
            break
        fits = dtype
    return fits


def _reason(values: list[Array], inputs: list[Input]) -> str:
    """Why NumPy 1 differed: value-based casting of a scalar, or scalars promoted by dtype."""
    if uses_values(inputs):
        scalar = next(v for v, i in zip(values, inputs) if i.scalar)
        written = f" {scalar.literal!r}" if scalar.library is Library.PYTHON and scalar.literal is not None else ""
        return f"it cast the {_scalar(scalar)}{written} by its value"
    python = next((v for v in values if v.library is Library.PYTHON), None)
    if python is not None:
        return f"among scalars it counted a {python.describe()} as {python.dtype}"
    return "among scalars it promoted their dtypes"


def _wraps(operation: Operation, values: list[Array], now: str) -> str:
    """The value NumPy 2 now wraps, when both are known: ``np.uint8(200) + 128`` gives 72."""
    literals = [v.literal for v in values]
    if (operation.kind not in (OperationKind.BINOP, OperationKind.AUGASSIGN) or operation.op not in ("+", "-", "*")
            or now not in DTYPES):
        return ""
    if not all(type(v) in (int, bool) for v in literals) or int_bounds(now) is None:
        return ""
    first, second = (int(v) for v in literals)
    exact_value = first + second if operation.op == "+" else first - second if operation.op == "-" else first * second
    low, high = int_bounds(now)
    if low <= exact_value <= high:
        return ""
    return f"; {exact_value} now wraps to {wrapped(exact_value, now)}"

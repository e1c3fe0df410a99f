"""PRM006 literal-overflow: Python int literals outside the dtype they are converted to."""

from __future__ import annotations

from promolint.engine.model import OperationKind, int_bounds
from promolint.engine.values import Array, Items, Library, Refusal
from promolint.rules.base import Example, Rule, exact
from promolint.rules.shared.integers import wrapped


# Calls that make an array of a dtype given (or another array's) and fill it with a value.
_FILLS = frozenset({"full", "like"})


def _value_operands(operation) -> tuple:
    """The operands converted to the result's dtype: a catalogued call's array parameters, not
    the shapes, axes and indices beside them (``x.reshape(2, -1)``, ``jnp.roll(x, -1)``); the
    fill value of ``full`` and ``full_like``."""
    call = operation.call
    if operation.kind == OperationKind.CALL and call is not None and call.fn.semantics in _FILLS:
        return (call.bound["fill_value"],) if "fill_value" in call.bound else ()
    if operation.kind != OperationKind.CALL or call is None or not call.fn.arrays:
        return operation.operands
    values = (call.bound[p] for p in call.fn.arrays if p in call.bound)
    return tuple(v for value in values for v in (value.items if isinstance(value, Items) else (value,)))


def _converts_silently(operation, target: Array) -> str | None:
    """Who converts an out-of-range Python int to ``target`` without raising: JAX always (its
    conversion wraps), NumPy's ``where`` before NumPy 2.5 (measured on the installed NumPy:
    ``np.where(mask, -1, uint8_array)`` holds 255); None where the conversion raises instead
    (NumPy's ufuncs and ``full``: the engine gives those their OverflowError)."""
    if target.library is Library.JAX:
        return "JAX"
    call = operation.call
    if (call is not None and call.fn.semantics == "where" and target.library is not Library.PYTHON
            and not operation.ctx.numpy.facts.where_checks_python_ints):  # fmt: skip
        return f"NumPy {operation.ctx.numpy.facts.numpy_version}'s where"
    return None


class LiteralOverflow(Rule):
    summary = (
        "Flags Python int literals outside the range of the dtype they are weakly converted to: JAX "
        "wraps them silently (in `jnp.full` and `jnp.full_like` too), NumPy raises OverflowError "
        "(`np.full` too) but `np.where` wraps them before NumPy 2.5, and JAX with x64 off raises for "
        "literals outside int32."
    )
    why = """
        A Python int beside an int8 array becomes an int8: in JAX `int8_array + 1000` is `-23` per
        element with no warning, and `int8_array == 1000` is silently all False. NumPy raises
        `OverflowError: Python integer 1000 out of bounds for int8` (in `int8_array += 1000` and
        `uint8_array[i, j] = 638` too), and JAX with x64 off raises `OverflowError` for any
        literal outside int32, even beside float32 arrays. `np.where(mask, -1, uint8_array)`
        holds 255 where the mask holds before NumPy 2.5 (NumPy issue 27006), and
        `jnp.full(n, 300, jnp.uint8)` holds 44. A bound such as `np.iinfo(np.int8).min` is a
        Python int too.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.int8) + 1000
        """),
        Example("""
            import numpy as np
            x = np.ones(3, np.uint8) + (-1)
        """),
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32) + 2**40
        """),
        Example("""
            import jax.numpy as jnp
            mask = jnp.ones(3, jnp.int8) == 1000
        """),
        Example("""
            import numpy as np
            image = np.zeros((2, 2), np.uint8)
            image[0, 1] = 638
        """),
        Example("""
            import numpy as np
            swath = np.zeros(4, np.uint8)
            swath[0] = np.iinfo(np.int8).min
        """),
        Example("""
            import jax.numpy as jnp
            levels = jnp.full(3, 300, jnp.uint8)
        """),
        # nes-py 8.2.1's _rom.py: the iNES header's bank counts are uint8, and so are their
        # products with Python ints; `make` raises here for every ROM
        Example("""
            import numpy as np

            class ROM:
                def __init__(self, rom_path):
                    self.raw_data = np.fromfile(rom_path, dtype="uint8")

                @property
                def prg_rom_size(self):
                    return 16 * self.raw_data[:16][4]

                @property
                def prg_rom_stop(self):
                    return 16 + self.prg_rom_size * 2**10
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.int8).astype(jnp.int32) + 1000
        """),
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32) + 2**40
        """, x64="on"),
        # the shape is no fill value
        Example("""
            import jax.numpy as jnp
            ones = jnp.full((1000,), 1, jnp.uint8)
        """),
        # shapes, shifts and indices are not converted to the array's dtype (xminigrid's
        # `jnp.array(tiles, dtype=jnp.uint8).reshape(13, 12, -1)`)
        Example("""
            import jax.numpy as jnp
            tiles = jnp.zeros(6, jnp.uint8).reshape(2, -1)
            last = jnp.roll(tiles, -1) + jnp.take(tiles, -1)
        """),
    )

    def check(self, operation):
        result = operation.result
        if isinstance(result, Refusal) and result.error == "OverflowError":
            yield self.finding(operation, f"OverflowError at run time: {result.message}.")
            return
        if operation.kind not in (OperationKind.BINOP, OperationKind.AUGASSIGN, OperationKind.COMPARE,
                                  OperationKind.CALL):
            return
        literals = [v for v in _value_operands(operation) if isinstance(v, Array) and v.library is Library.PYTHON
                    and type(v.literal) is int]  # fmt: skip
        strong = [exact(v) for v in operation.operands if isinstance(v, Array) and v.library is not Library.PYTHON]
        requested = operation.call is not None and operation.call.fn.semantics in _FILLS \
            and operation.call.bound.get("dtype") is not None  # fmt: skip
        if not literals or not (strong or requested) or None in strong:
            return
        # The literal is converted to the promoted dtype; for a comparison, to the array's dtype.
        target = strong[0] if operation.kind == OperationKind.COMPARE else exact(result)
        if target is None or int_bounds(target.dtype) is None:
            return
        converter = _converts_silently(operation, target)
        if converter is None:
            return
        low, high = int_bounds(target.dtype)
        for literal in literals:
            if not low <= literal.literal <= high:
                effect = ("the comparison is always the same" if operation.kind == OperationKind.COMPARE
                          else f"it wraps silently to {wrapped(literal.literal, target.dtype)}")  # fmt: skip
                yield self.finding(operation, f"{literal.literal} does not fit {target.dtype} "
                                   f"[{low}, {high}]; {converter} converts it anyway: {effect}. Cast the array to a "
                                   "wider dtype first.")  # fmt: skip

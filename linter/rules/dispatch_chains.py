"""PRM002 mixed-dispatch and PRM003 numpy-nonassociative: chains whose result depends on how
they are parenthesized."""

from __future__ import annotations

import functools

from promolint.engine import operations
from promolint.engine.values import Array, Library, Value
from promolint.rules.base import Edit, Example, Fix, Rule, exact
from promolint.rules.rewrites import JNP_IMPORT, jax_asarray, same_dtype

_ASSOCIATIVE = {"+", "*", "&", "|", "^"}
_MAX_LEAVES = 6


def bracketings(op: str, leaves: tuple[Value, ...], texts: tuple[str, ...], ctx) -> list[tuple[str, Value]]:
    """Every way to parenthesize ``leaves`` with ``op``, with the value each gives."""

    @functools.cache
    def build(lo: int, hi: int) -> tuple[tuple[str, Value], ...]:
        if hi - lo == 1:
            return ((texts[lo], leaves[lo]),)
        out = []
        for split in range(lo + 1, hi):
            for left_text, left in build(lo, split):
                for right_text, right in build(split, hi):
                    text = f"({left_text} {op} {right_text})"
                    out.append((text, operations.binary(op, left, right, ctx)))
        return tuple(out)

    return [(text[1:-1], value) for text, value in build(0, len(leaves))]


class _ChainRule(Rule):
    def applies(self, libraries: set[Library]) -> bool:
        raise NotImplementedError

    def check(self, operation):
        if operation.kind != "binop" or operation.op not in _ASSOCIATIVE or len(operation.chain) < 3:
            return
        leaves = operation.chain
        if len(leaves) > _MAX_LEAVES or not all(exact(v) for v in leaves) or not exact(operation.result):
            return
        if not self.applies({v.library for v in leaves if isinstance(v, Array)}):
            return
        written = operation.result
        others = [(t, v) for t, v in bracketings(operation.op, leaves, operation.chain_text, operation.ctx)
                  if isinstance(v, Array) and v.exact and (v.dtype, v.weak) != (written.dtype, written.weak)]  # fmt: skip
        if others:
            text, value = others[0]
            yield self.finding(operation, f"this chain gives {written.describe()} as written but `{text}` gives "
                               f"{value.describe()} ({operation.ctx.describe()}): {self.cause}",
                               self.fix(operation))  # fmt: skip

    def fix(self, operation) -> Fix | None:
        return None


class MixedDispatch(_ChainRule):
    code = "PRM002"
    name = "mixed-dispatch"
    cause = "NumPy promotes its own operands first, JAX the rest. Convert NumPy values with jnp.asarray first."
    summary = (
        "Flags chains of NumPy, JAX and Python operands whose dtype or weak flag depends on how the "
        "chain is associated, because NumPy evaluates the NumPy-only part with NumPy's rules and JAX "
        "the rest with its own."
    )
    fix_safety = """
        `promolint check --fix` converts the NumPy operands once, up front, with
        `jnp.asarray(...)`, when every order of the converted chain then gives one dtype. The fix
        is safe when that dtype and weak flag are the ones of the chain as written
        (`jnp.bfloat16(1) + np.uint8(1) + 1.0` stays bfloat16). Otherwise it is unsafe, applied
        only with `--unsafe-fixes`, and its title says how the result changes:
        `np.uint8(1) + 1.0 + jnp.bfloat16(1)` becomes bfloat16 instead of float32.
    """
    why = """
        `np.uint8(1) + 1.0 + jnp.bfloat16(1)` is float32 but `np.uint8(1) + (1.0 + jnp.bfloat16(1))` is
        bfloat16: NumPy first turns `np.uint8(1) + 1.0` into a strong float64, which JAX then promotes
        with bfloat16. A refactoring that reorders terms changes the dtype of the result.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = np.uint8(1) + 1.0 + jnp.bfloat16(1)
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = np.int8(1) + 1.0 + jnp.float16(1)
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = jnp.asarray(np.uint8(1)) + 1.0 + jnp.bfloat16(1)
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            c = np.int16(1) + 1 + jnp.int16(1)
        """),
    )

    def applies(self, libraries):
        return Library.JAX in libraries and len(libraries) > 1

    def fix(self, operation):
        nodes = _chain_nodes(operation) if operation.syntax else ()
        if len(nodes) != len(operation.chain):
            return None
        leaves = tuple(jax_asarray(v, operation.ctx) if v.library.is_numpy else v for v in operation.chain)
        outcomes = [value for _, value in bracketings(operation.op, leaves, operation.chain_text, operation.ctx)]
        fixed = outcomes[0]
        if not all(same_dtype(value, fixed) for value in outcomes):
            return None
        written = operation.result
        title = "Convert the NumPy operands with jnp.asarray first"
        if not same_dtype(fixed, written):
            title += f" (the result becomes {fixed.describe()} instead of {written.describe()})"
        edits = tuple(Edit(node, "jnp.asarray({0})", (node,)) for node, value in zip(nodes, operation.chain)
                      if value.library.is_numpy)  # fmt: skip
        return Fix(title, edits, safe=same_dtype(fixed, written), imports=(JNP_IMPORT,))


class NumpyNonassociative(_ChainRule):
    code = "PRM003"
    name = "numpy-nonassociative"
    cause = "NumPy's promotion table is not associative. Cast to one dtype before combining."
    summary = "Flags pure NumPy chains whose dtype depends on how the chain is associated."
    fix_safety = """
        No automatic fix is offered: which dtype was meant is a choice. Cast the operands to it
        first (`np.float16(a)`, `a.astype(np.float32)`) so every order gives that dtype.
    """
    why = """
        NumPy's promotion is a table, not a lattice: `np.int8(1) + np.uint8(1) + np.float16(1)` is
        float32 (int8 with uint8 gives int16, which needs float32), while
        `np.int8(1) + (np.uint8(1) + np.float16(1))` is float16.
    """
    invalid = (
        Example("""
            import numpy as np
            r = np.int8(1) + np.uint8(1) + np.float16(1)
        """),
    )
    valid = (
        Example("""
            import numpy as np
            r = np.float16(np.int8(1)) + np.float16(np.uint8(1)) + np.float16(1)
        """),
        Example("""
            import numpy as np
            r = np.float32(1) + np.float32(2) + 3.0
        """),
    )

    def applies(self, libraries):
        return Library.JAX not in libraries and bool(libraries & {Library.NUMPY_ARRAY, Library.NUMPY_SCALAR})


def _chain_nodes(operation) -> tuple[object, ...]:
    """The syntax of a chain's leaves, found as the front end built the chain: down the left
    operands while they are the same operator."""
    nodes = operation.syntax.operand_nodes(operation)
    inner = operation.syntax.operation_at(nodes[0]) if len(nodes) == 2 else None
    if inner is not None and inner.kind == "binop" and inner.op == operation.op:
        return _chain_nodes(inner) + nodes[1:]
    return nodes

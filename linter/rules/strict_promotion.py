"""PRM004 strict-promotion: promotions that raise under strict promotion."""

from __future__ import annotations

from dataclasses import replace

from promolint.engine import operations
from promolint.engine.context import X64_BY_USER
from promolint.engine.values import Library, Refusal
from promolint.rules.base import Edit, Example, Fix, Rule, describe_operands, exact
from promolint.rules.rewrites import JNP_IMPORT, jax_cast, jax_dtype, promoted_operands, reevaluate
from promolint.systems.base import Reason


def _strength(weak: bool) -> str:
    return "weak" if weak else "strong"


class StrictPromotion(Rule):
    summary = (
        "Flags implicit promotions that raise TypePromotionError under "
        "`jax_numpy_dtype_promotion='strict'`: where strict mode is active at that point, or "
        "everywhere with `--promotion strict`."
    )
    why = """
        Strict mode allows only a weak scalar of the same or a lower kind beside a typed array: two
        different dtypes, a float literal with an integer array, or any literal with a bool array
        raise. Code that passes in standard mode breaks as soon as a caller enables strict mode.
    """
    fix_safety = """
        `promolint check --fix` migrates the code to strict mode by writing out the casts standard
        mode performs implicitly: each typed operand whose dtype differs from the dtype standard
        promotion meets at becomes `x.astype(jnp.float32)` (a JAX array) or
        `jnp.asarray(v, dtype=jnp.float32)` (a NumPy or Python value); weak Python scalars that
        strict mode accepts stay as they are. The fix is safe when the result keeps standard
        mode's dtype and weak flag. It is unsafe when only the weak flag changes (`int8_array +
        1.0` is a weak float32 in standard mode, a strong one once the array is cast), since a
        strong result promotes differently later; the fix's title says so. Such a cast to the
        default dtype of a kind is spelled `float` (`int`, `complex`), which follows x64 as the
        weak result did.
    """
    invalid = (
        Example("""
            import jax
            import jax.numpy as jnp
            with jax.numpy_dtype_promotion("strict"):
                x = jnp.ones(3, jnp.int8) + 1.0
        """, expected_replacement="""
            import jax
            import jax.numpy as jnp
            with jax.numpy_dtype_promotion("strict"):
                x = jnp.ones(3, jnp.int8).astype(float) + 1.0
        """),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.bfloat16) + jnp.ones(3, jnp.float16)
        """, promotion="strict", expected_replacement="""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.bfloat16).astype(jnp.float32) + jnp.ones(3, jnp.float16).astype(jnp.float32)
        """),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            with jax.numpy_dtype_promotion("strict"):
                x = jnp.ones(3, jnp.int8).astype(jnp.float32) + 1.0
        """),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.bfloat16) + jnp.ones(3, jnp.float16)
        """),
    )

    def check(self, operation):
        result = operation.result
        if isinstance(result, Refusal) and result.reason == Reason.STRICT.value:
            yield self.finding(operation, f"TypePromotionError under strict promotion: {describe_operands(operation)} have "
                               "no implicit promotion path. Cast explicitly, e.g. `.astype(...)`.",
                               self._fix(operation))  # fmt: skip

    @staticmethod
    def _fix(operation) -> Fix | None:
        """Casts to the dtype the operands meet at in standard mode, if strict mode then gives
        standard mode's result."""
        nodes = operation.syntax.operand_nodes(operation) if operation.syntax else ()
        if len(nodes) != len(operation.operands):
            return None
        standard_ctx = replace(operation.ctx, strict=False)
        standard = exact(reevaluate(operation, {}, standard_ctx))
        positions = promoted_operands(operation)
        values = [exact(operation.operands[i]) for i in positions]
        if standard is None or not values or None in values:
            return None
        meet = exact(operations.collect(operations.promote(values, Library.JAX, standard_ctx), Library.JAX))
        if meet is None:
            return None
        spelled, ref = jax_dtype(meet.dtype, meet.weak, operation.ctx)
        casts = {i: jax_cast(v, spelled, ref, operation.ctx) for i, v in zip(positions, values)
                 if not v.weak and v.dtype != meet.dtype}  # fmt: skip
        if not casts or (operation.kind == "augassign" and 0 in casts):  # an augmented target cannot be cast
            return None
        fixed = exact(reevaluate(operation, {i: value for i, (_, value) in casts.items()}, operation.ctx))
        if fixed is None or fixed.dtype != standard.dtype:
            return None
        title = f"Cast to {spelled} explicitly, as standard promotion does"
        safe = fixed.weak == standard.weak
        if not safe:
            title += f" (the result becomes {_strength(fixed.weak)}; standard mode's is {_strength(standard.weak)})"
        elif operation.ctx.x64_by != X64_BY_USER and not _same_in_both_modes(operation, standard_ctx, standard):
            safe = False  # a cast writes one dtype; standard promotion gives another with x64 switched
            title += " (unsafe: with x64 switched, standard promotion gives another dtype)"
        edits = tuple(Edit(nodes[i], code, (nodes[i],)) for i, (code, _) in sorted(casts.items()))
        needs_jnp = any("jnp." in code for code, _ in casts.values())
        return Fix(title, edits, safe=safe, imports=(JNP_IMPORT,) if needs_jnp else ())


def _same_in_both_modes(operation, standard_ctx, standard) -> bool:
    """Whether standard promotion of the operands gives the same dtype with x64 switched (the
    operands as this analysis sees them: a 64-bit operand is one the code asked for)."""
    other = exact(reevaluate(operation, {}, replace(standard_ctx, x64=not standard_ctx.x64)))
    return other is not None and other.dtype == standard.dtype

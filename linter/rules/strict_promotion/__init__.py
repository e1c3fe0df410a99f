"""PRM004 strict-promotion: promotions that raise under strict promotion.

The rule is here, with the fix that casts the refused operation's operands; ``calls`` reports it
at the calls of the program's own functions whose body raises for what they pass."""

from __future__ import annotations

from dataclasses import replace

from promolint.engine.context import X64_BY_USER
from promolint.engine.model import OperationKind, as_traced, collect, promote
from promolint.engine.values import Array, Library
from promolint.rules.base import Edit, Example, Fix, OtherMode, Rule, describe_operands, exact
from promolint.rules.shared.rewrites import (
    JNP_IMPORT,
    following_x64,
    jax_cast,
    jax_dtype,
    promoted_operands,
    reevaluate,
)
from promolint.rules.strict_promotion.calls import Calls, refused


def _strength(weak: bool) -> str:
    return "weak" if weak else "strong"


class StrictPromotion(Rule):
    summary = (
        "Flags implicit promotions that raise TypePromotionError under "
        "`jax_numpy_dtype_promotion='strict'`: where strict mode is active at that point, or "
        "everywhere with `--promotion strict`; and calls of the program's own functions whose body "
        "raises so for the arguments the call passes."
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
        weak result did. Where x64 is not pinned, the fix must keep the dtype with x64 switched
        too: `bfloat16_array @ jnp.ones((3, 3))` meets float64 with x64 on, where a cast to
        `jnp.float32` still raises, so the cast is spelled `float` there, which follows x64 as
        the promotion did; where no spelling holds in both modes, the fix is unsafe.

        Inside a function, the cast goes in the function only when every call of it passes the
        operands the same dtypes; otherwise it goes at the calls that raise
        (`dense(acts.astype(jnp.float32), params)`), when the call then raises nowhere and returns
        standard promotion's dtypes. That fix is unsafe when an operation in the function
        changes its dtype (`h = x * 2` computed in float32 instead of bfloat16 before `h @ w`);
        where every placement changes a result, the call is reported without a fix.
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
        # A function called with two combinations of dtypes: a cast inside would change the
        # bfloat16-only call, so the cast goes at the call that raises.
        Example("""
            import jax.numpy as jnp
            def dense(x, w):
                return x @ w
            acts = jnp.ones((2, 3), jnp.bfloat16)
            y = dense(acts, jnp.ones((3, 3), jnp.float32))
            z = dense(acts, acts.T)
        """, x64="off", promotion="strict", expected_replacement="""
            import jax.numpy as jnp
            def dense(x, w):
                return x @ w
            acts = jnp.ones((2, 3), jnp.bfloat16)
            y = dense(acts.astype(jnp.float32), jnp.ones((3, 3), jnp.float32))
            z = dense(acts, acts.T)
        """),
        # `.at[i].set(v)` promotes the update with the array before casting it to the array's
        # dtype (gymnax's bsuite observations): no fix, as the cast belongs on the update.
        Example("""
            import jax.numpy as jnp
            obs = jnp.zeros(3, dtype=jnp.float32)
            obs = obs.at[0].set(jnp.ones((), jnp.int32))
        """, promotion="strict"),
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
        Example("""
            import jax.numpy as jnp
            obs = jnp.zeros(3, dtype=jnp.float32)
            obs = obs.at[0].set(jnp.ones((), jnp.int32).astype(obs.dtype))
        """, promotion="strict"),
        # The branch runs only with x64 on, where `a` may be float64 (fmmax's `solve`): with x64
        # off it never runs, and with x64 on a float64 `a` passes.
        Example("""
            import jax
            import jax.numpy as jnp

            def solve(a: jax.Array, b: jax.Array, force_x64: bool) -> jax.Array:
                if force_x64 and jax.config.read("jax_enable_x64"):
                    a = a.astype(jnp.promote_types(a.dtype, jnp.float64))
                return jnp.linalg.solve(a, b)
        """, x64="off", promotion="strict"),
    )

    def check(self, operation):
        if refused(operation):
            yield self.finding(operation, f"TypePromotionError under strict promotion: {_as_jax_sees(operation)} have "
                               "no implicit promotion path. Cast explicitly, e.g. `.astype(...)`.",
                               self._fix(operation))  # fmt: skip

    def check_module(self, module):
        """Each refused operation, its cast kept only where it suits every call of the function
        around it; then the calls of the program's own functions that raise inside them where
        no such cast does (``promolint.rules.strict_promotion.calls``)."""
        calls = Calls(module)
        fixed, reported = set(), set()
        for operation in module.operations:
            for finding in self.check(operation):
                fix = finding.fix
                if fix is not None and operation.in_function and not calls.same_everywhere(
                        operation, promoted_operands(operation)):  # fmt: skip
                    finding = replace(finding, fix=None)  # other calls pass other dtypes: cast at the calls
                reported.add(id(operation.node))
                if finding.fix is not None:
                    fixed.add(id(operation.node))
                yield finding
        yield from calls.findings(self, fixed, reported)

    @staticmethod
    def _fix(operation) -> Fix | None:
        """Casts to the dtype the operands meet at in standard mode, if strict mode then gives
        standard mode's result (in the other x64 mode too, unless the user pinned one)."""
        nodes = operation.syntax.operand_nodes(operation) if operation.syntax else ()
        if len(nodes) != len(operation.operands):
            return None
        standard_ctx = replace(operation.ctx, strict=False)
        positions = promoted_operands(operation)
        values = [exact(operation.operands[i]) for i in positions]
        if not values or None in values:
            return None
        meet = exact(collect(promote(values, Library.JAX, standard_ctx), Library.JAX))
        if meet is None:
            return None
        cast = tuple(i for i, v in zip(positions, values) if not v.weak and v.dtype != meet.dtype)
        if not cast or (operation.kind == OperationKind.AUGASSIGN and 0 in cast):  # an augmented target cannot be cast
            return None
        spelled, ref = jax_dtype(meet.dtype, meet.weak, operation.ctx)
        fix = _cast_fix(operation, nodes, cast, spelled, ref)
        following = following_x64(meet.dtype, operation.ctx)
        if fix is not None and fix.other_mode is not None and following and following[0] != spelled:
            # `jnp.int32` may hold with x64 on only spelled `int`, as the promotion it replaces follows x64
            alternative = _cast_fix(operation, nodes, cast, *following)
            if alternative is not None and alternative.safe:
                fix = replace(fix, other_mode=replace(fix.other_mode, alternative=alternative))
        return fix


def _cast_fix(operation, nodes, cast: tuple[int, ...], spelled: str, ref) -> Fix | None:
    """The operands at ``cast`` cast to ``spelled``, if strict mode then gives standard mode's dtype."""
    outcome = _with_casts(operation, cast, spelled, ref)
    if outcome is None or outcome[0].dtype != outcome[1].dtype:
        return None
    standard, fixed = outcome
    title = f"Cast to {spelled} explicitly, as standard promotion does"
    safe = fixed.weak == standard.weak
    if not safe:
        title += f" (the result becomes {_strength(fixed.weak)}; standard mode's is {_strength(standard.weak)})"
    codes = {i: jax_cast(operation.operands[i], spelled, ref, operation.ctx)[0] for i in cast}
    edits = tuple(Edit(nodes[i], code, (nodes[i],)) for i, code in sorted(codes.items()))
    needs_jnp = any("jnp." in code for code in codes.values())
    other_mode = None
    if safe and operation.ctx.x64_by != X64_BY_USER:  # the cast writes one dtype; x64 may change the others
        other_mode = OtherMode(not operation.ctx.x64, lambda other: _keeps(other, operation, cast, spelled, ref))
    return Fix(title, edits, safe=safe, imports=(JNP_IMPORT,) if needs_jnp else (), other_mode=other_mode)


def _with_casts(operation, cast: tuple[int, ...], spelled: str, ref) -> tuple[Array, Array] | None:
    """Standard promotion's result of ``operation``, and its result (in its own promotion) with
    the operands at ``cast`` cast to ``spelled``; None where either is not exactly known."""
    standard = exact(reevaluate(operation, {}, replace(operation.ctx, strict=False)))
    values = {i: exact(operation.operands[i]) for i in cast}
    if standard is None or None in values.values():
        return None
    casts = {i: jax_cast(value, spelled, ref, operation.ctx)[1] for i, value in values.items()}
    fixed = exact(reevaluate(operation, casts, operation.ctx))
    return None if fixed is None else (standard, fixed)


def _keeps(other, operation, cast: tuple[int, ...], spelled: str, ref) -> bool:
    """Whether the same casts keep standard promotion's dtype and weak flag in ``other``, the
    operation as the analysis in the other x64 mode sees it (its operands may differ there: a
    float64 under x64 that was a float32)."""
    if other is None or len(other.operands) != len(operation.operands):
        return False
    if any(not isinstance(other.operands[i], Array) or other.operands[i].library is not operation.operands[i].library
           for i in cast):  # fmt: skip
        return False  # the cast would be written otherwise
    outcome = _with_casts(other, cast, spelled, ref)
    return outcome is not None and (outcome[0].dtype, outcome[0].weak) == (outcome[1].dtype, outcome[1].weak)


def _as_jax_sees(operation) -> str:
    """The operands as JAX's TypePromotionError names them: it converts NumPy values first,
    narrowed with x64 off (``int32_array + np.uint64(10)`` is int32 with uint32)."""
    operands = tuple(as_traced(v, operation.ctx) if isinstance(v, Array) and v.library.is_numpy else v
                     for v in operation.operands)  # fmt: skip
    return describe_operands(replace(operation, operands=operands))

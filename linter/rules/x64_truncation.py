"""PRM007 x64-truncation: an explicit 64-bit dtype JAX silently narrows with x64 off."""

from __future__ import annotations

import re

from promolint.core.dtypes import DTYPES, MODULE_DTYPE_ATTRIBUTES, is_64bit, narrow_x32, resolve_string
from promolint.engine.context import X64_BY_USER
from promolint.engine.values import DTypeRef, Library
from promolint.rules.base import Edit, Example, Fix, Rule

_QUOTED = re.compile(r"(?P<quote>'|\")(?P<spelled>[^'\"\\]*)(?P=quote)")
_TYPE_CODE = re.compile(r"(?P<prefix>[<>=|]?[biufc])\d+")
# Catalog rules whose dtype argument names a dtype to describe, not a result to compute:
# `jnp.dtype(jnp.float64)` is float64's dtype object and `jnp.finfo(jnp.float64)` float64's
# limits even with x64 off, without a warning (measured, jax 0.10.2).
_DESCRIBES_DTYPE = frozenset({"dtype_of", "finfo", "iinfo"})


class X64Truncation(Rule):
    summary = (
        "Flags explicit 64-bit dtype requests in JAX where x64 is provably off (`dtype=jnp.float64`, "
        "`jnp.float64(1)`, `.astype(jnp.float64)`): JAX warns and gives the 32-bit dtype. Provably "
        "off means forced by `--x64 off` (or `x64 = \"off\"` in the configuration) or set off by the code."
    )
    why = """
        With `jax_enable_x64` off, JAX truncates every explicitly requested 64-bit dtype to 32 bits
        (a UserWarning by default, a ValueError with `jax_explicit_x64_dtypes='error'`). The code
        reads as float64 but computes in float32. Where nothing says x64 is off (a library that
        leaves the mode to its users, a project that switches x64 on in one of its modules or
        through an environment default, code under `if jax.config.jax_enable_x64:`), the 64 bits
        are asked for on purpose and the rule stays silent; so it does for dtype objects and
        comparisons (`jnp.dtype(jnp.float64)`, `x.dtype in (jnp.int32, jnp.int64)`).
    """
    fix_safety = """
        `promolint check --fix` writes the dtype JAX really uses, spelled as before (`jnp.float64`
        becomes `jnp.float32`, `"float64"` becomes `"float32"`, `"f8"` becomes `"f4"`), with a
        trailing `# promolint: was float64, ...` comment on the line it changes. That keeps the
        dtype only while x64 stays off: the fix is safe where the user pinned x64 off
        (`--x64 off`, `x64 = "off"`), which asserts it for every place the file runs; where only the
        code sets x64 off, a module that imports it may turn x64 on again, and the fix is unsafe.
        If 64 bits were meant, enable x64 instead of applying it.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float64)
        """, x64="off", expected_replacement="""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float32)  # promolint: was float64, which JAX truncates to float32 with x64 off
        """),
        Example("""
            import jax.numpy as jnp
            z = jnp.float64(1)
        """, x64="off", expected_replacement="""
            import jax.numpy as jnp
            z = jnp.float32(1)  # promolint: was float64, which JAX truncates to float32 with x64 off
        """),
        Example("""
            import jax.numpy as jnp
            z = jnp.ones(3).astype("float64")
        """, x64="off", expected_replacement="""
            import jax.numpy as jnp
            z = jnp.ones(3).astype("float32")  # promolint: was float64, which JAX truncates to float32 with x64 off
        """),
        # The code sets x64 off: truncated here, but the fix is unsafe (an importer may turn x64 on).
        Example("""
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", False)
            z = jnp.zeros(3, dtype=jnp.float64)
        """, expected_replacement="""
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", False)
            z = jnp.zeros(3, dtype=jnp.float32)  # promolint: was float64, which JAX truncates to float32 with x64 off
        """),
        # The fix comment goes on the line it changes, not the statement's first line.
        Example("""
            import jax.numpy as jnp
            tolerances = {
                "low": jnp.zeros(3, jnp.float64),
                "high": 1,
            }
        """, x64="off", expected_replacement="""
            import jax.numpy as jnp
            tolerances = {
                "low": jnp.zeros(3, jnp.float32),  # promolint: was float64, which JAX truncates to float32 with x64 off
                "high": 1,
            }
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float32)
        """, x64="off"),
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float64)
        """, x64="on"),
        # Nothing says x64 is off: a library leaves the mode to its users.
        Example("""
            import jax.numpy as jnp
            z = jnp.zeros(3, dtype=jnp.float64)
        """),
        # Code that runs only with x64 on asks for 64 bits on purpose.
        Example("""
            import jax
            import jax.numpy as jnp
            if jax.config.jax_enable_x64:
                z = jnp.zeros(3, dtype=jnp.float64)
        """, x64="off"),
        # ... also where the test holds only with x64 on (a flag and the mode).
        Example("""
            import jax
            import jax.numpy as jnp
            from settings import PRECISE
            if PRECISE and jax.config.jax_enable_x64:
                z = jnp.zeros(3, dtype=jnp.float64)
            if not PRECISE or not jax.config.read("jax_enable_x64"):
                w = jnp.zeros(3, dtype=jnp.float32)
            else:
                w = jnp.zeros(3, dtype=jnp.float64)
        """, x64="off"),
        Example("""
            import jax
            import jax.numpy as jnp
            if not jax.config.read("jax_enable_x64"):
                jax.config.update("jax_enable_x64", True)
            z = jnp.zeros(3, dtype=jnp.float64)
        """),
        Example("""
            import jax.numpy as jnp
            z = jnp.array(1.0, dtype=float)
        """, x64="off"),
        Example("""
            import numpy as np
            z = np.zeros(3, dtype=np.float64)
        """, x64="off"),
        # Dtype objects and their limits request nothing: the fix of this dict once duplicated
        # its key and changed the float32 tolerance.
        Example("""
            import jax.numpy as jnp
            tolerance = {jnp.dtype(jnp.float32): 1e-5, jnp.dtype(jnp.float64): 1e-10}
        """, x64="off"),
        Example("""
            import jax.numpy as jnp
            z = jnp.dtype("float64")
        """, x64="off"),
        Example("""
            import jax.numpy as jnp
            eps = jnp.finfo(jnp.float64).eps
            top = jnp.iinfo(jnp.int64).max
        """, x64="off"),
        Example("""
            import jax.numpy as jnp
            def f(x):
                return x.dtype == jnp.float64 or x.dtype in (jnp.int32, jnp.int64)
        """, x64="off"),
    )

    def check(self, operation):
        call = operation.call
        if call is None or not operation.ctx.x64_off_for_sure or operation.ctx.explicit_x64 == "allow":
            return  # x64 may be on here: the 64 bits may well be meant
        if call.fn.library is not Library.JAX or call.fn.semantics in _DESCRIBES_DTYPE:
            return
        ref = call.requested_dtype()
        if ref is None or ref.builtin or not is_64bit(ref.name):
            return
        yield self.finding(operation, f"{ref.name} requested while x64 is off: JAX truncates it to "
                           f"{narrow_x32(ref.name)} (with a UserWarning). Write {narrow_x32(ref.name)}, or enable "
                           "jax_enable_x64 if 64 bits are needed.", _narrowing_fix(operation, ref))  # fmt: skip


def _narrowing_fix(operation, ref: DTypeRef) -> Fix | None:
    param = next((p for p in ("dtype", "new_dtype") if operation.call.bound.get(p) == ref), None)
    node = operation.syntax.argument_node(operation, param) if operation.syntax and param else None
    spelled = _narrowed_spelling(operation.syntax.text(node), ref) if node is not None else None
    if spelled is None:
        return None
    narrowed = narrow_x32(ref.name)
    pinned = operation.ctx.x64_by == X64_BY_USER  # else an importer may turn x64 on, and 64 bits would be lost
    title = f"Write {narrowed}, the dtype JAX uses with x64 off"
    return Fix(title if pinned else f"{title} (unsafe: the file may also run with x64 on, where {ref.name} holds)",
               (Edit(node, spelled),), safe=pinned,
               note=f"promolint: was {ref.name}, which JAX truncates to {narrowed} with x64 off")  # fmt: skip


def _narrowed_spelling(text: str, ref: DTypeRef) -> str | None:
    """``text`` (a dtype spelled as a module attribute or a string) naming the narrowed dtype in
    the same style; None for other spellings (a bare name, ``x.dtype``)."""
    narrowed = narrow_x32(ref.name)
    quoted = _QUOTED.fullmatch(text)
    if quoted:
        code = _TYPE_CODE.fullmatch(quoted["spelled"])
        spelled = f"{code['prefix']}{DTYPES[narrowed].bits // 8}" if code else narrowed
        return f"{quoted['quote']}{spelled}{quoted['quote']}" if resolve_string(spelled) == narrowed else None
    head, _, attribute = text.rpartition(".")
    attributes = MODULE_DTYPE_ATTRIBUTES.get(ref.module, {})
    if head and attributes.get(attribute) == ref.name and attributes.get(narrowed) == narrowed:
        return f"{head}.{narrowed}"
    return None

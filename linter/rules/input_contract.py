"""PRM028 input-contract: an operation that raises for the float32 arrays a function may be called
with, though it runs for the 64-bit ones (with x64 on) or for another of its inputs' dtypes (under
strict promotion)."""

from __future__ import annotations

from collections.abc import Sequence

from promolint.core.dtypes import CONTRACT_WIDE
from promolint.engine.model import BRANCHES, CARRY, SHAPE, Operation, OperationKind
from promolint.engine.values import Refusal
from promolint.rules.base import Example
from promolint.rules.shared.contract import (Breach, ContractRule, branches_bound_to_the_default, breach,
                                             defaults_in_bodies, wide_operands)
from promolint.rules.shared.through_calls import settled
from promolint.systems.base import Reason

_STRICT = Reason.STRICT.value
_FLOATS = "fc"  # the parameters a strict-mode contract weighs: annotated as float (or complex) arrays


class InputContract(ContractRule):
    summary = (
        "Opt-in: flags operations that raise for a float32 array input (`input-dtypes`) of a function "
        "whose parameters have no dtype in the code: with x64 on, `jax.lax` calls that run for a "
        "float64 input and raise for a float32 one because another operand follows x64's defaults, "
        "and lax loops and conditionals whose body or branches meet the input with such a value; "
        "under strict promotion, promotions that raise for a float32 parameter whatever the other "
        "parameters are, where it is annotated as a float array or fails for bool and int arrays too. "
        "The message names the input."
    )
    why = """
        A library's functions are called with float32 arrays as well as 64-bit ones, whatever its own tests
        pass. `jax.lax` never promotes: `lax.select(mask, y, jnp.zeros(3))` runs for a float64 `y`
        with x64 on and raises TypeError for a float32 one, since `jnp.zeros(3)` follows x64's
        default. A loop is alike: `lax.scan` raises where its body returns a float32 carry as
        float64 (`x + dt * random.normal(key, x.shape)`: the draw follows x64's default), and so
        does `lax.cond` where its branches disagree. Code tested with x64 off, or with x64's own
        defaults throughout, passes until a user with float32 data switches x64 on (jax-gcm, optax
        and interpax users reported such crashes). Under strict promotion, `q * jnp.array([1, -1])`
        raises for every float `q`; where `q` is annotated as a float array (jaxtyping's
        `Float[Array, "2"]`), the failure is the input's whatever the other parameters are.

        Each parameter is weighed alone, as a strong JAX array of each dtype of `input-dtypes`
        (`[tool.promolint]`, default `["float32"]`), with the others unknown: the operation must
        raise whatever they are. Where no parameter alone decides it (`jnp.maximum(red, green)`),
        they are weighed all at once, as a call with float32 data passes them, else all but one
        (a mask, a count), under the same conditions (under strict promotion, every mix of bool,
        int32 and float32 arrays stops the program by then); the message names them. A private
        function the module calls itself is judged by what its calls pass (the other rules
        report those); a public one is its users' too. A parameter annotated with a Python
        scalar type is no array input. Under strict promotion an
        unannotated or `jax.Array` parameter may be an integer count or a mask the code meant, and
        is weighed only where the code fails for a bool and a default-int array as well
        (`hue + (hue < 0.0)` raises for a float32, an int32 and a bool `hue`): then it fails
        whatever array the parameter is.

        It is opt-in until its precision is measured: a package that follows x64's defaults on
        purpose (jumanji's specs say `dtype=float`) is not meant for float32 data with x64 on, and
        there the finding is true but by design. Set `input-dtypes = []` for such a package.
    """
    fix_safety = """
        No automatic fix is offered. Give the 64-bit operand the input's dtype
        (`jnp.zeros(n, x.dtype)`, `jnp.asarray(c, x.dtype)`), or cast where the dtypes meet.
    """
    invalid = (
        # Public, though the module calls it too: its users pass float32 arrays (numpyro's
        # vec_to_tril_matrix).
        Example("""
            import jax
            import jax.numpy as jnp
            def place(x, n):
                return jax.lax.dynamic_update_slice(jnp.zeros(n), x, (0,))
            def placed_twice(x, n):
                return place(place(x, n), n)
        """, x64="on"),
        # A scan whose body adds a float64 draw to a float32 carry (sgmcmcjax's samplers).
        Example("""
            import jax
            import jax.numpy as jnp
            def langevin(key, x0, dt):
                def step(carry, i):
                    k, x = carry
                    k, sub = jax.random.split(k)
                    return (k, x + dt * jax.random.normal(sub, x.shape)), x
                return jax.lax.scan(step, (key, x0), jnp.arange(4))
        """, x64="on"),
        # x64 switched on by the code itself.
        Example("""
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
            def pick(mask, y: jax.Array):
                return jax.lax.select(mask, y, jnp.zeros(3))
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            def place(x: jax.Array, n: int):
                return jax.lax.dynamic_update_slice(jnp.zeros(n), x, (0,))
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            from jax import lax
            DEC_LO = [0.7071067811865476, 0.7071067811865476]
            def wavedec(data):
                filt = jnp.array(DEC_LO)[None, None, :]
                return lax.conv_general_dilated(data, filt, (1,), "VALID")
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            from jaxtyping import Array, Float
            def rotate(x: Float[Array, "n"]):
                return x + 0.0j
        """, promotion="strict"),
        # Fails for a float32, an int32 and a bool `hue`: whatever array it is (dm-pix's
        # rgb_planes_to_hsv_planes).
        Example("""
            import jax.numpy as jnp
            def wrapped(hue, range_):
                return jnp.where(range_ > 0, hue, 0.0) + (hue < 0.0)
        """, promotion="strict"),
        Example("""
            import jax.numpy as jnp
            def constant(scale):
                return scale + jnp.zeros(3, jnp.int8)
        """, promotion="strict"),
        # No plane alone decides `value`; all of them float32 at once, as a call passes them,
        # do (dm-pix's rgb_planes_to_hsv_planes). Every mix of bool, int32 and float32 planes raises too.
        Example("""
            import jax.numpy as jnp
            def planes(red, green, blue):
                value = jnp.maximum(jnp.maximum(red, green), blue)
                return jnp.where(value > 0, value, 0.0) + (value < 0.0)
        """, promotion="strict"),
        # The data float32 at once, the mask left as it is.
        Example("""
            import jax
            import jax.numpy as jnp
            def pick(mask, a, b):
                return jax.lax.select(mask, a * b, jnp.zeros(3))
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            def langevin(key, x0, dt):
                def step(carry, i):
                    k, x = carry
                    k, sub = jax.random.split(k)
                    return (k, x + dt * jax.random.normal(sub, x.shape, x.dtype)), x
                return jax.lax.scan(step, (key, x0), jnp.arange(4))
        """, x64="on"),
        Example("""
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
            def pick(mask, y: jax.Array):
                return jax.lax.select(mask, y, jnp.zeros(3, y.dtype))
        """),
        Example("""
            import jax
            import jax.numpy as jnp
            def place(x: jax.Array, n: int):
                return jax.lax.dynamic_update_slice(jnp.zeros(n, x.dtype), x, (0,))
        """, x64="on"),
        # A private function called in the module with what its calls pass: the calls decide.
        Example("""
            import jax
            import jax.numpy as jnp
            def _place(x, n):
                return jax.lax.dynamic_update_slice(jnp.zeros(n), x, (0,))
            out = _place(jnp.ones(2), 3)
        """, x64="on"),
        # Runs for an int32 `a`: an offset the code may mean as an integer.
        Example("""
            import jax.numpy as jnp
            def grid(a, h, n):
                return a + h * jnp.arange(n)
        """, promotion="strict"),
        # Runs for a bool `enabled` and an int32 `count`: a mix of dtypes the code may mean.
        Example("""
            import jax.numpy as jnp
            def active(enabled, count):
                return jnp.logical_and(enabled, count < 5)
        """, promotion="strict"),
        # Runs where both inputs are int32: offsets the code may mean as integers.
        Example("""
            import jax.numpy as jnp
            def offsets(a, b):
                return jnp.arange(4) * (a + b)
        """, promotion="strict"),
        # A count the code meant as an integer: it runs for int32.
        Example("""
            import jax
            import jax.numpy as jnp
            def halves(n: jax.Array):
                return jnp.arange(4) < n // 2
        """, promotion="strict"),
        # No array gets past the assert (praxis's init_var), nor past an `if` that raises.
        Example("""
            import jax.numpy as jnp
            def constant(scale):
                assert isinstance(scale, (int, float))
                return scale + jnp.zeros(3, jnp.int8)
        """, promotion="strict"),
        Example("""
            import jax.numpy as jnp
            def constant(scale):
                if not isinstance(scale, int):
                    raise ValueError("an integer scale")
                return scale + jnp.zeros(3, jnp.int8)
        """, promotion="strict"),
    )

    def message(self, operation, operations=()):
        return _strict_breach(operation) or _x64_breach(operation) or _x64_control_breach(operation, operations)


def _strict_breach(operation: Operation) -> str | None:
    if not operation.ctx.strict or operation.kind == OperationKind.INVOKE:
        return None
    if isinstance(settled(operation.result), Refusal):  # raises for every member: PRM004's
        return None
    # The other parameters where the code fails for a bool and a default-int array too: whatever array they are.
    found = breach(operation, lambda refusal: refusal.reason == _STRICT, kinds=_FLOATS,
                   also=("bool", operation.ctx.jax.default_dtype("i")))  # fmt: skip
    return None if found is None else _strict_message(found)


def _x64_breach(operation: Operation) -> str | None:
    if not (operation.ctx.x64 and operation.kind == OperationKind.CALL and operation.op.startswith("jax.lax.")):
        return None
    if isinstance(settled(operation.result), Refusal):  # raises for every member: PRM008's
        return None
    found = breach(operation, lambda refusal: refusal.error == "TypeError" and refusal.reason != SHAPE,
                   wide_runs=True)  # fmt: skip
    wide = wide_operands(operation, CONTRACT_WIDE[found.dtype]) if found is not None else []
    return _x64_message(operation, found, wide) if wide else None  # a Python scalar there is PRM027's


def _x64_control_breach(operation: Operation, operations: Sequence[Operation]) -> str | None:
    """With x64 on, a lax loop whose body returns a float32 input's carry as 64-bit, or a
    conditional whose branches return it beside a 64-bit value, where the 64-bit input runs."""
    if not (operation.ctx.x64 and operation.kind == OperationKind.CONTROL):
        return None
    if isinstance(settled(operation.result), Refusal):  # raises for every member: PRM025's
        return None
    if branches_bound_to_the_default(operation) is not None:  # raises for all narrow inputs at once: PRM027's
        return None
    found = breach(operation, lambda refusal: refusal.error == "TypeError" and refusal.reason in (CARRY, BRANCHES),
                   wide_runs=True)  # fmt: skip
    defaults = defaults_in_bodies(operation, operations) if found is not None else []
    return _control_message(operation, found, defaults) if defaults else None  # a Python scalar there is PRM027's


def _control_message(operation: Operation, found: Breach, defaults: list[str]) -> str:
    name = operation.op.removeprefix("jax.")
    said = found.refusal.message.split(": JAX requires")[0].rstrip(".")
    return (f"Called with {_arrays(found)} under x64, as a library's functions are, `{name}` raises "
            f"TypeError ({said}): {', '.join(defaults)} is {CONTRACT_WIDE[found.dtype]} under x64 whatever "
            f"{_whatever(found)}, and lax does not promote. Give it `{found.name}`'s dtype (e.g. "
            f"`jnp.zeros(n, {found.name}.dtype)`, `random.normal(key, shape, {found.name}.dtype)`).")


def _strict_message(found: Breach) -> str:
    said = found.refusal.message.split(" have no available")[0].split(" when ")[0]
    alike = f"({', '.join(found.also)} and {found.dtype} alike)"
    if not found.also:
        called = _arrays(found)
    elif len(found.names) == 1:
        called = f"an array {found.inputs()} of any dtype {alike}"
    else:
        called = f"arrays {found.inputs()} of any dtypes ({', '.join(found.also)} and {found.dtype}, in every mix)"
    return (f"Called with {called}, as a library's functions are, this raises "
            f"TypePromotionError under strict promotion: {said} have no implicit promotion path. Cast explicitly "
            f"where the dtypes meet, e.g. `.astype({found.name}.dtype)`.")


def _x64_message(operation: Operation, found: Breach, wide: list[str]) -> str:
    name = operation.op.removeprefix("jax.")
    said = found.refusal.message.split(". (Tip")[0].rstrip(".")
    return (f"Called with {_arrays(found)} under x64, as a library's functions are, `{name}` raises "
            f"TypeError ({said}): {', '.join(wide)} is {CONTRACT_WIDE[found.dtype]} under x64 whatever "
            f"{_whatever(found)}, and lax does not promote. Give it `{found.name}`'s dtype (e.g. "
            f"`jnp.zeros(n, {found.name}.dtype)`).")


def _arrays(found: Breach) -> str:
    """The contract's inputs: "a float32 `x`", "float32 arrays `x` and `y`"."""
    return f"a {found.dtype} {found.inputs()}" if len(found.names) == 1 else f"{found.dtype} arrays {found.inputs()}"


def _whatever(found: Breach) -> str:
    return f"{found.inputs()} is" if len(found.names) == 1 else "they are"

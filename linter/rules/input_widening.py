"""PRM029 input-widening: with x64 on, a float32 input of a library's function widened to float64
by a value that follows x64's defaults."""

from __future__ import annotations

import re

from promolint.core.dtypes import CONTRACT_WIDE
from promolint.engine.model import Operation, OperationKind, instances_with, variables_in, without_inputs
from promolint.engine.values import Array, Items, Library, Refusal
from promolint.rules.base import Example
from promolint.rules.shared.contract import NOT_INPUTS, ContractRule, contract_inputs, reached

# What widens: an operator, a catalogued call, an augmented assignment.  A comparison's result is
# a bool whatever it promotes to; a lax loop or conditional is PRM025's and PRM028's.
_KINDS = (OperationKind.BINOP, OperationKind.CALL, OperationKind.AUGASSIGN)
_PROBE = "complex64"
_DEFAULTED = re.compile(r"(\S+) defaults to ")  # a creation function's provenance: what made the value
_WIDENED = {narrow: wide for narrow, wide in CONTRACT_WIDE.items() if narrow.startswith(("float", "complex"))}
_WIDE = frozenset(_WIDENED.values())  # float64, complex128


class InputWidening(ContractRule):
    summary = (
        "Opt-in: with x64 on, flags an operation that turns a float32 input of a function into float64 "
        "(complex64 into complex128) because another operand is 64-bit whatever the inputs are: "
        "`x * jnp.eye(n)`, `x + jax.random.normal(key, shape)`, `jnp.concatenate([x, jnp.zeros(n)])`. "
        "The message names the input and the 64-bit operand."
    )
    why = """
        A library's functions are called with float32 arrays as well as 64-bit ones, whatever its
        own tests pass. With x64 on, `jnp.zeros(n)`, `jnp.eye(n)`, `jax.random.normal(key, shape)`
        and literal lists are float64, and JAX promotes a float32 array they meet to float64: the
        caller's float32 data come back float64, computed at twice the memory and, on most
        accelerators, many times the time, and the next `lax` call, loop carry or `.at[].set`
        that mixes the two raises. Running the primer's projects with float32 inputs and x64 on
        finds such a promotion at hundreds of lines (the census, docs/primer.md).

        Each parameter whose dtype the code does not fix is weighed alone, as a strong JAX array of
        each float dtype of `input-dtypes` (`[tool.promolint]`, default `["float32"]`), with every
        other parameter at each of its members: the operation must widen that input whatever the
        others are, where the input reaches the operation. The 64-bit operand is one of x64's
        defaults or the package's own state: a dtype the code names (`dtype=float`) widens on
        purpose, and where the input is a field of an object (`state.x`), the object's other
        fields are float32 with it in a caller's object. A function the module
        calls itself is judged by what its calls pass; a module that does not use JAX is not
        weighed (NumPy widens its float32 inputs whatever x64 is).

        It is opt-in until its precision is measured: a package that computes in float64 on
        purpose under x64 widens float32 data by design. Set `input-dtypes = []` for such a package.
    """
    fix_safety = """
        No automatic fix is offered. Give the 64-bit operand the input's dtype
        (`jnp.eye(n, dtype=x.dtype)`, `jax.random.normal(key, shape, x.dtype)`), or cast the
        input to float64 explicitly where the widening is meant.
    """
    invalid = (
        # x64 switched on by the code itself.
        Example("""
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
            def regularize(A, boost=1e-6):
                return A + boost * jnp.eye(A.shape[-1])
        """),
        Example("""
            import jax
            def sample(key, loc, scale):
                eps = jax.random.normal(key, loc.shape)
                return loc + eps * scale
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            def pad(r_t, n):
                return jnp.concatenate([r_t, jnp.zeros(n - 1)])
        """, x64="on"),
        # The object's shape, read from its own fields, sizes a default draw.
        Example("""
            import jax
            import jax.numpy as jnp
            class Logistic:
                def __init__(self, scale):
                    self.scale = scale
                    self.batch_shape = jnp.shape(scale)
                def sample(self, key):
                    z = jax.random.logistic(key, self.batch_shape)
                    return z * self.scale
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
            def regularize(A, boost=1e-6):
                return A + boost * jnp.eye(A.shape[-1], dtype=A.dtype)
        """),
        # x64 off: the default is float32.
        Example("""
            import jax.numpy as jnp
            def pad(r_t, n):
                return jnp.concatenate([r_t, jnp.zeros(n - 1)])
        """, x64="off"),
        # Two inputs: a float64 `y` widens `x`, but a float32 one does not.
        Example("""
            import jax.numpy as jnp
            def add(x, y):
                return x + y
        """, x64="on"),
        # The code names float64: it computes in float64 on purpose.
        Example("""
            import jax.numpy as jnp
            def deflection(x, kappa):
                x = jnp.asarray(x, dtype=float)
                return kappa * x
        """, x64="on"),
        # ... through the functions it calls on such a value too (jaxtronomy 0.1.5's lens profiles:
        # the radius of coordinates that `shift_center` made float64 by name).
        Example("""
            import jax.numpy as jnp
            def deflection(x, y, theta_E):
                x_ = jnp.asarray(x, dtype=float)
                y_ = jnp.asarray(y, dtype=float)
                r = jnp.sqrt(x_**2 + y_**2)
                return theta_E / jnp.maximum(r, 1e-6)
        """, x64="on"),
        # A Python scalar is weak: the input keeps its dtype.
        Example("""
            def scale(x):
                return 2.5 * x
        """, x64="on"),
        # A NumPy module is called with NumPy arrays, which widen whatever x64 is.
        Example("""
            import numpy as np
            def ring(radius):
                return radius * np.cos(np.linspace(0.0, 1.0, 8))
        """, x64="on"),
        # The module's own calls decide.
        Example("""
            import jax.numpy as jnp
            def pad(r_t, n):
                return jnp.concatenate([r_t, jnp.zeros(n - 1)])
            out = pad(jnp.zeros(3), 2)
        """, x64="on"),
    )

    # Its precision is measured where the module's own calls do not reach (the primer's ledger);
    # public functions the module calls too add 95 findings on the primer not yet judged.
    public_called = False

    def message(self, operation, operations=()):
        return _widened(operation)


def _widened(operation: Operation) -> str | None:
    """The message for a float32 input ``operation`` widens whatever the other inputs are."""
    if not operation.ctx.x64 or operation.kind not in _KINDS or operation.symbolic_result is None:
        return None
    operands = operation.symbolic_operands
    if len(operands) != len(operation.operands) or len(_flat(operands)) < 2:
        return None
    variables = contract_inputs(operation.symbolic_result)
    for dtype in operation.ctx.input_dtypes:
        if dtype not in _WIDENED:
            continue
        for variable in variables:
            wide_at = _wide_operands(operation, variable, dtype)
            if wide_at and reached(operation, {variable: dtype}):  # the guards last: most operations widen nothing
                return _message(operation, variable.name, dtype, wide_at)
    return None


def _wide_operands(operation: Operation, variable, dtype: str) -> list[tuple[int, Array]]:
    """The operands (position among the flattened operands, value) that are strong 64-bit values
    whatever arrays the function is given, where ``variable`` holds a ``dtype`` array, an operand
    from it still has that dtype and the result is 64-bit, at every member of the other variables
    where the program goes on; [] where some member does not widen it."""
    found = instances_with(operation.symbolic_operands, operation.symbolic_result, variable, dtype)
    if not found:
        return []
    # A complex input must change the result where the input takes part in its dtype (not a
    # shape or an index); the members of the other variables come in the same order.
    probe = instances_with(operation.symbolic_operands, operation.symbolic_result, variable, _PROBE)
    if probe is not None and any(_runs(a) and _runs(b) and _same_dtypes(a[1], b[1]) for a, b in zip(found, probe)):
        return []
    carries = [variable in variables_in(o) for o in _flat(operation.symbolic_operands)]
    roots = _roots(operation, variable)
    common: dict[int, Array] | None = None
    for instance in found:
        if not _runs(instance):
            continue
        operands, result = _flat(instance[0]), instance[1]
        if not (isinstance(result, Array) and result.library is Library.JAX and _all_64(result)):
            return []
        if not any(carried and _narrow(o, dtype) for carried, o in zip(carries, operands)):
            return []
        wide = {i: o for i, o in enumerate(operands) if i in roots and _strong_64(o)}
        common = wide if common is None else {i: o for i, o in common.items() if i in wide}
        if not common:
            return []
    return sorted((common or {}).items(), key=lambda item: item[0])


def _runs(instance: tuple) -> bool:
    """Whether the program goes on at an instance: neither its result nor an operand (an element
    of a list too) raised."""
    return not isinstance(instance[1], Refusal) and not any(isinstance(o, Refusal) for o in _flat(instance[0]))


def _same_dtypes(a: object, b: object) -> bool:
    return isinstance(a, Array) and isinstance(b, Array) and a.dtypes == b.dtypes


def _roots(operation: Operation, variable) -> set[int]:
    """The operands (flattened) whose 64 bits no array input gives them: strong 64-bit whatever
    arrays the function is given (``jnp.eye(n)``, ``jax.random.normal(key, shape)``, a NumPy
    float64 constant, ``boost * jnp.eye(n)`` for a Python float ``boost``).  An operand 64-bit
    only because an input was widened before (``eps * scale`` in ``loc + eps * scale``) is that
    widening's, reported where it happens; so is one whose dtype the code named.  Where the
    input is a field of a parameter (``state.x``), an operand read from that parameter's other
    fields (``state.x_dot``) is no root: an object a caller fills with float32 data holds them
    all in float32, whatever the package's own constructions, which the engine sums up, put
    there.  Not so for ``self``: what its methods set (``self.batch_shape``) is the package's."""
    flat = _flat(operation.symbolic_operands)
    nodes = operation.syntax.operand_nodes(operation) if operation.syntax else ()
    owner = variable.name.split(".")[0] if "." in variable.name else None
    if owner in NOT_INPUTS:
        owner = None  # an object's own fields: the package's, set by its methods, not a caller's
    if len(nodes) != len(flat) or owner is None:
        nodes = (None,) * len(flat)
    return {i for i, (o, node) in enumerate(zip(flat, nodes)) if _defaulted_64(without_inputs(o))
            and not (node is not None and operation.syntax.reads_fields_of(node, owner))}  # fmt: skip


def _defaulted_64(value: object) -> bool:
    """Strong 64-bit by x64's defaults, not because the code named the dtype (``dtype=float``,
    ``.astype(jnp.float64)``): a package that casts to float64 computes in float64 on purpose."""
    return _strong_64(value) and not value.named64


def _strong_64(value: object) -> bool:
    return isinstance(value, Array) and value.weak is False and _all_64(value)


def _flat(operands: tuple[object, ...]) -> tuple[object, ...]:
    """Operands with a list's or tuple's items in its place (``jnp.concatenate([x, z])``)."""
    return tuple(item for o in operands for item in (o.items if isinstance(o, Items) else (o,)))


def _all_64(value: Array) -> bool:
    return bool(value.dtypes) and value.dtypes <= _WIDE


def _narrow(value: object, dtype: str) -> bool:
    return isinstance(value, Array) and value.dtypes == {dtype}


def _message(operation: Operation, name: str, dtype: str, wide_at: list[tuple[int, Array]]) -> str:
    nodes = operation.syntax.operand_nodes(operation) if operation.syntax else ()
    named = len(nodes) == len(operation.operands) == len(_flat(operation.symbolic_operands))
    texts, makers = [], []
    for i, value in wide_at:
        text = f"`{operation.syntax.text(nodes[i])}`" if named else "an operand"
        texts.append(f"{text} ({value.provenance})" if value.provenance else text)
        made = _DEFAULTED.match(value.provenance)
        if made:
            makers.append(f"`{made.group(1)}(..., dtype={name}.dtype)`")
    fix = f"Make it in `{name}`'s dtype ({', '.join(makers)})" if makers else f"Cast it to `{name}.dtype`"
    return (f"Called with a {dtype} `{name}` under x64, as a library's functions are, this gives "
            f"{_WIDENED[dtype]}: {', '.join(texts)} is 64-bit whatever `{name}` is, and widens it. {fix}, "
            f"or cast `{name}` where the widening is meant.")

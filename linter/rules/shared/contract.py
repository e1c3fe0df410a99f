"""Input contracts: what a function whose parameters have no dtype in the code is called with.

A library's functions are called with float32 arrays (what ML and most JAX code passes) as well as
with 64-bit ones.  An operation on parameters that raises for a float32 input where it runs for
another (``x * jnp.array([1, -1])`` under strict promotion; ``lax.select(p, x, jnp.zeros(3))``
with x64 on) breaks that contract, though no member of the parameter's domain decides it for
every member.  ``breach`` finds the input that breaks it: one parameter, a strong JAX array of a
contract dtype, with every other parameter left unknown, so that the operation raises whatever
the others are; else every parameter such an array at once (a call with float32 data throughout,
as the run-time shim makes one), where no parameter alone decides.  The finding names the inputs
as its witness.  A private function the module calls itself gets its inputs from those calls
(``Inputs``): rules report what raises there at the calls; a public one is called by the
module's users as well.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from promolint.core.dtypes import CONTRACT_WIDE, DTYPES, is_64bit
from promolint.engine.model import (
    BRANCHES,
    CARRY,
    Module,
    Operation,
    OperationKind,
    Syntax,
    Variable,
    is_symbolic,
    jax_member,
    listed,
    passed_on,
    variables_in,
    with_arrays,
    with_arrays_of,
    with_arrays_of_by_members,
)
from promolint.engine.values import UNKNOWN, Array, Items, Keyed, Library, Refusal
from promolint.rules.base import Finding, Rule
from promolint.rules.shared.through_calls import settled

NOT_INPUTS = frozenset({"self", "cls"})  # the object a method belongs to is no data (its fields may be)
# The members of another input tried before one it does not stop the program at (a PRNG key, a
# function: no number is one) is taken for no case: the domains interleave libraries, so these
# are a Python, a NumPy and a JAX value of each of the first dtypes.
_NO_CASE_AFTER = 8
# The most inputs weighed together whose every mix of dtypes is tried (3 dtypes: 81 mixes).
_MAX_MIXED = 4
# The most other inputs weighed member by member: each costs evaluations of the whole operation
# (a loop's body), and a function of many inputs (fields, items) is left to what unknown decides.
_MAX_OTHERS = 6
# A Python scalar's dtype with x64 on: its kind, and the 32-bit dtype that code written for x64
# off gives its data.
NARROW = {"int64": ("int", "int32"), "float64": ("float", "float32")}


class ContractRule(Rule, abstract=True):
    """A rule whose findings hold under the input contract (``message``: what an operation breaks
    of it, None where nothing), reported in the functions the module does not call itself (those
    get their inputs from the calls), in public ones also where it does (``public_called``: their
    users call them too), and in modules that use JAX (the contract's inputs are JAX arrays)."""

    public_called = True

    def message(self, operation: Operation, operations: Sequence[Operation]) -> str | None:
        """``operations``: the module's, among which the bodies of a lax loop or conditional are."""
        raise NotImplementedError

    def check(self, operation: Operation, operations: Sequence[Operation] = ()) -> Iterator[Finding]:
        found = self.message(operation, operations)
        if found is not None:
            yield self.finding(operation, found)

    def check_module(self, module: Module) -> Iterator[Finding]:
        if not module.uses_jax:
            return  # a NumPy module's callers pass NumPy arrays, whose promotion no x64 switch changes
        inputs = Inputs(module, self.public_called)
        for operation in module.operations:
            for finding in self.check(operation, module.operations):
                if inputs.by_contract(operation):
                    yield finding


class Inputs:
    """Where a module's operations get their inputs from: the calls the module makes of its own
    functions (their bodies evaluated again with each call's arguments), or a contract."""

    def __init__(self, module: Module, public_called: bool):
        self._module = module
        self._public_called = public_called
        self._called: set[int] | None = None

    def by_contract(self, operation: Operation) -> bool:
        """Whether ``operation`` is in no function the module calls itself, or (``public_called``)
        in a public one, whose users call it whatever the module passes it (worked out on the
        first question: most modules have no breach to ask about)."""
        if self._public_called and operation.syntax is not None and operation.syntax.public(operation.node):
            return True
        if self._called is None:
            module = self._module
            self._called = {id(op.node) for invocation in module.invocations if invocation.evaluate is not None
                            for op in module.evaluated(invocation).operations}  # fmt: skip
        return id(operation.node) not in self._called


@dataclass(frozen=True)
class Breach:
    """The operation raises ``refusal`` when the inputs ``names`` are strong JAX arrays of
    ``dtype``, whatever the other parameters are (and the program stops by then where they are
    arrays of each dtype of ``also``)."""

    names: tuple[str, ...]
    dtype: str
    refusal: Refusal
    also: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The input a fix casts to (the first named)."""
        return self.names[0]

    def inputs(self) -> str:
        """The inputs as a message names them: "`x`", "`x` and `y`", "`x`, `y` and 2 more"."""
        return listed(self.names, most=3)


def contract_inputs(value: object) -> list[Variable]:
    """The variables ``value`` depends on that a caller passes as data, by name: not the object a
    method belongs to, nor a parameter taken at its word as a Python scalar (annotated ``x:
    float``, given ``n=512``, counted with)."""
    return sorted((v for v in variables_in(value) if v.name not in NOT_INPUTS and not v.scalar_annotated),
                  key=lambda v: v.name)  # fmt: skip


def breach(operation: Operation, raises: Callable[[Refusal], bool], wide_runs: bool = False,
           kinds: str | None = None, also: tuple[str, ...] = ()) -> Breach | None:  # fmt: skip
    """The contract input for which ``operation`` raises a refusal ``raises`` accepts (callers
    ask where their rule's claim for every member does not hold).

    ``wide_runs``: and runs where that input is its 64-bit counterpart.  Then the failure is the
    narrower input's whatever the parameter is meant to hold (were it an integer count, the
    operation would raise for 64-bit integers too, and the code would run for no input), and
    every parameter but one annotated with a Python scalar type is weighed.  Else only those
    annotated as arrays whose every dtype is of ``kinds`` (``_holds_arrays``): an `x: jax.Array`
    that fails as a float may be a count the code meant as an integer, and an unannotated one a
    container (jaxtyping's `Float[Array, "n"]` says it holds floats).

    ``also``: the others too, where the program stops by the operation for a strong JAX array of
    each of those dtypes as well (``hue + (hue < 0.0)`` under strict promotion fails for a bool, an
    int32 and a float32 ``hue``: whatever array it is, so no count or mask meant otherwise)."""
    result = operation.symbolic_result
    if result is None:
        return None
    variables = [v for v in contract_inputs(result) if (wide_runs or also or _holds_arrays(v, kinds or ""))
                 and not _nested(operation, v) and not _computed_here(operation, v)]  # fmt: skip
    if not variables:
        return None
    for dtype in operation.ctx.input_dtypes:  # the project's contract, the first dtype tried first
        everywhere = with_arrays_of(result, variables, dtype)
        if _runs(everywhere) or isinstance(everywhere, Refusal) and not raises(everywhere):
            continue  # every input of this dtype is a case of one: none alone raises so
        for variable in variables:
            refusal = raised(with_arrays_of(result, [variable], dtype))
            if passed_on(refusal):
                continue  # raised before, and reported there
            if refusal is None and wide_runs:  # the others unknown decide nothing: weigh each of their members
                refusal = _raised_at_every_member(operation, variable, dtype, raises)
            if not (refusal is not None and raises(refusal)) or not reached(operation, {variable: dtype}):
                continue
            if wide_runs and not _runs_for(operation, variable, CONTRACT_WIDE[dtype]):
                continue
            if also and not _holds_arrays(variable, kinds or ""):
                if not all(_stops(operation, {variable: other}) for other in also):
                    continue
                return Breach((variable.name,), dtype, refusal, also)
            return Breach((variable.name,), dtype, refusal)
        # Several inputs at once: all of them, else all but one (a mask, a count, a key the
        # contract's dtype does not fit).
        all_but_one = [[v for v in variables if v is not left] for left in variables] if len(variables) > 2 else []
        for inputs in [variables, *all_but_one]:
            found = _together(operation, inputs, dtype, raises, wide_runs, kinds, also)
            if found is not None:
                return found
    return None


def _together(operation: Operation, variables: list[Variable], dtype: str, raises: Callable[[Refusal], bool],
              wide_runs: bool, kinds: str | None, also: tuple[str, ...]) -> Breach | None:
    """The breach where ``variables`` are all strong JAX arrays of ``dtype`` at once, the others
    unknown, though none alone decides it: ``jnp.maximum(red, green)`` is float32 for float32
    planes, and unknown for a float32 ``red`` alone.  With the same conditions as one input's:
    runs where they are all the 64-bit counterpart (``wide_runs``), or the program stops by the
    operation where they are all arrays of each dtype of ``also`` (unless each holds arrays of
    ``kinds``)."""
    variables = [v for v in variables if jax_member(v, dtype) is not None]  # not `x is None`: no array passed
    refusal = raised(with_arrays_of(operation.symbolic_result, variables, dtype))
    if len(variables) < 2 or refusal is None or passed_on(refusal) or not raises(refusal):
        return None
    if not reached(operation, dict.fromkeys(variables, dtype)):
        return None
    if wide_runs and not _runs(with_arrays_of(operation.symbolic_result, variables, CONTRACT_WIDE[dtype])):
        return None
    names = tuple(v.name for v in variables)
    if also and not all(_holds_arrays(v, kinds or "") for v in variables):
        # Whatever arrays they are: every mix of the dtypes stops the program (a mask and a
        # count beside float data is a mix the code may mean).
        if len(variables) > _MAX_MIXED:
            return None
        mixes = itertools.product((dtype, *also), repeat=len(variables))
        if not all(_stops(operation, dict(zip(variables, mix))) for mix in mixes):
            return None
        return Breach(names, dtype, refusal, also)
    return Breach(names, dtype, refusal)


def _stops(operation: Operation, dtypes: Mapping[Variable, str]) -> bool:
    """Whether the program stops by ``operation`` where each variable of ``dtypes`` holds a
    strong JAX array of its dtype, the others unknown: there, or before it (a statement on the
    way raises, whatever it raises: ``red - green`` for bool planes), but not where a test on
    the way takes the other branch."""
    refusal = raised(with_arrays(operation.symbolic_result, dtypes))
    return refusal is not None and reached(operation, dtypes, tests_only=True)


def _raised_at_every_member(operation: Operation, variable: Variable, dtype: str,
                            raises: Callable[[Refusal], bool]) -> Refusal | None:  # fmt: skip
    """What ``operation`` raises where ``variable`` holds a strong JAX array of ``dtype``, at
    every member of one other variable (the rest unknown) where the program gets that far:
    ``y + dt * random.normal(k, y.shape)`` in a scan body raises for a float32 ``y`` whatever
    ``dt`` is, though ``dt`` unknown leaves the sum unknown.  The refusal told is the one where
    the other holds such an array too, where it raises there: what a call with that dtype
    throughout meets."""
    for other in _others(operation, variable):
        alike = jax_member(other, dtype)
        found = told = None
        values = with_arrays_of_by_members(operation.symbolic_result, variable, dtype, other)
        for index, (member, value) in enumerate(zip(other.domain, values)):
            if any(passed_on(leaf) for leaf in _leaf_values(value)):
                if found is None and index + 1 >= _NO_CASE_AFTER:
                    break  # no number the program goes on with (a key, a function): weighed no further
                continue  # the program stops before: no case of the operation
            refusal = raised(value)
            if refusal is None or not raises(refusal):
                found = None
                break
            found = found or refusal
            told = refusal if alike is not None and member is alike else told
        if found is not None:
            return told or found
    return None


def _runs_for(operation: Operation, variable: Variable, dtype: str) -> bool:
    """Whether ``operation`` runs where ``variable`` holds a strong JAX array of ``dtype``: with
    the others unknown, else at some member of one of them."""
    result = operation.symbolic_result
    return _runs(with_arrays_of(result, [variable], dtype)) or any(
        _runs(value) for other in _others(operation, variable)
        for value in with_arrays_of_by_members(result, variable, dtype, other))  # fmt: skip


def _others(operation: Operation, variable: Variable) -> list[Variable]:
    """The variables besides ``variable`` weighed member by member: none past ``_MAX_OTHERS``."""
    others = sorted((v for v in variables_in(operation.symbolic_result) if v != variable), key=lambda v: v.name)
    return others if len(others) <= _MAX_OTHERS else []


def raised(value: object) -> Refusal | None:
    """What an operation raises given its result: the refusal it is, or a lax loop's or
    conditional's that one leaf of its result is (JAX compares the carry, or the branches' outputs,
    as a whole: one leaf that differs raises for all, whatever the other leaves are)."""
    if isinstance(value, Refusal):
        return value
    found = _leaf_values(value)
    return next((leaf for leaf in found if isinstance(leaf, Refusal) and leaf.reason in (CARRY, BRANCHES)), None)


def _runs(value: object) -> bool:
    """Whether a result is what an operation gives where it runs: a known array, or a loop's or
    conditional's result with no refusal in it and some leaf known."""
    if isinstance(value, Array):
        return bool(value.dtypes)
    found = _leaf_values(value)
    return bool(found) and not any(isinstance(leaf, Refusal) for leaf in found) and \
        any(isinstance(leaf, Array) and leaf.dtypes for leaf in found)


def _leaf_values(value: object) -> list[object]:
    """A result's leaves, refusals and unknown ones among them, through its tuples, lists and dicts."""
    if isinstance(value, Items):
        return [leaf for item in value.items for leaf in _leaf_values(item)]
    if isinstance(value, Keyed):
        return [leaf for _, member in value.entries for leaf in _leaf_values(member)]
    return [value]


def reached(operation: Operation, dtypes: Mapping[Variable, str], tests_only: bool = False) -> bool:
    """Whether ``operation`` runs where each variable of ``dtypes`` holds a strong JAX array of its dtype: no
    test on the way to it decides the other branch (``if isinstance(x, float)``), and (unless
    ``tests_only``) nothing on the way raises: a statement before it, a loop's iterable (``for i
    in range(x)``)."""
    syntax = operation.syntax
    if syntax is None:
        return True
    for node, branch in syntax.guards(operation.node):
        guard = syntax.operation_at(node)
        value = guard.symbolic_result if guard is not None else None
        if value is None:  # a call of the program's own function: what its body gives
            call = syntax.call_at(node)
            value = call.result if call is not None and is_symbolic(call.result) else None
        if value is None:  # a test no operation computes (`isinstance(x, float)`): its value there
            value = syntax.value_at(node)
            value = value if is_symbolic(value) else None
        if value is None:
            continue
        value = with_arrays(value, dtypes)
        if isinstance(value, Refusal) and not tests_only:
            return False
        if branch is not None and isinstance(value, Array) and value.literal is (not branch):
            return False
    return True


def _nested(operation: Operation, variable: Variable) -> bool:
    """Whether ``variable`` is a parameter of a function defined inside another (a loop's body,
    a branch): the enclosing function gives it its arguments, which are that function's inputs."""
    key = variable.key
    return operation.syntax is not None and isinstance(key, tuple) and bool(key) and operation.syntax.nested(key[0])


def _computed_here(operation: Operation, variable: Variable) -> bool:
    """Whether ``variable`` is a field the function holding ``operation`` assigns itself
    (``self.adj = promote(adj)`` in ``__init__``): its value there is computed, not given."""
    return "." in variable.name and operation.syntax is not None and operation.syntax.assigns(operation.node,
                                                                                                variable.name)


def _holds_arrays(variable: Variable, kinds: str) -> bool:
    """A parameter the code says holds arrays of ``kinds``: annotated with an array type, so that
    no Python scalar is among its members, whose every dtype is of those kinds."""
    return bool(variable.domain) and all(member.library is not Library.PYTHON and member.dtypes
                                         and all(DTYPES[d].kind in kinds for d in member.dtypes)
                                         for member in variable.domain)  # fmt: skip


def wide_operands(operation: Operation, dtype: str) -> list[str]:
    """The operands, as a message names them, that are strong ``dtype`` values whatever the
    parameters are (``jnp.zeros(n)`` under x64, its shape taken from the input or not): what a
    contract input meets and cannot match."""
    nodes = operation.syntax.operand_nodes(operation) if operation.syntax else ()
    if len(nodes) != len(operation.operands):
        return []
    return [_traced(operation, node, value) for node, value in zip(nodes, operation.operands)
            if isinstance(value, Array) and value.weak is False and value.dtypes == {dtype}]  # fmt: skip


def branches_bound_to_the_default(operation: Operation) -> tuple[str, str, str, tuple[str, ...]] | None:
    """With x64 on, a lax conditional or loop that raises where the arrays it depends on are
    int32 (float32) because its branches (its body) do not agree, but runs where they are int64
    (float64): a branch returns a Python scalar, or JAX's default dtype, beside them (jumanji's
    `lax.cond(mask[a], lambda: a, lambda: 0)`).  The reason (branches or carry), the kind, the
    narrow dtype and the names of the variables.  A parameter annotated with a Python scalar
    type or given a Python number (``n=512``, a signal's length) is taken at its word: no array."""
    result = operation.symbolic_result
    if operation.kind != OperationKind.CONTROL or not operation.ctx.x64 or result is None:
        return None
    inputs = [v for v in variables_in(result) if not v.scalar_annotated]
    if not inputs:
        return None
    for wide, (kind, narrow) in NARROW.items():
        refused = with_arrays_of(result, inputs, narrow)
        ran = with_arrays_of(result, inputs, wide)
        if (isinstance(refused, Refusal) and refused.reason in (CARRY, BRANCHES) and refused.error == "TypeError"
                and not isinstance(ran, Refusal) and ran is not UNKNOWN):  # fmt: skip
            return refused.reason, kind, narrow, tuple(sorted(v.name for v in inputs))
    return None


def defaults_in_bodies(operation: Operation, operations: Iterable[Operation]) -> list[str]:
    """The calls in the functions a lax loop or conditional runs (``operation``'s bodies and
    branches, and the functions they define) that make strong 64-bit JAX values whatever the
    parameters are (``jnp.zeros(n)`` in a branch, under x64): what a contract input meets there,
    as a message names them."""
    syntax = operation.syntax
    if syntax is None:
        return []
    bodies = {id(f) for f in syntax.functions_given(operation)}
    found: dict[int, str] = {}
    for inner in operations:
        if inner.kind != OperationKind.CALL or id(inner.node) in found or not _inside(syntax, inner.node, bodies):
            continue
        value = settled(inner.result)
        if (isinstance(value, Array) and value.library is Library.JAX and value.weak is False
                and value.dtypes and all(map(is_64bit, value.dtypes))):  # at every member: whatever the input is
            found[id(inner.node)] = f"`{syntax.text(inner.node)}` at line {syntax.line(inner.node)}"
    return list(found.values())


def _inside(syntax: Syntax, node: object, functions: set[int]) -> bool:
    function = syntax.function_of(node)
    while function is not None:
        if id(function) in functions:
            return True
        function = syntax.function_of(function)
    return False


def _traced(operation: Operation, node: object, value: Array) -> str:
    """An operand as a message names it: its text, and where a name holds it, what made it."""
    text = f"`{operation.syntax.text(node)}`"
    source = value.source
    if source is None or source.module or source.handle is node:
        return text
    made = operation.syntax.text(source.handle)
    return text if made == text[1:-1] else f"{text} (`{made}` at line {operation.syntax.line(source.handle)})"

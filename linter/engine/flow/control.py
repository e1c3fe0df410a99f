"""lax's control flow: ``scan``, ``fori_loop``, ``while_loop`` and ``map`` run their body with
the carry, ``cond`` and ``switch`` every branch with the operands, all traced.

What JAX does (measured, jax 0.10.2; tests/oracle/corpus/control_flow.py): a loop's body must
return its carry with the structure and the dtypes it received, weak flags aside.  Where a
received leaf is weak (a Python scalar) and comes back with another dtype, JAX converts the
initial value to a strong leaf of the promoted dtype and traces the body again; any other
difference raises TypeError.  The loop's result is what the body returns.  Branches must return
one structure and the same dtypes; the result is the first branch's (``false_fun`` for
``cond``), weak flags included.

Carries and operands of unknown dtype (symbolic leaves: dtype variables and what the code
computes from them) run the bodies once for all their members; each leaf of the result is
decided at each member (what the body returns there, or the loop's or branches' refusal), and
the body runs again on the symbolic carry JAX traces at the members whose weak leaves it
promotes.  A refusal is the result only where it holds at every member.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from promolint.core.dtypes import DTYPES
from promolint.engine.calls import as_traced, replaced, replaced_parts, traced_variable
from promolint.engine.context import Context
from promolint.engine.flow import carries
from promolint.engine.flow.carries import BRANCHES, CARRY, PREDICATE
from promolint.engine.flow.trees import leaves, rebuild
from promolint.engine.symbolic import Symbolic, apply, is_attribute_of, lifted, passed_on, raised_in
from promolint.engine.symbolic import outcomes as outcomes_of
from promolint.engine.values import (NONE, UNKNOWN, Array, Instance, Items, Keyed, Library, Reference, Refusal, Value,
                                     is_none)

Invoke = Callable[[Value, Sequence[Value]], Value]  # calls a function value with positional arguments
_LEAF = Reference("<leaf>")  # a leaf's place in a pytree's skeleton


def _loop(what: str, step: Callable[[Invoke, Value], tuple[Value, Value]], invoke: Invoke, quiet: Invoke,
          init: Value, ctx: Context, check: Callable[[Value], Refusal | None] = lambda carry: None
          ) -> tuple[Value, Value]:  # fmt: skip
    """Run a loop's ``step`` (the body, through ``invoke``; it returns the carry and the body's
    other output, untraced) on the traced initial carry, promote its weak leaves as JAX does and
    run it again if needed (``check`` sees each carry traced); the carry the loop gives (or its
    refusal) and the other output.  ``quiet`` invokes without recording.  A carry of symbolic
    leaves is decided member by member (``_symbolic_loop``)."""
    carry = _weak_fields_unknown(carries.pinned(_traced_tree(init, ctx)))
    if isinstance(carry, Refusal):
        return carry, UNKNOWN
    raw, extra = step(invoke, carry)
    returned = _traced_tree(raw, ctx)
    if isinstance(returned, Refusal):
        return UNKNOWN, UNKNOWN  # the body raised: reported where it did
    refused = check(carry)
    if _has_symbolic(carry) or _has_symbolic(returned):
        if refused:
            return refused, UNKNOWN
        return _symbolic_loop(what, step, invoke, quiet, init, carry, raw, returned, extra, ctx, check)
    carry_again = returned_again = None
    match = carries.Match(carry, returned)
    if match.promote and not match.structure_differs and not refused:
        carry_again = carries.promoted(carry, returned, match.promote, ctx)
        if isinstance(carry_again, Refusal):
            return carry_again, UNKNOWN
        raw, extra = step(invoke, carry_again)
        returned_again = _traced_tree(raw, ctx)
        if isinstance(returned_again, Refusal):
            return UNKNOWN, UNKNOWN
        refused = check(carry_again)
    decided = carries.decided(what, carry, returned, carry_again, returned_again)
    if isinstance(decided, Refusal):
        return decided, UNKNOWN
    if refused:
        return refused, UNKNOWN
    if decided.undecided:
        return UNKNOWN, extra
    if carry_again is not None:
        carry, returned = carry_again, returned_again
    settled = carries.forwarded(init, carry, raw, returned, lambda marked: step(quiet, marked)[0])
    return rebuild(returned, [UNKNOWN if i in decided.unknown else leaf for i, leaf in enumerate(settled)]), extra


def _weak_fields_unknown(carry: Value) -> Value:
    """The carry with each weak array that an object in it holds unknown.  The engine runs the
    body on an object as it got it, where JAX sees its fields as leaves and traces the body
    again with a weak one promoted where the body makes it strong: a read of that field gives
    one dtype on the first trace and another on the second."""
    found = leaves(carry)
    if found is None or not any(isinstance(leaf, Instance) for leaf in found):
        return carry
    return rebuild(carry, [_object_without_weak_fields(leaf) for leaf in found])


def _object_without_weak_fields(value: Value) -> Value:
    if not isinstance(value, Instance):
        return value
    fields = tuple((name, UNKNOWN if isinstance(field, Array) and field.weak is not False
                    else _object_without_weak_fields(field)) for name, field in value.fields)  # fmt: skip
    return replace(value, fields=fields)


# --- symbolic leaves: decided at each member of their variables ----------------------------------
def _has_symbolic(tree: Value) -> bool:
    return any(type(leaf) is Symbolic for leaf in leaves(tree) or ())


def _traced_tree(value: Value, ctx: Context) -> Value:
    """What a pytree is as the trace sees it (``as_traced``), leaf by leaf where a leaf is
    symbolic: traced as a whole, a tuple holding one would become one symbolic value, its
    structure lost."""
    if isinstance(value, Refusal):
        return value
    found = leaves(value)
    if found is None or not any(type(leaf) is Symbolic for leaf in found):
        return as_traced(value, ctx)
    traced = [as_traced(leaf, ctx) for leaf in found]
    return next((leaf for leaf in traced if isinstance(leaf, Refusal)), None) or rebuild(value, traced)


def _skeleton(tree: Value) -> Value:
    """A pytree's structure with a placeholder at each leaf: what a symbolic leaf's evaluation
    rebuilds the tree from (an argument, so that equal trees share their evaluations)."""
    return rebuild(tree, [_LEAF] * len(leaves(tree) or ()))


def _trees(skeletons: Sequence[Value], members: Sequence[tuple[Value, ...]]) -> list[Value] | None:
    """The pytrees at one member: each skeleton with that member's leaves; None where a symbolic
    leaf is a pytree itself there (the trees would not line up)."""
    if any(isinstance(leaf, (Items, Keyed)) or is_none(leaf) for found in members for leaf in found):
        return None
    return [rebuild(skeleton, found) for skeleton, found in zip(skeletons, members)]


def _refused_everywhere(leaf: Value) -> Refusal | None:
    """The refusal a symbolic result leaf is at every member where the program gets that far:
    the loop or the branches raise whatever the variables are."""
    if type(leaf) is not Symbolic:
        return None
    outcomes = outcomes_of(leaf)
    alive = [value for _, value in outcomes or () if not passed_on(value)]
    if alive and all(isinstance(v, Refusal) and v.reason in (CARRY, BRANCHES) for v in alive):
        return alive[0]  # type: ignore[return-value]
    return None


def _kept_everywhere(before: Value, after: Symbolic) -> bool:
    """Whether ``after`` (computed from ``before`` and more) is ``before`` at every member."""
    assignments = after.assignments()
    if assignments is None:
        return False
    return all(after.at(a) == (before.at(a) if type(before) is Symbolic else before) for a in assignments)


def _promoted_leaf(ctx: Context, received: Value, returned: Value) -> Value:
    """A carry leaf as JAX traces it again, at one member (``promoted``), from that leaf alone and
    what the body returns in its place: whether JAX promotes a leaf depends on nothing else, and
    a leaf weighed with the others would depend on every variable of the carry.  Unknown where
    the engine cannot tell whether it is promoted (evaluated with every variable unknown, a leaf
    kept so would be claimed kept at every member).  The structure and the other leaves decide
    whether the loop raises (``_carry_leaf``)."""
    if isinstance(received, (Items, Keyed)) or is_none(received) or isinstance(returned, (Items, Keyed)) \
            or is_none(returned):
        return UNKNOWN  # a pytree there: the trees would not line up
    match = carries.Match(received, returned)
    if match.undecided or match.unknown:
        return UNKNOWN
    if not match.promote:
        return received
    return carries.promoted(received, returned, match.promote, ctx)  # one leaf: the leaf itself


def _carry_leaf(index: int, what: str, skeletons: tuple[Value, ...], carry: tuple[Value, ...],
                returned: tuple[Value, ...], carry_again: tuple[Value, ...], returned_again: tuple[Value, ...],
                result: tuple[Value, ...]) -> Value:  # fmt: skip
    """Leaf ``index`` of what the loop gives at one member: ``result``'s, unless the body
    changes the carry's dtype there (the loop raises), the body raises there (passed on: the
    loop never gets to its carry), or the engine cannot tell."""
    body_raised = raised_in(returned + returned_again)
    if body_raised is not None:
        return body_raised
    trees = _trees(skeletons, (carry, returned, carry_again, returned_again))
    if trees is None:
        return UNKNOWN
    decided = carries.decided(what, *trees)
    if isinstance(decided, Refusal):
        return decided
    return UNKNOWN if decided.undecided or index in decided.unknown else result[index]


def _an_object(leaf: Value, returned: Value) -> bool:
    """Whether a carry leaf that is a variable (or one traced) holds an object: the body returns
    an object in its place (JAX requires the same structure), or a value made from an attribute
    of it that no number has (craftax's `state.replace(...)`: ``attribute_variable``)."""
    if type(leaf) is not Symbolic:
        return False
    if replaced_parts(leaf) is not None:
        return True
    variable = leaf.variable or traced_variable(leaf)
    if variable is None:
        return False
    if isinstance(returned, Instance) or replaced_parts(returned) is not None:
        return True
    return type(returned) is Symbolic and any(is_attribute_of(v.key, variable.key) for v in returned.variables)


def _symbolic_loop(what: str, step: Callable[[Invoke, Value], tuple[Value, Value]], invoke: Invoke, quiet: Invoke,
                   init: Value, carry: Value, raw: Value, returned: Value, extra: Value, ctx: Context,
                   check: Callable[[Value], Refusal | None]) -> tuple[Value, Value]:  # fmt: skip
    """``_loop`` where the carry or what the body returns has symbolic leaves: the carry JAX
    traces again is symbolic too (each weak leaf promoted at the members where it is), and the
    body runs on it where it differs from the first at some member; each leaf of the result
    is what the body returns at each member, or the loop's refusal there.  The body's other
    output is the last run's (at the members where the carry was not promoted, the two runs
    compute alike)."""
    got, back = leaves(carry), leaves(returned)
    if got is None or back is None:
        return UNKNOWN, extra
    first = (_skeleton(carry), _skeleton(returned))
    # A leaf the body hands back as it got it (`return (rng, state), y`) is never promoted, nor
    # is an object (mctx's `tree`, or a variable the body reads attributes of): JAX promotes only
    # its weak fields, unknown already or variables of their own.
    handed_back = leaves(raw) or ()
    kept = len(handed_back) == len(got)
    again = [leaf if kept and handed_back[i] is leaf or not isinstance(leaf, (Array, Symbolic))
             or i < len(back) and _an_object(leaf, back[i]) else
             apply("promoted carry", _promoted_leaf, (ctx, leaf, back[i] if i < len(back) else UNKNOWN))
             for i, leaf in enumerate(got)]  # fmt: skip
    # A leaf the second trace gets as the first did, at every member, is that leaf itself.
    again = [before if before is after or type(after) is Symbolic and _kept_everywhere(before, after) else after
             for before, after in zip(got, again)]  # fmt: skip
    carry_again, returned_again = carry, returned
    if any(before is not after for before, after in zip(got, again)):
        carry_again = rebuild(carry, again)
        raw, extra = step(invoke, carry_again)
        returned_again = _traced_tree(raw, ctx)
        if isinstance(returned_again, Refusal):
            return UNKNOWN, UNKNOWN
        refused = check(carry_again)  # JAX traces the condition again too, on the promoted carry
        if refused:
            return refused, UNKNOWN
    got_again, back_again = leaves(carry_again) or [], leaves(returned_again)
    if back_again is None:
        return UNKNOWN, extra
    settled = carries.forwarded(init, carry_again, raw, returned_again, lambda marked: step(quiet, marked)[0])
    skeletons = (*first, _skeleton(carry_again), _skeleton(returned_again))
    arguments = (what, skeletons, tuple(got), tuple(back), tuple(got_again), tuple(back_again), tuple(settled))
    # (The body may return its carry with fewer leaves on one trace than on the other.)
    paired = min(len(got), len(back), len(got_again), len(back_again))
    objects = [_object_after(got_again[i], back_again[i]) if i < paired and _an_object(got[i], back[i])
               else None for i in range(len(settled))]  # fmt: skip
    result = [apply("loop carry", _carry_leaf, (i, *arguments)) if found is None else found
              for i, found in enumerate(objects)]  # fmt: skip
    refused = _refused_everywhere(result[0]) if result else None
    return refused or rebuild(returned_again, result), extra


def _object_after(received: Value, returned: Value) -> Value | None:
    """What a loop gives for a carried object a variable holds, where the body returns it copied
    with fields replaced (``state.replace(zombies=...)``, maybe again and again): a copy of the
    object the loop received, the fields the body replaces unknown.  A field the body hands back
    is the leaf it received, which JAX neither promotes nor retraces (craftax's skeleton scan
    reads `state.skeletons` after the zombie scan).  None where the body returns anything else."""
    names: set[str] = set()
    while returned != received:
        parts = replaced_parts(returned)
        if parts is None:
            return None
        returned, fields = parts
        names.update(fields)
    return replaced(received, dict.fromkeys(sorted(names), UNKNOWN)) if names else None


# --- the loops -----------------------------------------------------------------------------
def _fori_loop(invoke: Invoke, quiet: Invoke, bound: dict[str, Value], ctx: Context) -> tuple[tuple[Value, ...], Value]:
    lower, upper, body, init = (bound.get(p, UNKNOWN) for p in ("lower", "upper", "body_fun", "init_val"))
    # Bounds known before tracing make a scan whose index is a Python int: a weak default int.
    python_ints = all(isinstance(v, Array) and v.library is Library.PYTHON and v.dtypes == {"int64"}
                      for v in (lower, upper))  # fmt: skip
    index = as_traced(Array(frozenset({"int64"}), Library.PYTHON, True), ctx) if python_ints else UNKNOWN
    carry, _ = _loop("lax.fori_loop", lambda run, c: (run(body, [index, c]), None), invoke, quiet, init, ctx)
    return (lower, upper, init), carry


def _while_loop(invoke: Invoke, quiet: Invoke, bound: dict[str, Value], ctx: Context) -> tuple[tuple[Value, ...], Value]:
    cond, body, init = (bound.get(p, UNKNOWN) for p in ("cond_fun", "body_fun", "init_val"))

    def check(carry: Value) -> Refusal | None:
        test = _traced_tree(invoke(cond, [carry]), ctx)
        if isinstance(test, Array) and test.dtype and (test.dtype != "bool" or test.rank not in (0, None)):
            return Refusal("TypeError", f"lax.while_loop's cond_fun returns {test.describe()}: it must return a "
                           "boolean scalar.", PREDICATE)  # fmt: skip
        return None

    carry, _ = _loop("lax.while_loop", lambda run, c: (run(body, [c]), None), invoke, quiet, init, ctx, check)
    return (init,), carry


@lifted("slice of a step")
def _one_step(leaf: Value) -> Value:
    return replace(leaf, ndim=leaf.ndim - 1 if leaf.ndim else None) if isinstance(leaf, Array) else UNKNOWN


@lifted("stacked steps")
def _every_step(leaf: Value) -> Value:
    return replace(leaf, ndim=leaf.ndim + 1 if leaf.ndim is not None else None) if isinstance(leaf, Array) else UNKNOWN


def _sliced(xs: Value, ctx: Context) -> Value:
    """One step's slice of what a scan or a map iterates over: each leaf traced, without its
    first axis."""
    found = leaves(xs)
    return UNKNOWN if found is None else rebuild(xs, [_one_step(as_traced(leaf, ctx)) for leaf in found])


def _stacked(ys: Value, ctx: Context) -> Value:
    """The outputs of every step stacked: each leaf traced, with one more axis."""
    found = leaves(ys)
    return UNKNOWN if found is None else rebuild(ys, [_every_step(as_traced(leaf, ctx)) for leaf in found])


def _scan(invoke: Invoke, quiet: Invoke, bound: dict[str, Value], ctx: Context) -> tuple[tuple[Value, ...], Value]:
    body, init, xs = bound.get("f", UNKNOWN), bound.get("init", UNKNOWN), bound.get("xs", NONE)
    x = _sliced(xs, ctx)

    def step(run: Invoke, carry: Value) -> tuple[Value, Value]:
        output = run(body, [carry, x])
        if isinstance(output, Refusal):
            return output, UNKNOWN
        if not (isinstance(output, Items) and len(output.items) == 2):
            return UNKNOWN, UNKNOWN
        return output.items[0], output.items[1]

    carry, y = _loop("lax.scan", step, invoke, quiet, init, ctx)
    if isinstance(carry, Refusal):
        return (init, xs), carry
    return (init, xs), Items((carry, _stacked(y, ctx)), is_tuple=True)


def _map(invoke: Invoke, quiet: Invoke, bound: dict[str, Value], ctx: Context) -> tuple[tuple[Value, ...], Value]:
    xs = bound.get("xs", UNKNOWN)
    y = invoke(bound.get("f", UNKNOWN), [_sliced(xs, ctx)])
    return (xs,), y if isinstance(y, Refusal) else _stacked(y, ctx)


# --- the branches ----------------------------------------------------------------------------
def _branches(what: str, invoke: Invoke, functions: Sequence[Value], operands: Sequence[Value],
              ctx: Context) -> Value:  # fmt: skip
    """Every branch on the traced operands; their outputs must agree in structure and dtypes, and
    the first branch's is the result.  Where outputs have symbolic leaves, each leaf of the
    result is the first branch's at each member, or the refusal there."""
    traced = [carries.pinned(_traced_tree(v, ctx)) for v in operands]
    refused = next((v for v in traced if isinstance(v, Refusal)), None)
    if refused:
        return refused
    outputs = [_traced_tree(invoke(function, traced), ctx) for function in functions]
    if any(isinstance(output, Refusal) for output in outputs):
        return UNKNOWN  # a branch raised: reported where it did
    found = [leaves(output) for output in outputs]
    if not any(_has_symbolic(output) for output in outputs) or any(f is None for f in found):
        return _agreed(what, outputs)
    skeletons = tuple(_skeleton(output) for output in outputs)
    arguments = (what, skeletons, *(tuple(f) for f in found))  # type: ignore[arg-type]
    result = [apply("branches' leaf", _agreed_leaf, (i, *arguments)) for i in range(len(found[0]))]  # type: ignore[arg-type]
    refused = _refused_everywhere(result[0]) if result else None
    return refused or rebuild(outputs[0], result)


def _agreed_leaf(index: int, what: str, skeletons: tuple[Value, ...], *outputs: tuple[Value, ...]) -> Value:
    """Leaf ``index`` of the branches' result at one member (``_agreed``)."""
    trees = _trees(skeletons, outputs)
    if trees is None:
        return UNKNOWN
    agreed = _agreed(what, trees)
    if isinstance(agreed, Refusal):
        return agreed
    found = leaves(agreed)
    return found[index] if found is not None and len(found) == len(outputs[0]) else UNKNOWN


def _agreed(what: str, outputs: Sequence[Value]) -> Value:
    """The branches' result given what each returns (traced): the first's, where they agree."""
    first = outputs[0]
    unknown: set[int] = set()
    for other in outputs[1:]:
        match = carries.Match(first, other)
        match.differ += carries.weak_differences(first, other, match)
        if match.structure_differs:
            return Refusal("TypeError", f"{what}'s branches return different structures (tuple or list, length): "
                           "JAX requires them to be equal.", BRANCHES)  # fmt: skip
        if match.differ:
            path, a, b = match.differ[0]
            where = carries.where(path)
            return Refusal("TypeError", f"{what}'s branches return {a.describe()} and {b.describe()}{where}: "
                           "JAX requires equal output types.", BRANCHES)  # fmt: skip
        if match.undecided:
            return UNKNOWN
        unknown |= match.unknown
    return rebuild(first, [UNKNOWN if i in unknown else leaf for i, leaf in enumerate(leaves(first) or [])])


def _operands(bound: dict[str, Value]) -> tuple[Value, ...]:
    operands = bound.get("operands")
    if "operand" in bound:
        return (bound["operand"],)
    return operands.items if isinstance(operands, Items) else ()


def _cond(invoke: Invoke, quiet: Invoke, bound: dict[str, Value], ctx: Context) -> tuple[tuple[Value, ...], Value]:
    operands = _operands(bound)
    # cond is switch(pred, [false_fun, true_fun]): the first branch is false_fun.
    functions = [bound.get("false_fun", UNKNOWN), bound.get("true_fun", UNKNOWN)]
    return (bound.get("pred", UNKNOWN), *operands), _branches("lax.cond", invoke, functions, operands, ctx)


def _switch(invoke: Invoke, quiet: Invoke, bound: dict[str, Value], ctx: Context) -> tuple[tuple[Value, ...], Value]:
    operands, index, branches = _operands(bound), bound.get("index", UNKNOWN), bound.get("branches")
    recorded = (index, *operands)
    traced = as_traced(index, ctx)
    if isinstance(traced, Array) and traced.dtype and DTYPES[traced.dtype].kind not in "biu":
        return recorded, Refusal("TypeError", f"lax.switch's index is {traced.describe()}: it must be an integer.",
                                 PREDICATE)  # fmt: skip
    if not (isinstance(branches, Items) and branches.items):
        return recorded, UNKNOWN
    return recorded, _branches("lax.switch", invoke, branches.items, operands, ctx)


Rule = Callable[[Invoke, Invoke, dict[str, Value], Context], tuple[tuple[Value, ...], Value]]
CONTROL: Mapping[str, tuple[tuple[str, ...], Rule]] = MappingProxyType({
    "jax.lax.scan": (("f", "init", "xs", "length", "reverse", "unroll"), _scan),
    "jax.lax.fori_loop": (("lower", "upper", "body_fun", "init_val"), _fori_loop),
    "jax.lax.while_loop": (("cond_fun", "body_fun", "init_val"), _while_loop),
    "jax.lax.map": (("f", "xs"), _map),
    "jax.lax.cond": (("pred", "true_fun", "false_fun", "*operands"), _cond),
    "jax.lax.switch": (("index", "branches", "*operands"), _switch),
})


def run(name: str, invoke: Invoke, quiet: Invoke, args: Sequence[Value], kwargs: dict[str, Value],
        ctx: Context) -> tuple[tuple[Value, ...], Value]:  # fmt: skip
    """The operands that decide ``name(*args, **kwargs)``'s dtypes, and its value; ``invoke``
    calls a function value, ``quiet`` does without recording what the call sees."""
    params, rule = CONTROL[name]
    bound: dict[str, Value] = {}
    for position, param in enumerate(params):
        if param.startswith("*"):
            bound[param[1:]] = Items(tuple(args[position:]), is_tuple=True)
            break
        if position < len(args):
            bound[param] = args[position]
    bound.update(kwargs)
    return rule(invoke, quiet, bound, ctx)

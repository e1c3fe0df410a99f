"""Values chosen by a test (``promolint.engine.symbolic.choice``): ``isinstance`` of a number is
what running it gives where the number's library settles it; a branch a known test never takes
leaves nothing after the ``if``; a test on a parameter (whether it is None, an isinstance test)
chooses the branch at each assignment of the variables, and an item of a dict parameter is a
variable of its own."""

from __future__ import annotations

import collections.abc
import textwrap
import typing

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from promolint.engine import calls
from promolint.engine.context import Context
from promolint.engine.flow.modes import Settings
from promolint.engine.symbolic import EvaluationState, Symbolic, passed_on, variable
from promolint.engine.symbolic.choice import FAILS, HOLDS, chosen
from promolint.engine.values import Array, Items, Library, Reference, Refusal, array, python_scalar
from promolint.engine.walker.analysis import analyze
from promolint.engine.walker.source import parse_bytes

# (what the engine is given, what running it is given) for each number and each type.
NUMBERS = {
    "numpy array": (array("float32", Library.NUMPY_ARRAY, ndim=1), np.ones(3, np.float32)),
    "jax array": (array("int8", Library.JAX, ndim=1), jnp.ones(3, jnp.int8)),
    "python float": (python_scalar("float", 2.0), 2.0),
    "python int": (python_scalar("int", 3), 3),
    "python bool": (python_scalar("bool", True), True),
}
TYPES = {
    "np.ndarray": (Reference("numpy.ndarray"), np.ndarray),
    "jax.Array": (Reference("jax.Array"), jax.Array),
    "float": (calls.resolve_reference("builtins.float"), float),
    "int": (calls.resolve_reference("builtins.int"), int),
    "bool": (calls.resolve_reference("builtins.bool"), bool),
    "slice": (Reference("builtins.slice"), slice),
    "(str, tuple)": (Items((Reference("builtins.str"), Reference("builtins.tuple")), is_tuple=True), (str, tuple)),
    "Sequence": (Reference("collections.abc.Sequence"), collections.abc.Sequence),
    "Mapping": (Reference("typing.Mapping"), typing.Mapping),
}


@pytest.mark.parametrize("kind", list(TYPES))
@pytest.mark.parametrize("number", list(NUMBERS))
def test_isinstance_of_a_number_is_what_running_it_gives(number, kind):
    engine_value, real_value = NUMBERS[number]
    engine_type, real_type = TYPES[kind]
    value, _ = calls.call_function("builtins.isinstance", [engine_value, engine_type], {}, Context())
    assert (value.dtypes, value.library) == (frozenset({"bool"}), Library.PYTHON)
    assert value.literal is isinstance(real_value, real_type)


def test_isinstance_of_a_numpy_scalar_and_a_python_type_is_not_claimed():
    """np.float64 is a float, np.float32 is not: the engine leaves it to the run."""
    value, _ = calls.call_function("builtins.isinstance",
                                   [array("float64", Library.NUMPY_SCALAR), calls.resolve_reference("builtins.float")],
                                   {}, Context())  # fmt: skip
    assert value.literal is None


STANDARD, STRICT = Settings(), Settings(promotion="strict")


def _values(text: str, settings: Settings = STANDARD) -> dict[str, object]:
    """The value of each assignment target, by its source text, at its last assignment."""
    source = parse_bytes(textwrap.dedent(text).encode(), None)
    analysis = analyze(source, settings)
    sites = sorted((s for s in analysis.sites.values() if s.target), key=lambda s: (s.node.lineno, s.node.col_offset))
    return {source.code(s.node): s.value for s in sites}


def test_a_branch_a_known_test_never_takes_is_no_value_after_it():
    values = _values("""
        import numpy as np
        import jax.numpy as jnp
        x = np.ones(3, np.int8)
        if isinstance(x, jnp.ndarray):
            y = x.astype(jnp.bfloat16)
        else:
            y = x.astype(np.float16)
        z = np.float32(1) if x is None else x
        if not isinstance(x, np.ndarray):
            w = jnp.asarray(x)
        else:
            w = x.astype(np.uint8)
        kept = w
    """)
    assert (values["y"].dtypes, values["y"].library) == (frozenset({"float16"}), Library.NUMPY_ARRAY)
    assert values["z"].dtypes == frozenset({"int8"})
    assert (values["kept"].dtypes, values["kept"].library) == (frozenset({"uint8"}), Library.NUMPY_ARRAY)


def _at(symbolic: Symbolic, **members) -> object:
    """``symbolic`` where each variable named in ``members`` is that member."""
    by_name = {var.name: var for var in symbolic.variables}
    assert set(by_name) == set(members), by_name
    return symbolic.at({by_name[name]: member for name, member in members.items()})


def test_a_value_chosen_by_whether_a_parameter_is_none_is_each_branch_where_it_runs():
    values = _values("""
        import numpy as np
        def shifted(x: np.ndarray, shift: np.ndarray | None = None, scale: np.ndarray | None = None):
            if shift is None:
                shift = np.zeros((), np.float16)
            after = shift
            fallback = x if scale is not None else np.ones(3, np.int8)
    """)
    shift, fallback = values["after"], values["fallback"]
    int16 = array("int16", Library.NUMPY_ARRAY, ndim=1)
    assert _at(shift, shift=int16, **{"shift is None": FAILS}) == int16
    assert _at(shift, shift=int16, **{"shift is None": HOLDS}).dtypes == frozenset({"float16"})
    uint8 = array("uint8", Library.NUMPY_ARRAY, ndim=1)
    assert _at(fallback, x=uint8, **{"scale is None": FAILS}) == uint8
    assert _at(fallback, x=uint8, **{"scale is None": HOLDS}).dtypes == frozenset({"int8"})


def test_a_value_chosen_by_an_isinstance_test_of_a_parameter_is_the_branch_a_number_takes():
    values = _values("""
        class Axis:
            def __init__(self, ticks):
                self.ticks = ticks
        def ticks_of(value):
            if isinstance(value, Axis):
                value = value.ticks
            found = value
    """)
    float16 = array("float16", Library.JAX, ndim=1)
    found = values["found"]
    assert _at(found, value=float16) == float16  # no number is an Axis: `value.ticks` is never read


def test_an_item_of_a_parameter_annotated_as_a_dict_is_a_variable_of_its_own():
    values = _values("""
        from typing import Any
        def select(indexers: dict[str, Any], key, other):
            value = indexers[key]
            named = indexers["x"]
            plain = other[key]
    """)
    assert values["value"].variable.key[1] == "indexers[*]"
    assert values["named"].variable.key[1] == "indexers['x']"
    assert values["plain"].variable is None  # an array indexed by a key of unknown value: no variable


def test_what_a_branch_a_known_test_rules_out_returns_is_not_returned():
    values = _values("""
        import numpy as np
        def export(obj=None, module="pkg"):
            if obj is None:
                return lambda x: export(x, module=module)
            obj.__module__ = module
            return obj
        def cast(x, exact=False):
            if exact:
                return x
            return x.astype(np.float32)
        y = cast(np.ones(3, np.int8))
    """)
    assert (values["y"].dtypes, values["y"].library) == (frozenset({"float32"}), Library.NUMPY_ARRAY)


def test_a_decorator_of_the_program_that_gives_back_what_it_is_given_keeps_it():
    """coordax's `@utils.export` (it sets `__module__` and returns its argument) on `is_coord`
    and on the class it tests; a decorator that wraps the function still hides it."""
    values = _values("""
        import numpy as np
        REGISTRY = []
        def export(obj=None, module="pkg"):
            if obj is None:
                return lambda x: export(x, module=module)
            obj.__module__ = module
            return obj
        def register(fn):
            REGISTRY.append(fn)
            return fn
        def wrapping(fn):
            def inner(x):
                return fn(x).astype(np.float16)
            return inner
        @export
        class Box:
            pass
        @export
        def is_box(v):
            return isinstance(v, Box)
        @register
        def half(x):
            return x / 2
        @wrapping
        def third(x):
            return x / 3
        def unboxed(v):
            if is_box(v):
                v = v.data
            return v
        y = unboxed(np.ones(3, np.int16))
        y2 = half(np.ones(3, np.float32))
        y3 = third(np.ones(3, np.float32))
    """)
    assert (values["y"].dtypes, values["y"].library) == (frozenset({"int16"}), Library.NUMPY_ARRAY)
    assert values["y2"].dtypes == frozenset({"float32"})
    assert type(values["y3"]).__name__ == "Unknown"


def test_a_name_that_is_none_or_an_array_is_the_array_where_a_test_says_it_is_not_none():
    values = _values("""
        import numpy as np
        def reordered(t: np.ndarray, done):
            order = None if done else np.argsort(t)
            if order is not None:
                t = t[order]
            kept = t
    """)
    float16 = array("float16", Library.NUMPY_ARRAY, ndim=1)
    kept = _at(values["kept"], t=float16)
    assert (kept.dtypes, kept.library) == (frozenset({"float16"}), Library.NUMPY_ARRAY)


def test_a_field_the_program_makes_with_none_or_an_array_is_a_variable_of_a_parameters_object():
    """jaxns's `BlockState.block_start` (`None if ... else arr` where the program makes it): read
    from a parameter annotated with the class, it is what the object holds, a variable of its own
    the shim settles, not the unknown join of None and an array."""
    values = _values("""
        import dataclasses
        import numpy as np
        @dataclasses.dataclass
        class State:
            start: np.ndarray | None = None
        def make(n, exact):
            start = None if exact else np.arange(n)
            return State(start)
        def read(state: State):
            got = state.start
    """)
    assert values["got"].variable.key[1] == "state.start"


def test_a_branch_that_raises_leaves_the_other_branch_s_value_where_the_test_is_not_known():
    """Either branch may run where a test's truth is unknown (`if not self.params.see_agent:`):
    where one raised, the program goes on only from the other, so the value after the `if` is
    that branch's (jaxmarl 0.2.0's maze observation: a bool grid's `.at[].set(uint8)` refuses
    under strict promotion, the other branch keeps the grid). It was unknown there, while with
    the variables unknown it was known: the engine knew less with every member given."""
    state = EvaluationState()
    unknown_bool = Array(frozenset({"bool"}), Library.PYTHON, False)  # a bool of unknown truth
    numpy_bool = Array(frozenset({"bool"}), Library.NUMPY_SCALAR, False, ndim=0)
    test = variable("see_agent", (1, "see_agent"), (unknown_bool, numpy_bool), state=state)
    grid = array("bool", Library.JAX, ndim=2)
    refused = Refusal("TypePromotionError", "Input dtypes ('bool', 'uint8') ...")
    value = chosen(test, refused, grid)
    (var,) = value.variables
    assert value.at({var: unknown_bool}) == grid
    assert chosen(test, grid, refused).at({var: unknown_bool}) == grid


def _run_strict(function, *args):
    """What ``function(*args)`` gives under strict promotion: its dtype, or the error's name."""
    try:
        with jax.numpy_dtype_promotion("strict"):
            return str(function(*args).dtype)
    except jax.dtypes.TypePromotionError as error:  # what the branch that raises raises
        return type(error).__name__


def test_after_an_if_of_unknown_truth_a_name_holds_what_the_branch_that_did_not_raise_left():
    """Where one branch raised, the program goes on after the `if` only from the other: the name
    holds that branch's value, not the unknown join of a value and a refusal."""
    assert _run_strict(lambda: jnp.zeros(3, jnp.uint8) / 10.0) == "TypePromotionError"  # jax 0.10.2
    assert _run_strict(lambda: jnp.ones(3, jnp.float32)) == "float32"
    values = _values("""
        import jax.numpy as jnp
        from settings import PRECISE  # a flag of unknown truth, no parameter's
        def scale(x):
            if PRECISE:
                y = jnp.zeros(3, jnp.uint8) / 10.0
            else:
                y = jnp.ones(3, jnp.float32)
            z = y
    """, STRICT)
    assert values["z"] == array("float32", Library.JAX, ndim=1)


def test_and_or_hold_the_first_operand_where_only_the_second_raises_and_raise_where_the_first_does():
    """`a and b` (`a or b`) raises where `a` raises, `b` never runs; where only `b` raises, the
    program goes on only with `a` (a falsy one): a parameter that is a Python scalar has no
    `.shape`, so `loc is not None and loc.shape[-1] == 3` is the Python bool `loc is not None`
    wherever it does not raise."""
    def check(loc):
        return loc is not None and loc.shape[-1] == 3
    assert check(None) is False
    assert type(check(np.ones(3, np.float32))) is bool and type(check(jnp.ones(2, jnp.int8))) is bool
    with pytest.raises(AttributeError):
        check(2.0)
    values = _values("""
        import jax.numpy as jnp
        def check(loc):
            ok = loc is not None and loc.shape[-1] == 3
            first = (jnp.zeros(3, jnp.uint8) / 10.0) and loc
    """, STRICT)
    ok = values["ok"]
    for assignment in ok.assignments():
        assert ok.at(assignment) == python_scalar("bool"), assignment
    assert isinstance(values["first"], Refusal) and passed_on(values["first"])  # reported where it raised

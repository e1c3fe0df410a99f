"""The run-time shim: instrumented programs report, per site, whether promolint's prediction
held (agree), failed (disagree) or was missing (unknown); it never changes what they compute."""

from __future__ import annotations

import collections
import importlib.util
import json
import sys
import types
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from promolint.runtime import (
    AcceleratorX64Warning,
    PromotionMismatch,
    PromotionMismatchWarning,
    ShimError,
    ShimWarning,
    verify,
    verifying,
)
from promolint.runtime import observe, units
from promolint.runtime.hook import run_path
from promolint.runtime.predict import Predictor
from promolint.runtime.session import Session, SiteRecord, judge

EXAMPLES = Path(__file__).resolve().parent / "examples"
State = collections.namedtuple("State", "count inner")


@pytest.fixture(scope="module")
def functions():
    """examples/jax_functions.py, imported once (its @verify functions instrument themselves)."""
    spec = importlib.util.spec_from_file_location("promolint_example_functions", EXAMPLES / "jax_functions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outcomes(session, path: str | Path | None = None) -> dict[str, set[str]]:
    """Site text -> the outcomes its records had."""
    found: dict[str, set[str]] = {}
    for record in session.records.values():
        if path is None or record.path == str(path):
            found.setdefault(record.text, set()).add(record.outcome)
    return found


# --- outcomes -------------------------------------------------------------------------------
def test_script_sites_agree_except_the_one_promolint_cannot_type(capsys):
    script = EXAMPLES / "numpy_script.py"
    with verifying(mode="report") as session:
        run_path(str(script), [])
    seen = outcomes(session, script.resolve())
    unknown = {'np.einsum("i,i->", weights, weights)', "total"}  # einsum is not in the catalog; total holds it
    assert {text for text, kinds in seen.items() if kinds == {"unknown"}} == unknown
    assert all(kinds == {"agree"} for text, kinds in seen.items() if text not in unknown), seen
    assert seen["centered / scale"] == {"agree"}  # in a function: typed from the call's arguments
    assert session.counts()["disagree"] == 0
    assert capsys.readouterr().out == "float64 5 3.0 4.0\n"  # the script ran, with its own values


def test_verify_types_parameters_from_each_call(functions):
    with verifying(mode="report") as session:
        functions.scale(jnp.ones(3, jnp.int8), 2.5)
        functions.scale(np.ones(3, np.float16), 2)
    by_arguments = {(r.text, r.arguments): r for r in session.records.values()}
    jax_call = by_arguments["x * factor", "x: int8 [jax], factor: weak float [python]"]
    assert (jax_call.observed["dtype"], jax_call.observed["weak"], jax_call.outcome) == ("float32", True, "agree")
    numpy_call = by_arguments["scaled + np.float32(1)", "x: float16 [numpy-array], factor: weak int [python]"]
    assert (numpy_call.observed["dtype"], numpy_call.observed["library"], numpy_call.outcome) == (
        "float32", "numpy-array", "agree")  # fmt: skip
    assert session.counts()["disagree"] == 0


def test_unknown_sites_are_reported_as_such(functions):
    with verifying(mode="report") as session:
        functions.opaque(jnp.ones(3))
    seen = outcomes(session)
    assert seen['np.einsum("i->", np.asarray(x))'] == {"unknown"}
    assert seen["np.asarray(x)"] == {"agree"}


def test_methods_closures_and_generators_run_instrumented(functions):
    with verifying(mode="report") as session:
        assert float(functions.Child(1.5).apply(jnp.float32(1))) == 5.0  # super() and a mangled name
        assert functions.make_offset(np.int16(2))(np.ones(3, np.int8)).dtype == np.int16  # a closure cell
        assert [float(v) for v in functions.squares(3)] == [0.0, 1.0, 4.0]
    seen = outcomes(session)
    assert seen["x + offset"] == {"unknown"}  # the engine does not follow closure cells
    assert seen["jnp.float32(i) ** 2"] == {"agree"}
    assert session.counts()["disagree"] == 0


def test_instrumentation_changes_no_value(functions):
    cases = [
        (functions.scale, (jnp.ones(3, jnp.int8), 2.5)),
        (functions.scale, (np.ones(3, np.float16), 2)),
        (functions.accumulate, (jnp.arange(6, dtype=jnp.int16).reshape(2, 3),)),
        (functions.mix, (np.int8(100), 100)),  # wraps around, warning or not: the same either way
    ]
    with verifying(mode="report"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for function, arguments in cases:
            checked, plain = function(*arguments), function.__wrapped__(*arguments)
            assert type(checked) is type(plain) and checked.dtype == plain.dtype
            np.testing.assert_array_equal(np.asarray(checked), np.asarray(plain))
    with verifying(mode="report"), pytest.raises(TypeError):
        functions.mix("a", 1)  # the program's own exception passes through unchanged


def test_prng_keys_are_unchecked_not_shim_errors(functions):
    """A key array from jax.random.key has dtype key<fry> and no weak_type: it is filed as
    unchecked, eagerly and under jit (a tracer of a key), and never becomes a shim error."""
    with verifying(mode="raise") as session:  # raise mode: a shim error would raise
        functions.noisy(jax.random.key(0), jnp.ones(3))
        jax.jit(functions.noisy)(jax.random.key(1), jnp.ones(3))
    seen = outcomes(session)
    for text in ("key", "jax.random.split(key)", "keys", "keys[0]"):
        assert seen[text] == {"unchecked"}, text
    assert {r.observed["dtype"] for r in session.records.values() if r.outcome == "unchecked"} == {"key<fry>"}
    assert seen["x + jax.random.normal(keys[0], x.shape)"] == {"agree"}
    counts = session.counts()
    assert counts["shim_errors"] == 0 and counts["disagree"] == 0
    assert counts["unchecked"] == sum(r.outcome == "unchecked" for r in session.records.values()) >= 8
    # Coverage counts the array sites only: `x` twice, the normal draw and the sum.
    assert session.coverage() == {"array_sites": 4, "predicted_sites": 4}


def test_coverage_counts_a_site_predicted_only_where_no_record_is_unknown():
    """A record whose prediction is "the dtype of x", x not given the call's type, is judged
    unknown: its site is not predicted, whatever dtype text the prediction carries."""
    session = Session(mode="report")
    observed = {"dtype": "float32", "weak": False, "library": "jax", "error": None, "platform": "cpu"}
    kept = {"dtype": "float32", "weak": None, "library": None, "error": None, "variable": "x", "depends": ["x"]}
    claimed = {"dtype": "float32", "weak": False, "library": "jax", "error": None}
    for line, predicted in ((1, kept), (2, claimed)):
        record = SiteRecord("m.py", line, 1, line, 2, "x", "x64 off", observed, predicted, judge(predicted, observed))
        session.file(("m.py", line), record)
    assert [r.outcome for r in session.records.values()] == ["unknown", "agree"]
    assert session.coverage() == {"array_sites": 2, "predicted_sites": 1}


def test_legacy_uint32_keys_are_checked(functions):
    with verifying(mode="report") as session:
        functions.noisy(jax.random.PRNGKey(0), jnp.ones(3))
    key = [r for r in session.records.values() if r.text == "key"]
    assert [(r.observed["dtype"], r.outcome) for r in key] == [("uint32", "agree")]


def test_predicting_from_the_code_alone_evaluates_what_depends_on_parameters_at_each_call(functions):
    """`scale` has no annotations and no caller in its module: from the code alone its parameters
    are variables and `x * factor` a function of them, which each call evaluates at its own
    argument types; typed from the call's arguments it agrees as well."""
    arguments = (jnp.ones(3, jnp.int8), 2.5)
    with verifying(mode="report") as seeded:
        functions.scale(*arguments)
    with verifying(mode="report", predict="code") as code:
        functions.scale(*arguments)
    assert outcomes(seeded)["x * factor"] == {"agree"}
    assert outcomes(code)["x * factor"] == {"agree"}
    assert outcomes(code)["np.float32(1)"] == {"agree"}  # what holds whatever the parameters are
    seeded_coverage, code_coverage = seeded.coverage(), code.coverage()
    assert seeded_coverage["array_sites"] == code_coverage["array_sites"]
    assert code_coverage["predicted_sites"] == seeded_coverage["predicted_sites"] == seeded_coverage["array_sites"]
    assert code.to_json()["predict"] == "code" and "predicted from the code" in code.summary()


def test_from_the_code_alone_parameters_are_the_arguments_the_call_passed(monkeypatch):
    """examples/code_alone.py, imported through the hook: `x = x * scale` assigns to a parameter
    (the types are taken when the call begins, not read off the frame later); `update` reads
    `decay` through its closure after make_update returned; `one` reads a `factor` that
    scaled_rows assigned, known from scaled_rows' call, still running; a leaf of `updates` has
    the type of every leaf of the pytree passed, where they have one; `state.count`, an attribute
    no number has, is what the object passed holds there, as are the fields of a `tree: Tree`
    nothing else types, and those of a `carry: Carry` the module makes with a value it does not
    know (brax's and jaxmarl's states), and of an element of a tuple parameter (craftax's
    `rng, state = rng_and_state`: `rng_and_state[1].zombies.cooldown`).  The runtime primer's optax, chex, mctx and interpax sites
    were unknown there."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "code_alone", raising=False)
    with verifying(mode="report", predict="code", include=["code_alone"]) as session:
        import code_alone

        code_alone.normalized(jnp.ones(3, jnp.bfloat16), 3)
        code_alone.normalized(np.ones(3, np.float32), np.float64(2))
        code_alone.make_update(jnp.float16(0.9))(jnp.ones(2, jnp.float32))
        code_alone.make_update(0.5)(jnp.ones(2, jnp.int8))
        code_alone.scaled_rows(jnp.ones((2, 3), jnp.int16), 1.5)
        code_alone.scaled_tree({"a": jnp.ones(2, jnp.bfloat16), "b": [jnp.zeros(3, jnp.bfloat16)]}, 0.5)
        code_alone.sum_of_squares((np.ones(2, np.float32), np.ones(3, np.float32)))
        code_alone.incremented(State(jnp.int32(3), types.SimpleNamespace(scale=np.float16(2))))
        code_alone.incremented(State(5, types.SimpleNamespace(scale=jnp.ones(2, jnp.bfloat16))))
        code_alone.bonus(code_alone.Tree(jnp.ones(3, jnp.int32), 2), jnp.int32(1))
        code_alone.bonus(code_alone.Tree(np.ones(3, np.float16), np.int8(2)), 0)
        code_alone.raised(code_alone.start(jnp.ones(2, jnp.bfloat16)))
        code_alone.raised(code_alone.Carry(np.ones(2, np.uint8), jnp.int32(1)))
        mobs = types.SimpleNamespace(zombies=types.SimpleNamespace(cooldown=jnp.ones(3, jnp.int16)))
        code_alone.cooled((jax.random.PRNGKey(0), mobs), 1)
        mobs = types.SimpleNamespace(zombies=types.SimpleNamespace(cooldown=np.ones(3, np.uint8)))
        code_alone.cooled((None, mobs), jnp.int32(2))
    seen = outcomes(session)
    for text in ("x * scale", "x / 2", "grad * decay", "decay", "row * factor", "g * lr", "leaf**2",
                 "state.count + 1", "state.inner.scale * 2", "jnp.log(visits + 1.0)", "tree.embedding + 1",
                 "carry.level * 2", "carry.count + 1", "zombies.cooldown[index] - 1"):  # fmt: skip
        assert seen[text] == {"agree"}, (text, seen)
    assert {r.observed["dtype"] for r in session.records.values() if r.text == "x / 2"} == {"bfloat16", "float64"}
    assert {r.observed["dtype"] for r in session.records.values() if r.text == "grad * decay"} == {"float32"}
    assert {r.observed["dtype"] for r in session.records.values() if r.text == "g * lr"} == {"bfloat16"}
    assert session.counts()["disagree"] == 0
    assert "decay (line 18): float16 [jax]" in {r.arguments.split(", ")[-1] for r in session.records.values()}
    with verifying(mode="report", predict="code") as mixed:  # leaves of two types: nothing to evaluate at
        code_alone.scaled_tree({"a": jnp.ones(2, jnp.float32), "b": jnp.ones(2, jnp.int8)}, 2)
    assert outcomes(mixed)["g * lr"] == {"unknown"}
    with verifying(mode="report", predict="code") as unsortable, pytest.raises(ValueError):
        code_alone.scaled_leaves({1: jnp.ones(2), "a": jnp.ones(2)}, 2)  # JAX cannot sort its keys: nor can the shim
    assert unsortable.counts()["shim_errors"] == 0  # chex's tests of such trees had 3


def test_a_prediction_as_a_parameter_the_call_does_not_assign_is_unknown_not_a_disagreement(functions):
    """A lambda's parameter is a variable of the lambda: "the dtype of leaf" says "as leaf is",
    which a record of doubled_leaves' call cannot check (the runtime primer counted hundreds
    of these as disagreements in chex's asserts)."""
    for predict in ("arguments", "code"):
        with verifying(mode="report", predict=predict) as session:
            functions.doubled_leaves({"a": jnp.ones(2, jnp.float32), "b": jnp.ones(2, jnp.int8)})
        assert outcomes(session)["leaf"] == {"unknown"}, predict


def test_a_python_default_is_no_claim_when_a_call_passes_an_array(functions):
    """`y=0.0` says "some float", not "a Python float": `distance_between` passes a float32 array
    (optax's `_l2`, docs/runtime.md limitation 3). From the code alone `y` was claimed a weak
    Python float, which this call disagreed with."""
    with verifying(mode="report", predict="code") as session:
        functions.distance_between(jnp.ones(3, jnp.float32), jnp.zeros(3, jnp.float32))
    seen = outcomes(session)
    assert session.counts()["disagree"] == 0, seen
    assert seen["y"] == seen["jnp.square(x - y).sum()"] == {"agree"}  # each call evaluates them


def test_a_numpy_ufunc_of_unknown_operands_is_not_claimed_an_array(monkeypatch):
    """examples/numpy_unknown_operands.py (coordax, docs/runtime.md limitation 8): `np.abs` of
    operands nothing is known of may be a NumPy scalar, and so may a comparison of two of them:
    `np.False_` here, where the code alone claimed a bool NumPy array."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "numpy_unknown_operands", raising=False)
    with verifying(mode="report", predict="code", include=["numpy_unknown_operands"]) as session:
        import numpy_unknown_operands

        assert type(numpy_unknown_operands.nearest({"x": 2}, np.arange(5))) is np.bool_
        numpy_unknown_operands.closer(np.ones(3), np.zeros(3))
    assert session.counts()["disagree"] == 0, outcomes(session)


def test_predictions_that_depend_on_arguments_without_a_dtype_are_evaluated(monkeypatch):
    """examples/opaque_arguments.py: a str, a dtype and None passed as arguments are read as the
    engine reads them in code, so the code-alone predictions that depend on them (an einsum's
    spec, a `dtype=`) are evaluated at the call, and agree: none is unknown."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "opaque_arguments", raising=False)
    with verifying(mode="report", predict="code", include=["opaque_arguments"]) as session:
        import opaque_arguments

        opaque_arguments.contract("i,i->", jnp.ones(3, jnp.float16), jnp.ones(3, jnp.float16))
        opaque_arguments.make(3, jnp.bfloat16)
        opaque_arguments.make(2, "int8")
        opaque_arguments.make(2, np.dtype("float32"))
        opaque_arguments.pick(jnp.ones(2, jnp.int8), None)
    counts = session.counts()
    assert (counts["disagree"], counts["unknown"]) == (0, 0), outcomes(session)
    arguments = {r.arguments for r in session.records.values() if r.text == "jnp.zeros(n, dtype)"}
    assert arguments == {"n: weak int [python], dtype: dtype bfloat16", "n: weak int [python], dtype: 'int8'",
                         "n: weak int [python], dtype: dtype float32"}


def test_predictions_that_depend_on_a_lambdas_parameters_are_evaluated_at_its_call(monkeypatch):
    """examples/lambda_parameters.py (chex's comparators): a lambda the analysis never calls has
    its parameters as variables of their own, keyed by where it starts, so each call evaluates
    its sites: lambdas alone on their line, two on one line (told apart by where their bodies
    start), returned by a function, and those the analysis calls where they are defined."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "lambda_parameters", raising=False)
    with verifying(mode="report", predict="code", include=["lambda_parameters"]) as session:
        import lambda_parameters

        lambda_parameters.double(jnp.ones(3, jnp.bfloat16))
        lambda_parameters.double(np.ones(3, np.int8))
        lambda_parameters.widen(jnp.ones(2, jnp.int8))
        lambda_parameters.narrow(jnp.ones(2, jnp.int8))
        lambda_parameters.comparator(True)(jnp.ones(2, jnp.int32), jnp.ones(2, jnp.int32))
        lambda_parameters.comparator(False)(jnp.ones(2, jnp.float16), jnp.ones(2, jnp.float16))
        lambda_parameters.pair(jnp.ones(2, jnp.int8))
        lambda_parameters.curried(jnp.ones(2, jnp.float16))
    counts = session.counts()
    assert (counts["disagree"], counts["unknown"]) == (0, 0), outcomes(session)
    narrowed = [r for r in session.records.values() if r.text == "x.astype(jnp.float16) * x"]
    assert [(r.predicted["dtype"], r.arguments) for r in narrowed] == [("float16", "x: int8 [jax]")]


def test_predictions_that_depend_on_a_callers_parameters_are_evaluated_at_its_running_call(monkeypatch):
    """examples/caller_values.py (dinosaur's regridders): the analysis passes the method's
    `field` down into `_interpolate`, so `fp` there is "the dtype of field", a parameter of the
    method; the shim reads it from the method's call on the stack."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "caller_values", raising=False)
    with verifying(mode="report", predict="code", include=["caller_values"]) as session:
        import caller_values

        levels = [caller_values.Levels(np.linspace(0, 1, 4, dtype=dtype)) for dtype in (np.float32, np.float16)]
        caller_values.Regridder(*levels)(np.ones(4, np.float16))
    assert session.counts()["disagree"] == 0, outcomes(session)
    products = [r for r in session.records.values() if r.text == "fp * weights"]
    assert [(r.outcome, r.predicted["dtype"]) for r in products] == [("agree", "float32")]
    assert "field (line 19): float16 [numpy-array]" in products[0].arguments


def test_predictions_that_depend_on_attributes_of_self_of_no_known_dtype_are_evaluated(monkeypatch):
    """examples/fields_of_unknown.py (dinosaur's HeldSuarezForcingSigma): `__init__` assigns
    `self.sigma` and `self.scale` values of no known dtype; the methods' reads of them are
    variables of their own, which the shim reads from the object each call is given."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "fields_of_unknown", raising=False)

    class Quantity:
        def __init__(self, magnitude):
            self.magnitude = magnitude

    with verifying(mode="report", predict="code", include=["fields_of_unknown"]) as session:
        import fields_of_unknown

        forcing = fields_of_unknown.Forcing([0.5, 0.25], Quantity(np.float32(2.0)))
        forcing.relax(np.ones(2, np.float32))
        forcing.weights()
        narrow = fields_of_unknown.Forcing(np.arange(3, dtype=np.int8), Quantity(3))
        narrow.relax(np.ones(3, np.float16))
        narrow.weights()
    assert session.counts()["disagree"] == 0, outcomes(session)
    relaxed = {r.predicted["dtype"]: r.outcome for r in session.records.values()
               if r.text == "temperature - self.sigma * self.scale"}  # fmt: skip
    assert relaxed == {"float64": "agree", "float16": "agree"}
    assert all(r.outcome == "agree" for r in session.records.values() if r.line > 12), outcomes(session)


def test_what_an_object_of_a_parameter_holds_is_read_from_the_object_each_call_is_given(monkeypatch):
    """examples/objects_of_parameters.py (coordax's NamedArray): `named.data` in a function whose
    parameter is annotated with the class, and `self.data` in a method, both through a property
    over an attribute the constructor converts, and through an object such an object holds (a
    Field's NamedArray); unknown before, whichever read came first."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "objects_of_parameters", raising=False)
    with verifying(mode="report", predict="code", include=["objects_of_parameters"]) as session:
        import objects_of_parameters as module

        module.shifted(module.Named(np.ones(3, np.float32)), np.float16(1))
        module.Named(np.arange(3, dtype=np.int8)).scaled(2)
        module.Named(np.ones(2, np.float16)).scaled(np.ones(2, np.float32))
        module.Labelled(np.ones(2, np.float16)).halved()
    assert session.counts()["disagree"] == 0, outcomes(session)
    found = {(r.text, r.outcome, r.predicted["dtype"]) for r in session.records.values()
             if r.text in ("named.data + shift", "self.data * factor", "self.data / 2")}  # fmt: skip
    assert found == {("named.data + shift", "agree", "float32"), ("self.data * factor", "agree", "int8"),
                     ("self.data * factor", "agree", "float32"), ("self.data / 2", "agree", "float16")}, \
        outcomes(session)  # fmt: skip


def test_predictions_chosen_by_a_test_on_the_arguments_are_evaluated_at_the_branch_the_call_takes(monkeypatch):
    """examples/chosen_values.py (coordax's map_indexers_using_ticks): `ticks` is the argument
    where one is given and the axis's own where None is; `indexers[key]` is any item of a dict
    whose items share one type; an isinstance test of one of the program's classes fails for a
    number.  Without the choice, each of these sites is the join of both branches: unknown."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "chosen_values", raising=False)
    with verifying(mode="report", predict="code", include=["chosen_values"]) as session:
        import chosen_values

        axis = chosen_values.Axis([10, 20, 30])
        chosen_values.nearest(axis, {"x": np.int16(22)}, np.arange(0, 40, 10, dtype=np.int32))
        chosen_values.nearest(axis, {"x": 22, "y": 5}, np.arange(4, dtype=np.float32))
        chosen_values.shifted(np.ones(3, np.float32))
        chosen_values.shifted(np.ones(3, np.float32), np.ones((), np.int8))
    assert session.counts()["disagree"] == 0, outcomes(session)
    distances = {(r.outcome, r.predicted["dtype"], r.predicted["library"]) for r in session.records.values()
                 if r.text == "np.abs(value - ticks[right])"}  # fmt: skip
    # run: np.int16 less an int32 tick is an int32 scalar; 22 less a float32 tick a float32 one
    assert distances == {("agree", "int32", "numpy-scalar"), ("agree", "float32", "numpy-scalar")}, distances
    sums = {(r.outcome, r.predicted["dtype"]) for r in session.records.values() if r.text == "x + shift"}
    assert sums == {("agree", "float32")}, sums


def test_the_items_of_a_mapping_that_is_no_dict_are_not_read(monkeypatch):
    """The shim reads a dict parameter's items (`values['scale']`) where the code reads them; a
    defaultdict's `__getitem__` would add the key it is asked for, so other mappings are left
    alone (their items stay unknown)."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delitem(sys.modules, "chosen_values", raising=False)
    values = collections.defaultdict(int, {"x": np.ones(3, np.float32)})
    with verifying(mode="report", predict="code", include=["chosen_values"]) as session:
        import chosen_values

        chosen_values.scaled(values)
        chosen_values.scaled({"x": np.ones(3, np.float16), "scale": np.float16(2)})
    assert list(values) == ["x"]  # read at `values["scale"]`, the defaultdict would hold it
    assert session.counts()["disagree"] == 0, outcomes(session)
    products = {r.outcome for r in session.records.values() if r.text == 'values["x"] * values["scale"]'}
    assert products == {"agree"}, outcomes(session)


def test_an_unknown_prediction_mode_is_refused():
    with pytest.raises(ValueError, match="predict must be one of arguments, code"):
        with verifying(predict="guess"):
            pass


# --- disagreements --------------------------------------------------------------------------
@pytest.fixture
def planted(monkeypatch):
    """Make the engine predict int64 at every `x * factor`: a disagreement wherever it runs."""
    original = units.ModuleUnit.prediction

    def prediction(self, site, mode, owner, signature):
        if self.texts[site] == "x * factor":
            return {"dtype": "int64", "weak": False, "library": "jax", "error": None}
        return original(self, site, mode, owner, signature)

    monkeypatch.setattr(units.ModuleUnit, "prediction", prediction)


def test_planted_disagreement_raises_in_raise_mode(functions, planted):
    with verifying(mode="raise") as session, pytest.raises(PromotionMismatch) as raised:
        functions.scale(jnp.ones(3, jnp.float32), 2.0)
    record = raised.value.record
    assert (record.text, record.outcome, record.observed["dtype"], record.predicted["dtype"]) == (
        "x * factor", "disagree", "float32", "int64")  # fmt: skip
    assert "jax_functions.py:12:14: `x * factor` is float32 [jax] at run time; promolint predicted int64 [jax]" in str(
        raised.value
    )
    assert session.mismatches == [record]


def test_planted_disagreement_warns_once_in_warn_mode(functions, planted):
    with verifying(mode="warn") as session, pytest.warns(PromotionMismatchWarning, match="x \\* factor") as caught:
        first = functions.scale(jnp.ones(3, jnp.float32), 2.0)
        second = functions.scale(jnp.ones(3, jnp.float32), 2.0)
    assert len([w for w in caught if issubclass(w.category, PromotionMismatchWarning)]) == 1
    assert float(first) == float(second) == 4.5  # warn mode: the program goes on, unchanged
    assert session.counts()["disagree"] == 1


def test_report_mode_writes_json(functions, planted, tmp_path):
    report = tmp_path / "runtime.json"
    with verifying(mode="report", report=report):
        functions.scale(jnp.ones(3, jnp.float32), 2.0)
    data = json.loads(report.read_text())
    assert data["counts"]["disagree"] == 1 and data["counts"]["agree"] > 5
    assert [m["text"] for m in data["mismatches"]] == ["x * factor"]
    assert {s["outcome"] for s in data["sites"]} == {"agree", "disagree"}


# --- jit and modes --------------------------------------------------------------------------
def test_checks_run_while_tracing_under_jit(functions):
    with verifying(mode="report") as session:
        functions.jitted_scale(jnp.ones(3, jnp.float32), 2.0)
        traced = session.counts()["evaluations"]
        functions.jitted_scale(jnp.ones(3, jnp.float32), 3.0)  # same types: the compiled code runs, unchecked
        assert session.counts()["evaluations"] == traced
        functions.jitted_scale(jnp.ones(3, jnp.bfloat16), 2.0)  # new types: traced, so checked again
    inside = [r for r in session.records.values() if r.text == "x * factor"]
    assert {r.observed["dtype"] for r in inside} == {"float32", "bfloat16"}
    assert all(r.observed["platform"] is None and r.outcome == "agree" for r in inside)  # tracers live nowhere yet
    assert session.counts()["disagree"] == 0


def test_a_weak_base_to_a_0d_jax_exponent_under_jit_and_outside(functions):
    """optax's `decay**count` (docs/runtime.md limitation 1): a 0-d int32 exponent is concrete
    called directly (the result keeps the weak base's flag) and traced under jax.jit (the result
    is strong).  The code alone cannot tell which: the dtype is claimed, the weak flag left open,
    and neither run disagrees (it did before: weak float32 claimed, strong seen under jit)."""
    with verifying(mode="report", predict="code") as session:
        functions.corrected(jnp.int32(3))
        functions.jitted_bias_correction(0.9, jnp.int32(3))
    inside = [r for r in session.records.values() if r.text == "decay**count"]
    assert {r.observed["weak"] for r in inside} == {True, False}
    assert session.counts()["disagree"] == 0, outcomes(session)


def test_modes_are_read_when_each_value_is_checked(functions):
    with verifying(mode="report") as session:
        functions.mix(jnp.ones(3, jnp.int32), 1.5)
        with jax.enable_x64(True):
            functions.mix(jnp.ones(3, jnp.int32), 1.5)
    by_mode = {r.jax_mode: r for r in session.records.values() if r.text == "a + b"}
    assert by_mode["x64 off, standard promotion"].observed["dtype"] == "float32"
    assert by_mode["x64 on, standard promotion"].observed["dtype"] == "float64"
    assert {r.outcome for r in by_mode.values()} == {"agree"}


def test_a_predicted_refusal_that_happens_agrees(functions):
    with verifying(mode="raise") as session, jax.numpy_dtype_promotion("strict"):
        with pytest.raises(jax.dtypes.TypePromotionError):
            functions.mix(jnp.ones(3, jnp.int8), jnp.ones(3, jnp.float16))
    (raised,) = session.raised.values()
    assert (raised.error, raised.outcome, raised.predicted) == ("TypePromotionError", "agree", ["TypePromotionError"])


# --- devices ------------------------------------------------------------------------------
class _Device:
    def __init__(self, platform: str):
        self.platform = platform


class _FakeAccelerated:
    """Quacks like a concrete JAX array on one device."""

    def __init__(self, platform: str):
        self._platform = platform

    def devices(self):
        return {_Device(self._platform)}


class _FakeTracer:
    def devices(self):
        raise TypeError("a tracer has no devices")  # JAX raises ConcretizationTypeError, a TypeError


def test_the_device_platform_is_the_arrays_own_and_none_for_a_tracer(monkeypatch):
    monkeypatch.setitem(observe.KINDS, _FakeAccelerated, "jax")
    monkeypatch.setitem(observe.KINDS, _FakeTracer, "jax")
    assert observe.device_platform(_FakeAccelerated("gpu")) == "gpu"
    assert observe.device_platform(_FakeAccelerated("tpu")) == "tpu"
    assert observe.device_platform(_FakeTracer()) is None
    # On the default device, whichever this machine has: the tests pass with a GPU and without.
    assert observe.device_platform(jnp.ones(3)) == jax.devices()[0].platform
    assert observe.device_platform(np.ones(3)) == "cpu"


def test_cupy_arrays_are_observed_on_the_gpu(monkeypatch):
    fake = types.ModuleType("cupy")

    class ndarray:  # noqa: N801 - CuPy's name
        dtype = np.dtype("float64")

    fake.ndarray = ndarray
    monkeypatch.setitem(sys.modules, "cupy", fake)
    observed = observe.observe_value(ndarray())
    assert (observed["dtype"], observed["library"], observed["platform"]) == ("float64", "cupy", "gpu")
    observe.KINDS.pop(ndarray, None)


def test_64_bit_arrays_on_an_accelerator_are_flagged(functions, monkeypatch):
    monkeypatch.setattr(observe, "device_platform", lambda value: "gpu")
    monkeypatch.setattr(units, "device_platform", lambda value: "gpu")
    with verifying(mode="report") as session, jax.enable_x64(True), pytest.warns(AcceleratorX64Warning):
        functions.mix(jnp.ones(3, jnp.float64), 1.0)
    flagged = {r.text for r in session.accelerator_x64}
    assert {"a", "a + b"} <= flagged
    assert all(r.observed["platform"] == "gpu" for r in session.accelerator_x64)
    assert session.counts()["accelerator_x64"] == len(session.accelerator_x64)


# --- failures of the shim ---------------------------------------------------------------------
def test_a_failing_prediction_is_reported_and_the_value_kept(functions, monkeypatch):
    def broken(self, mode, target=None, signature=()):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(Predictor, "predict", broken)
    fresh = verify(_add_one)
    with verifying(mode="warn") as session, pytest.warns(ShimWarning, match="engine exploded"):
        assert fresh(np.int8(1)) == 2
    assert session.shim_errors and "engine exploded" in session.shim_errors[0]["error"]
    with verifying(mode="raise"), pytest.raises(ShimError, match="engine exploded"):
        fresh(np.int16(1))  # a new type: predicted anew, and the failure raised


def _add_one(x):
    return x + 1


def test_verify_refuses_what_it_cannot_instrument(monkeypatch):
    with pytest.raises(TypeError, match="directly above `def`"):
        verify(lambda x: x)
    with pytest.raises(TypeError, match="directly above `def`"):
        verify(jax.jit(_add_one))
    monkeypatch.setenv("PROMOLINT_VERIFY", "0")
    assert verify(_add_one) is _add_one

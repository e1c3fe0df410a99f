"""The run-time shim: observing values, and instrumenting source without changing what it does."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from promolint.runtime.instrument import Recorder, instrument, observe

TRICKY = textwrap.dedent(
    """
    import functools
    x = [1, 2, 3]
    a, (b, *c) = 1, (2, 3, 4)
    x[0] += 5
    total = 0
    total += sum(v * 2 for v in x if v > 1)
    squares = {k: k ** 2 for k in range(3)}
    label = f"{total:>5}{a!r}"
    def f(p, q=2.0, *args, key=None, **kw):
        global total
        return p * q
    @functools.lru_cache(maxsize=None)
    def g(n):
        return n + 1
    class C:
        scale = 3
        doubled = scale * 2
        values = [v for v in [scale, doubled]]
    if (n := len(x)) > 2:
        m = n
    del a
    lam = lambda y=1: y + 1
    r = f(*x[:2], key=1, **{"z": 3})
    out = (g(1), lam(), C.doubled, C.values, squares, label, r, m, b, c, total, x)
    pairs = [(i, j) for i in range(2) for j in range(i)]
    s = x[1:2], x[::-1]
    t = 1,
    with open(__file__ if False else "/dev/null") as handle:
        pass
    try:
        1 / 0
    except ZeroDivisionError as error:
        caught = type(error).__name__
    """
)


def _run(code: str, recorder: Recorder | None = None) -> dict:
    namespace = {"__name__": "__snippet__", **(recorder.namespace() if recorder else {})}
    exec(compile(code, "<snippet>", "exec"), namespace)
    return namespace


def test_instrumenting_every_expression_keeps_the_program_s_meaning():
    plain = _run(TRICKY)
    code, sites = instrument(TRICKY)
    recorder = Recorder()
    wrapped = _run(code, recorder)
    assert wrapped["out"] == plain["out"]
    assert wrapped["pairs"] == plain["pairs"] and wrapped["s"] == plain["s"] and wrapped["t"] == plain["t"]
    assert wrapped["caught"] == "ZeroDivisionError"
    assert len(sites) > 50 and recorder.observations
    # Positions that are not values stay as they were.
    assert "), 0)] += " in code  # x[0] += 5: the subscript's parts are values, the target is not
    for text in ("a, (b, *c) =", "for v in __promolint_check__", "@functools.lru_cache(maxsize=None)", "key=__promolint_check__",
                 "global total", "del a", "as handle", "as error", "(n := "):
        assert text in code, text


def test_only_the_given_spans_are_wrapped_and_ids_map_back_to_them():
    source = "y = 1 + 2.5\n"
    code, sites = instrument(source, [(1, 5, 1, 12), (1, 9, 1, 12)])
    assert sorted(sites.values()) == [(1, 5, 1, 12), (1, 9, 1, 12)]
    assert code.count("__promolint_check__") == 2
    recorder = Recorder()
    _run(code, recorder)
    by_span = {sites[i]: seen for i, seen in recorder.observations.items()}
    assert by_span[(1, 5, 1, 12)] == [{"dtype": "float", "weak": True, "library": "python", "error": None}]


def test_the_innermost_open_site_is_where_an_exception_surfaced():
    source = "import numpy as np\ny = np.ones(3, np.int8) + (1 + 1000)\n"
    code, sites = instrument(source)
    recorder = Recorder(spans=sites)
    with pytest.raises(OverflowError) as info:
        _run(code, recorder)
    site = recorder.failed(info.value)
    assert sites[site] == (2, 5, 2, 37)
    assert recorder.errors[site]["error"] == "OverflowError" and recorder.errors[site]["innermost"]


def test_a_caught_exception_leaves_its_site_abandoned():
    source = "def f():\n    return 1 / 0\ntry:\n    f()\nexcept ZeroDivisionError:\n    pass\nz = 2\n"
    code, sites = instrument(source)
    recorder = Recorder(spans=sites)
    _run(code, recorder)
    assert {sites[s] for s in recorder.abandoned} == {(2, 12, 2, 17), (4, 5, 4, 8)}  # 1 / 0 and f()
    assert not recorder.open


def test_an_exception_after_a_caught_one_surfaces_at_its_own_site():
    source = "def f():\n    return 1 / 0\ntry:\n    f()\nexcept ZeroDivisionError:\n    pass\nz = [1][2]\n"
    code, sites = instrument(source)
    recorder = Recorder(spans=sites)
    with pytest.raises(IndexError) as info:
        _run(code, recorder)
    assert sites[recorder.failed(info.value)] == (7, 5, 7, 11)
    assert [sites[s] for s in recorder.errors] == [(7, 5, 7, 11)]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, ("bool", False, "python")),
        (3, ("int", True, "python")),
        (2.5, ("float", True, "python")),
        (1j, ("complex", True, "python")),
        (np.float32(1), ("float32", False, "numpy-scalar")),
        (np.float64(1), ("float64", False, "numpy-scalar")),
        (np.bool_(True), ("bool", False, "numpy-scalar")),
        (np.ones(2, np.int8), ("int8", False, "numpy-array")),
        (np.array(1.0), ("float64", False, "numpy-array")),
        ([1.0], (None, None, None)),
        (np.float32, (None, None, None)),
    ],
)
def test_observe_describes_python_and_numpy_values(value, expected):
    observed = observe(value)
    assert (observed["dtype"], observed["weak"], observed["library"]) == expected
    assert observed["error"] is None


def test_observe_describes_jax_arrays_and_tracers():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    assert observe(jnp.ones(2, jnp.bfloat16)) == {"dtype": "bfloat16", "weak": False, "library": "jax", "error": None}
    assert observe(jnp.asarray(2.0))["weak"] is True
    seen = []
    jax.jit(lambda x: seen.append(observe(x * 2)) or x)(jnp.ones(2, jnp.int8))
    assert seen == [{"dtype": "int8", "weak": False, "library": "jax", "error": None}]


def test_observe_does_not_import_jax():
    script = ("import sys; from promolint.runtime.instrument import observe; import numpy as np; "
              "observe(np.float32(1)); observe(1.0); print('jax' in sys.modules)")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_a_function_s_first_statement_reads_its_arguments_on_a_line_it_had_already():
    """``entries``: the functions defined on those lines start by handing their line to
    ``__promolint_arguments__``, after the docstring (still the docstring) and on a line the
    source had, so tracebacks keep their line numbers; a body that starts with a compound
    statement evaluates it first in its header (``if``, ``for``, ``with``) or its body (``try``),
    with the header's meaning kept; a ``while`` (its test runs on every pass) is left alone.
    ``locals()`` gains nothing."""
    source = textwrap.dedent(
        '''
        def documented(x):
            """Doc."""
            x = x + 1
            return locals()
        def bare(x):
            x, y = x * 2, 3
            return sorted(locals())
        def one_line(x): x = -x; return x
        def branching(x):
            if x > 1 if x else -1:
                x = 0
            return x
        def failing(x):
            x = x - 1
            raise ValueError(x)
        def looping(xs):
            for x in xs or [9]:
                xs = x
            return xs
        def guarded(x):
            try:
                x = 1 / x
            except ZeroDivisionError:
                x = None
            return x
        def waiting(x):
            while x:
                x -= 1
            return x
        '''
    )
    code, _ = instrument(source, lambda span: False, entries={2, 6, 9, 10, 14, 17, 21, 27})
    assert code.splitlines()[2] == '    """Doc."""; __promolint_arguments__(2)'
    assert code.splitlines()[10] == "    if __promolint_arguments__(10) or (x > 1 if x else -1):"
    assert code.count("__promolint_arguments__") == 7  # not waiting's
    seen = []
    namespace = {"__promolint_arguments__": seen.append}
    exec(compile(code, "<snippet>", "exec"), namespace)
    assert namespace["documented"].__doc__ == "Doc."
    assert namespace["documented"](1) == {"x": 2}
    assert namespace["bare"](1) == ["x", "y"]
    assert namespace["one_line"](3) == -3
    assert [namespace["branching"](x) for x in (0, 1, 5)] == [0, 1, 0]
    assert namespace["looping"]([]) == 9 and namespace["looping"]([1, 2]) == 2
    assert namespace["guarded"](0) is None and namespace["guarded"](2) == 0.5
    assert namespace["waiting"](3) == 0
    with pytest.raises(ValueError) as raised:
        namespace["failing"](1)
    assert raised.traceback[-1].lineno + 1 == 16  # the `raise` line of the source
    assert seen == [2, 6, 9, 10, 10, 10, 17, 17, 21, 21, 14]

"""The census machinery (tests/primer/census.py), without downloads: the recorder on a tiny
package that raises real JAX promotion errors with float32 input, and the recall matching of
census lines against synthetic findings."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

PRIMER = Path(__file__).resolve().parent
sys.path.insert(0, str(PRIMER))
import census  # noqa: E402
from _census_recall import naming, nearby  # noqa: E402
from _census_record import F64_PROMOTION, Recorder  # noqa: E402

TINY = '''
import jax.numpy as jnp
from jax import lax

def accumulate(x):
    return lax.fori_loop(0, 3, lambda i, c: c + jnp.zeros(3), x)  # loop

def scatter(x):
    return lax.scatter_add(jnp.zeros(4), jnp.array([[0]]), x[:1], dimension_numbers)  # scatter

dimension_numbers = lax.ScatterDimensionNumbers((), (0,), (0,))

def widen(x):
    return x * jnp.ones(3)  # widen

def cast(x):
    return x.astype(jnp.float64)  # cast

def shifted(x):
    return x + jnp.int32(1)  # strict

def broken(x):
    raise ValueError("not a promotion")
'''


def line_of(marker: str) -> int:
    return next(n for n, text in enumerate(TINY.splitlines(), 1) if text.endswith(f"# {marker}"))


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    package = tmp_path / "tinypkg"
    package.mkdir()
    (package / "__init__.py").write_text(TINY)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("tinypkg", None)
    yield importlib.import_module("tinypkg")
    sys.modules.pop("tinypkg", None)


def test_recorder_places_x64_errors_and_promotions_at_the_package_line(tiny) -> None:
    recorder = Recorder(Path(tiny.__file__).parent)
    x = jnp.ones(3, jnp.float32)
    with jax.enable_x64(True):
        for name in ("accumulate", "scatter", "widen", "cast", "broken"):
            with recorder.case(name):
                getattr(tiny, name)(x)
    places = {(r.kind, r.path, r.line) for r in recorder.records.values()}
    assert ("loop carry", "tinypkg/__init__.py", line_of("loop")) in places
    assert ("scatter", "tinypkg/__init__.py", line_of("scatter")) in places
    assert (F64_PROMOTION, "tinypkg/__init__.py", line_of("widen")) in places
    assert not any(line == line_of("cast") for _, _, line in places)  # an explicit cast is asked for
    assert recorder.casts > 0
    errors = {o.case: o.error for o in recorder.outcomes}
    assert errors["broken"] == "ValueError: not a promotion"  # the harness's failure, not a census line
    assert errors["accumulate"] is None and errors["scatter"] is None


def test_recorder_places_strict_promotion_errors(tiny) -> None:
    recorder = Recorder(Path(tiny.__file__).parent)
    with jax.numpy_dtype_promotion("strict"), recorder.case("shifted"):
        tiny.shifted(jnp.ones(3, jnp.float32))
    [record] = recorder.records.values()
    assert (record.kind, record.path, record.line) == ("strict", "tinypkg/__init__.py", line_of("strict"))
    assert record.message.startswith("TypePromotionError")


def test_an_error_raised_outside_the_package_is_no_census_line(tiny, tmp_path: Path) -> None:
    recorder = Recorder(tmp_path / "elsewhere")
    with jax.enable_x64(True), recorder.case("accumulate"):
        tiny.accumulate(jnp.ones(3, jnp.float32))
    assert not recorder.records
    assert recorder.outcomes[0].error.startswith("TypeError: scan body function carry")


FINDINGS = [
    {"path": "pkg/loop.py", "line": 10, "end_line": 12, "code": "PRM025"},
    {"path": "pkg/loop.py", "line": 11, "code": "PRM027"},
    {"path": "pkg/other.py", "line": 11, "end_line": 11, "code": "PRM008"},
]


def test_a_finding_names_the_census_lines_its_span_holds() -> None:
    assert naming("pkg/loop.py", 11, FINDINGS) == ["PRM025", "PRM027"]
    assert naming("pkg/loop.py", 12, FINDINGS) == ["PRM025"]
    assert naming("pkg/loop.py", 13, FINDINGS) == []
    assert naming("pkg/other.py", 12, FINDINGS) == []
    assert nearby("pkg/loop.py", 15, FINDINGS) == ["PRM025@10", "PRM027@11"]


def test_census_lines_count_an_error_once_per_mode_and_figures_add_up() -> None:
    record = {"path": "pkg/loop.py", "line": 11, "message": "m", "cases": ["c"]}
    runs = {"x64": {"records": [{**record, "kind": F64_PROMOTION}, {**record, "kind": "loop carry"},
                                {**record, "line": 20, "kind": F64_PROMOTION}],
                    "cases": [{"case": "c", "error": None}]},
            "strict": {"records": [{**record, "kind": "strict"}],
                       "cases": [{"case": "c", "error": "boom"}]}}  # fmt: skip
    lines = census.census_lines(runs)
    assert [(line["mode"], line["line"], line["kind"]) for line in lines] == [
        ("strict", 11, "strict"), ("x64", 11, "loop carry"), ("x64", 20, F64_PROMOTION)]  # fmt: skip
    lines[0]["named_default"] = lines[0]["named_all"] = ["PRM004"]
    lines[1]["named_all"] = ["PRM027"]
    figures = census.figures({"runs": runs, "lines": lines})
    assert figures == {"cases": 2, "case_errors": 1, "lines": 3, "error_lines": 2, "f64_lines": 1, "named_default": 1,
                       "named_all": 2, "errors_named_default": 1, "errors_named_all": 2}
    text = census.markdown({"projects": {"pkg": {"figures": figures, "lines": lines}}})
    assert "| loop carry | 1 | 0/1 (0%) | 1/1 (100%) |" in text
    assert "| pkg | 2 (1) | 3 (2 + 1) | 1/3 (33%) | 2/3 (67%) | 1/2 (50%) | 2/2 (100%) |" in text
    assert "- pkg `pkg/loop.py:20` (x64, f64 promotion)" in text


def test_census_toml_names_primer_projects_with_pinned_distributions() -> None:
    distributions, harnesses = census.load_census()
    assert len(harnesses) >= 30  # issue #35: the census covers at least 30 primer projects
    for harness in harnesses:
        assert harness.cases and set(harness.install) <= set(distributions)
        assert all(len(distributions[name].sha256) == 64 for name in harness.install)


def test_a_census_file_naming_an_unpinned_distribution_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "census.toml"
    path.write_text(textwrap.dedent("""
        [project.quadax]
        package = "quadax"
        install = ["equinox"]
        [project.quadax.cases]
        one = "result = 1"
    """))
    with pytest.raises(ValueError, match="unpinned distributions"):
        census.load_census(path)


def test_the_harness_records_a_promotion_its_package_raises_at_import(tmp_path: Path, monkeypatch) -> None:
    import json

    import _census_harness

    package = tmp_path / "importraiser"
    package.mkdir()
    (package / "__init__.py").write_text("import jax.numpy as jnp\nSHIFTED = jnp.ones(2, jnp.float32) + jnp.int32(1)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec, report = tmp_path / "spec.json", tmp_path / "report.json"
    spec.write_text(json.dumps({"package": "importraiser", "cases": {"never": "result = 1"}}))
    with jax.numpy_dtype_promotion("strict"):
        _census_harness.main([str(spec), str(report)])
    [record] = json.loads(report.read_text())["records"]
    assert (record["kind"], record["path"], record["line"], record["cases"]) == (
        "strict", "importraiser/__init__.py", 2, ["import"])  # fmt: skip


def test_a_missed_line_gets_what_reveal_knows_there(tmp_path: Path) -> None:
    """What `promolint reveal` knows at census lines no rule names: a value that depends on a
    parameter, an operand it knows nothing of, every value known."""
    from _census_recall import DEPENDS, KNOWN, UNKNOWN_OPERAND, known_at

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(textwrap.dedent("""
        import jax.numpy as jnp
        from elsewhere import helper

        def scaled(x):
            y = x * 2.0
            z = helper() * jnp.ones(3)
            return jnp.ones(3, jnp.float32) + 1
    """))
    lines = [{"path": "pkg/mod.py", "line": n, "mode": "x64"} for n in (6, 7, 8)]
    known_at(tmp_path, lines, "x64", 120)
    assert [(line["known"], line["why"]) for line in lines] == [
        (DEPENDS, "x"), (UNKNOWN_OPERAND, "helper()"), (KNOWN, "")]

"""The catalog's rows set only the fields their semantics read: a field given to a row whose
semantics ignore it (``weak=Weak.STRONG`` on a reduction, ``parts`` on an FFT) would be a fact
written down and silently never used."""

from __future__ import annotations

import pytest

from promolint.engine.catalog import CATALOG, METHODS, NUMPY_FORWARDED, Fn, LaxChecks, RankChange, Weak

# Each field of a row, and the semantics (or shapes) whose implementation reads it.
READERS: dict[str, frozenset[str]] = {
    "result": frozenset({"create", "random", "indices", "fixed", "python_scalar", "index", "lax"}),
    "parts": frozenset({"decomposition"}),
    "spectrum": frozenset({"fft"}),
    "scalar": frozenset({"scaled"}),
    "then_inexact": frozenset({"scaled"}),
    "real": frozenset({"mean"}),
    "float16_runs": frozenset({"linalg", "solve"}),
    "operator": frozenset({"compare"}),
    "weak_kinds": frozenset({"bool"}),
    "through_nonzero": frozenset({"index"}),
    "falls_back": frozenset({"forward"}),
}
_UNSET = Fn("", CATALOG["numpy.add"].library)
ROWS = [*CATALOG.items(), *(("method " + k, v) for k, v in METHODS.items()),
        *(("forwarded numpy." + k, v) for k, v in NUMPY_FORWARDED.items())]  # fmt: skip


@pytest.mark.parametrize("field", sorted(READERS))
def test_a_field_is_set_only_on_rows_whose_semantics_read_it(field: str) -> None:
    misplaced = [name for name, fn in ROWS
                 if getattr(fn, field) != getattr(_UNSET, field) and fn.semantics not in READERS[field]]  # fmt: skip
    assert not misplaced, misplaced


def test_weak_flags_are_named_only_where_the_semantics_weigh_them() -> None:
    weighing = {"inexact", "promote", "same", "lax"}
    assert not [name for name, fn in ROWS if fn.weak is not Weak.PROMOTED and fn.semantics not in weighing]


def test_lax_checks_rank_changes_draws_and_least_dimensions_sit_on_the_rows_that_use_them() -> None:
    assert not [name for name, fn in ROWS if fn.lax != LaxChecks() and fn.semantics != "lax"]
    assert not [name for name, fn in ROWS
                if fn.rank_change is not RankChange.UNKNOWN and (fn.semantics, fn.shape) not in (("same", "array"),
                                                                                                ("index", "array"))]
    assert not [name for name, fn in ROWS if fn.draw is not None and fn.shape != "draw"]
    assert not [name for name, fn in ROWS if fn.least_ndim and fn.semantics != "atleast" and fn.shape != "draw"]


def test_every_lax_check_names_a_parameter_of_its_function() -> None:
    for name, fn in ROWS:
        named = {p.lstrip("*") for p in fn.params}
        checks = fn.lax
        assert set(checks.same_rank) <= named, name
        assert {checks.scalar, checks.which} - {""} <= named, name
        assert not fn.draw or set(fn.draw.params) <= named, name

"""The engine's catalog rules: every rule the catalog names has one implementation, in one family
of ``promolint.engine.calls`` (the families' tables are merged into one: a name given twice would
silently replace the other)."""

from __future__ import annotations

from promolint.engine.calls import (
    RULES,
    comparisons,
    creation,
    dtype_queries,
    elementwise,
    lax,
    methods,
    python_functions,
    reductions,
)
from promolint.engine.catalog import CATALOG, METHODS, NUMPY_FORWARDED

FAMILIES = (creation, elementwise, comparisons, reductions, dtype_queries, lax, methods, python_functions)


def test_no_two_families_implement_the_same_rule() -> None:
    names = [name for family in FAMILIES for name in family.RULES]
    assert len(names) == len(set(names)), sorted(name for name in names if names.count(name) > 1)


def test_the_catalog_and_the_rule_table_name_the_same_rules() -> None:
    named = {fn.rule for table in (CATALOG, METHODS, NUMPY_FORWARDED) for fn in table.values()}
    assert named == set(RULES)

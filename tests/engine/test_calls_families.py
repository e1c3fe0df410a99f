"""The catalog's semantics: every semantics a catalog row names has one implementation, in one
family module of ``promolint.engine.calls``, whose table ``dispatch`` merges into its own (a family
left out, or a name given twice, would lose semantics silently)."""

from __future__ import annotations

import importlib
import pkgutil

from promolint.engine import calls
from promolint.engine.catalog import CATALOG, METHODS, NUMPY_FORWARDED


def _families() -> list:
    """The package's modules with a table of semantics of their own."""
    modules = [importlib.import_module(f"{calls.__name__}.{m.name}") for m in pkgutil.iter_modules(calls.__path__)]
    return [m for m in modules if hasattr(m, "SEMANTICS") and m.__name__ != f"{calls.__name__}.dispatch"]


def test_each_family_semantics_is_in_the_table_and_only_one_family_has_it() -> None:
    names = [name for family in _families() for name in family.SEMANTICS]
    assert len(names) == len(set(names)), sorted(name for name in names if names.count(name) > 1)
    assert all(calls.SEMANTICS[name] is semantics for family in _families()
               for name, semantics in family.SEMANTICS.items())


def test_the_catalog_and_the_table_of_semantics_name_the_same_semantics() -> None:
    named = {fn.semantics for table in (CATALOG, METHODS, NUMPY_FORWARDED) for fn in table.values()}
    assert named == set(calls.SEMANTICS)


def test_the_refusals_by_name_name_catalogued_functions_and_known_dtype_classes() -> None:
    """A name or a dtype class misspelt in the refusals keyed by name would switch its check off
    silently (``jnp.round(bools)`` claimed bool instead of ValueError)."""
    from promolint.engine.catalog import CATALOG_REFUSALS
    from promolint.engine.domains import DTYPE_CLASSES

    for library, functions in CATALOG_REFUSALS.items():
        prefix = "jax." if library == "jax" else "numpy."
        for name, errors in functions.items():
            assert any(q.startswith(prefix) and q.endswith(f".{name}") for q in CATALOG), (library, name)
            assert all(token in DTYPE_CLASSES for classes in errors.values() for token in classes.split()), name

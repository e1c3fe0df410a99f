"""The function catalog: what each NumPy/JAX/math/builtin function and array method returns, as data.

Each row (``rows.Fn``) names the *semantics* its result follows (how the result dtype is computed,
implemented once in ``promolint.engine.calls``), the parameters they read, and the facts measured of
the function itself.  Adding a function is adding a row: ``array_namespace`` (NumPy's and
``jax.numpy``'s own names), ``functions`` (every row by qualified name: random, nn, scipy, lax, math,
builtins), ``methods`` (array methods and attributes); ``by_name`` holds the facts that operators
share with the functions of their name."""

from promolint.engine.catalog.array_namespace import NUMPY_FORWARDED
from promolint.engine.catalog.by_name import (
    CATALOG_REFUSALS,
    JAX_BOOL_AS_INT32,
    NUMPY_INT_TO_FLOAT64,
    NUMPY_INTN_LOOPS,
    NUMPY_METHOD_BOOL_RESULTS,
    NUMPY_NO_BOOL_LOOP,
    OPERATOR_FUNCTIONS,
)
from promolint.engine.catalog.functions import ALIASES, CATALOG, CONSTANTS, SCALAR_CONSTANTS, entry_for
from promolint.engine.catalog.methods import (
    COPY_METHODS,
    LIST_MUTATORS,
    METHODS,
    NUMBER_ATTRIBUTES,
    NUMPY_IN_PLACE_METHODS,
    REPLACE_METHODS,
)
from promolint.engine.catalog.rows import (SHAPES, Draw, Fn, LaxChecks, Part, RankChange, Spectrum, Weak,
                                           takes_sequence)

__all__ = [
    "ALIASES",
    "CATALOG",
    "CATALOG_REFUSALS",
    "CONSTANTS",
    "COPY_METHODS",
    "Draw",
    "Fn",
    "JAX_BOOL_AS_INT32",
    "LIST_MUTATORS",
    "LaxChecks",
    "METHODS",
    "NUMBER_ATTRIBUTES",
    "NUMPY_FORWARDED",
    "NUMPY_INTN_LOOPS",
    "NUMPY_INT_TO_FLOAT64",
    "NUMPY_IN_PLACE_METHODS",
    "NUMPY_METHOD_BOOL_RESULTS",
    "NUMPY_NO_BOOL_LOOP",
    "OPERATOR_FUNCTIONS",
    "Part",
    "RankChange",
    "REPLACE_METHODS",
    "SCALAR_CONSTANTS",
    "SHAPES",
    "Spectrum",
    "Weak",
    "entry_for",
    "takes_sequence",
]

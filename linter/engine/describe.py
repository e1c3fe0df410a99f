"""What is known of a value, as ``reveal --format json``, the run-time shim and the primer's
coverage read it: one record of plain fields."""

from __future__ import annotations

from promolint.engine.symbolic import MAX_ASSIGNMENTS, Symbolic, kept_dtype, outcomes as outcomes_of
from promolint.engine.values import PYTHON_TYPE_NAMES, MAX_CANDIDATES, Array, Library, Refusal, Value, join


def describe(value: Value) -> dict:
    """dtype (NumPy's name, or int/float/complex/bool for Python scalars; ``a|b`` for candidates),
    weak, library, error; for a value that depends on variables, ``depends`` names them and
    ``variable`` names the one whose dtype it keeps (``x * 2`` for a float ``x``; weak None there:
    the variable's own flag, a bool: that flag whatever the variable's is, as ``np.asarray(x)``)."""
    if type(value) is Symbolic:
        return _symbolic(value)
    if isinstance(value, Refusal):
        return {"dtype": None, "weak": None, "library": None, "error": value.error, "message": value.message}
    if not isinstance(value, Array) or not value.dtypes:
        library = value.library.value if isinstance(value, Array) else None
        return {"dtype": None, "weak": None, "library": library, "error": None}
    if value.library is Library.PYTHON:
        dtype = "|".join(sorted(PYTHON_TYPE_NAMES.get(d, d) for d in value.dtypes))
    else:
        dtype = "|".join(sorted(value.dtypes))
    return {
        "dtype": dtype,
        "weak": value.weak,
        "library": value.library.value,
        "error": None,
        **({"provenance": value.provenance} if value.provenance else {}),
    }


def spelled(value: Value) -> str:
    """The value as a message names it, from what ``describe`` (and so ``reveal``) knows of it:
    ``float32``, ``weak float32``, ``weak or strong bool`` (a symbolic value whose flag follows a
    variable's), ``Python int``, ``the dtype of `x```; empty for what is no array or scalar."""
    if not isinstance(value, (Array, Symbolic)):
        return ""
    record = describe(value)
    if record["error"]:
        return ""
    if record.get("variable"):
        dtype = f"the dtype of `{record['variable']}`"
        return dtype if record["weak"] is None else f"a {'weak' if record['weak'] else 'strong'} value of {dtype}"
    if record["dtype"] is None:
        library = record["library"]
        return f"a {library} value of unknown dtype" if library else "a value of unknown dtype"
    if record["library"] == Library.PYTHON.value:
        return f"Python {record['dtype']}"
    weak = "weak " if record["weak"] else "weak or strong " if record["weak"] is None else ""
    return f"{weak}{record['dtype']}"


def _symbolic(value: Symbolic) -> dict:
    depends = sorted(v.name for v in value.variables)
    outcomes = outcomes_of(value, MAX_ASSIGNMENTS)
    unknown = {"dtype": None, "weak": None, "library": None, "error": None, "depends": depends}
    if not outcomes:
        return unknown
    alive = [v for _, v in outcomes if not isinstance(v, Refusal)]
    if not alive:  # raises whatever the variables are
        return {**describe(outcomes[0][1]), "depends": depends}
    kept = kept_dtype(value)
    if kept is not None:
        # weak None: the variable's own flag; library None: any (the variable's, where it has one)
        variable, weak, kept_library = kept
        libraries = {m.library for m in variable.domain}
        library = kept_library or (libraries.pop() if len(libraries) == 1 else None)
        return {"dtype": f"dtype of {variable.name}", "weak": weak, "library": library.value if library else None,
                "error": None, "depends": depends, "variable": variable.name,
                "variable_key": repr(variable.key)}  # fmt: skip
    if all(v == alive[0] for v in alive[1:]):
        return {**describe(alive[0]), "depends": depends}
    libraries = {v.library for v in alive if isinstance(v, Array)}
    if all(isinstance(v, Array) and v.dtypes for v in alive) and len({(v.dtypes, v.weak) for v in alive}) == 1:
        # the dtype whatever the library (``v.astype(np.int32)`` of an unknown v), or whatever
        # the dimensions (``jnp.asarray(v, jnp.int32)``: one library)
        library = next(iter(libraries)).value if len(libraries) == 1 else None
        return {**describe(alive[0]), "library": library, "depends": depends}
    library = libraries.pop().value if len(libraries) == 1 and all(isinstance(v, Array) for v in alive) else None
    if not all(isinstance(v, Array) and v.dtypes for v in alive):
        return {**unknown, "library": library}
    joined = join(alive)
    if isinstance(joined, Array) and len(joined.dtypes) <= MAX_CANDIDATES:
        return {**describe(joined), "depends": depends}
    return {**unknown, "library": library}

"""What is known of a value, as ``reveal --format json``, the run-time shim and the primer's
coverage read it: one record of plain fields."""

from __future__ import annotations

from promolint.engine.symbolic import (MAX_ASSIGNMENTS, Symbolic, Variable, each_outcome, kept_dtype,
                                       outcomes as outcomes_of)
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
    unknown = {"dtype": None, "weak": None, "library": None, "error": None, "depends": depends}
    shortcut = _told_early(value, depends, unknown)
    if shortcut is not None:
        return shortcut
    outcomes = outcomes_of(value, MAX_ASSIGNMENTS)
    if not outcomes:
        return unknown
    alive = [v for _, v in outcomes if not isinstance(v, Refusal)]
    if not alive:  # raises whatever the variables are
        return {**describe(outcomes[0][1]), "depends": depends}
    kept = kept_dtype(value)
    if kept is not None:
        return _kept(*kept, depends)
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


def _told_early(value: Symbolic, depends: list[str], unknown: dict) -> dict | None:
    """The record ``_symbolic`` finds, where it shows before every outcome is weighed: a
    variable itself (its outcomes are its members: it keeps its own dtype, flag and library),
    or an unknown of no one library (reveal's most common records)."""
    variable = value.variable
    if variable is not None and variable.domain and not any(isinstance(m, Refusal) for m in variable.domain):
        return _kept(variable, None, None, depends)
    return unknown if _unknown_of_no_library(value) else None


def _kept(variable: Variable, weak: bool | None, library: Library | None, depends: list[str]) -> dict:
    """The record of a value that keeps ``variable``'s dtype: ``weak`` None for the variable's own
    flag, ``library`` None for any (the variable's, where its members share one)."""
    libraries = {m.library for m in variable.domain}
    library = library or (libraries.pop() if len(libraries) == 1 else None)
    return {"dtype": f"dtype of {variable.name}", "weak": weak, "library": library.value if library else None,
            "error": None, "depends": depends, "variable": variable.name, "variable_key": repr(variable.key)}


def _unknown_of_no_library(value: Symbolic) -> bool:
    """Whether ``_symbolic`` surely finds ``value`` unknown, of no one library, told from its
    first outcomes where it weighs every assignment (most unknowns show it within a few members,
    the domains taking the libraries in turn): one of them no array, or two that differ, in
    dtype or weak flag too, of two libraries, one with another dtype than its variable's member
    (so that no variable's dtype is kept)."""
    outcomes = each_outcome(value)
    if outcomes is None:
        return False
    single = value.ordered[0] if len(value.ordered) == 1 else None
    first = None
    differ = dtypes_differ = False
    kept_broken = single is None
    libraries = set()
    for assignment, outcome in outcomes:
        if isinstance(outcome, Refusal):
            continue
        if type(outcome) is Symbolic:
            return False
        if not isinstance(outcome, Array):
            return True
        libraries.add(outcome.library)
        if not outcome.dtypes:
            dtypes_differ = kept_broken = True
        elif single is not None and outcome.dtypes != assignment[single].dtypes:
            kept_broken = True
        if first is None:
            first = outcome
        else:
            differ = differ or outcome != first
            dtypes_differ = dtypes_differ or (outcome.dtypes, outcome.weak) != (first.dtypes, first.weak)
        if differ and dtypes_differ and kept_broken and len(libraries) > 1:
            return True
    return False


"""What is known of a value, as ``reveal --format json``, the run-time shim and the primer's
coverage read it: one record of plain fields."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from promolint.engine.symbolic import (MAX_ASSIGNMENTS, Outcome, Symbolic, Variable, each_outcome, folded,
                                       kept_dtype, lowered, outcomes as outcomes_of, probes, raised_where_reached,
                                       spread_outcomes)
from promolint.engine.values import PYTHON_TYPE_NAMES, MAX_CANDIDATES, Array, Library, Refusal, Unknown, Value, join


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
        if library and record.get("depends"):  # of one library, its dtype that of a variable's member
            return f"a {library} value whose dtype follows {listed(record['depends'])}"
        return f"a {library} value of unknown dtype" if library else "a value of unknown dtype"
    if record["library"] == Library.PYTHON.value:
        return f"Python {record['dtype']}"
    weak = "weak " if record["weak"] else "weak or strong " if record["weak"] is None else ""
    return f"{weak}{record['dtype']}"


def listed(names: Sequence[str], most: int | None = None) -> str:
    """Names as a message lists them: "`x`", "`x` and `y`"; past ``most``, "`x`, `y` and 2 more"."""
    quoted = [f"`{n}`" for n in names]
    if most is not None and len(quoted) > most:
        quoted = quoted[: most - 1] + [f"{len(quoted) - most + 1} more"]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _symbolic(value: Symbolic) -> dict:
    depends = sorted(v.name for v in value.variables)
    unknown = {"dtype": None, "weak": None, "library": None, "error": None, "depends": depends}
    variable = value.variable
    if variable is not None and variable.domain and not any(isinstance(m, Refusal) for m in variable.domain):
        return _kept(variable, None, None, depends)  # its outcomes are its members
    whatever = _whatever(value)
    shortcut = _told_early(value, whatever, depends, unknown)
    if shortcut is not None:
        return shortcut
    outcomes = outcomes_of(value, MAX_ASSIGNMENTS)
    if not outcomes:
        return unknown
    alive = [_refined(v, whatever) for _, v in outcomes if not isinstance(v, Refusal)]
    if not alive:  # raises whatever the variables are: its own exception where it is reached
        return {**describe(raised_where_reached([v for _, v in outcomes])), "depends": depends}
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


def _whatever(value: Symbolic) -> Array | None:
    """What ``value`` is at every member where the program goes on, from one evaluation with
    every variable unknown, where that is a JAX array: one of NumPy's may be a NumPy scalar at a
    member (``np.sum(x)``), which the engine does not tell from the array without the rank."""
    found = lowered(value)
    return found if isinstance(found, Array) and found.library is Library.JAX else None


def _refined(outcome: Value, whatever: Array | None) -> Value:
    """An outcome the engine could not tell at its member (a branch that raises there, joined
    with one that does not, is unknown) is what holds at every member, where that is known."""
    return whatever if type(outcome) is Unknown and whatever is not None else outcome


def _told_early(value: Symbolic, whatever: Array | None, depends: list[str], unknown: dict) -> dict | None:
    """The record ``_symbolic`` finds from every (refined) outcome, where the first few already
    show it: a value whose one dtype, flag and library hold whatever the variables are, an
    unknown of one library, or an unknown of no one library (reveal's most common records)."""
    if value.assignments() is None:  # too many to weigh one by one: ``outcomes`` cuts them down
        reduced = folded(value)  # what ``outcomes`` weighs: operands where the program goes on
        return _unknown_by_probes(list(probes(reduced)), whatever, unknown) if type(reduced) is Symbolic else None
    if whatever is not None and whatever.dtype is not None and whatever.weak is not None:
        return _of_one_array(value, whatever, each_outcome(value), depends)
    spread = ((a, _refined(v, whatever)) for a, v in spread_outcomes(value))
    if whatever is not None and not whatever.dtypes:
        return {**unknown, "library": whatever.library.value} if _unknown_of(value, spread, whatever.library) else None
    return unknown if _unknown_of(value, spread, None) else None


def _of_one_array(value: Symbolic, whatever: Array, outcomes: Iterable[Outcome], depends: list[str]) -> dict | None:
    """The record of a value that is ``whatever``'s one dtype, flag and library at every member
    where the program goes on: the first such outcome's, once one outcome shows that no
    variable's dtype is kept (told apart from the variable's member); what it raises where it
    is reached where every member raises."""
    single = value.ordered[0] if len(value.ordered) == 1 else None
    first = None
    refusals: list[Refusal] = []
    kept_broken = single is None
    for assignment, outcome in outcomes:
        if isinstance(outcome, Refusal):
            refusals.append(outcome)
            continue
        outcome = _refined(outcome, whatever)
        if not (isinstance(outcome, Array) and outcome.dtypes == whatever.dtypes and outcome.weak == whatever.weak
                and outcome.library is whatever.library):  # fmt: skip
            return None  # not what the evaluation with every variable unknown said: weigh them all
        first = first or outcome
        kept_broken = kept_broken or outcome.dtypes != assignment[single].dtypes
        if kept_broken:
            return {**describe(first), "depends": depends}
    if first is None and refusals:
        return {**describe(raised_where_reached(refusals)), "depends": depends}
    return None


def _unknown_by_probes(probed: list[Outcome], whatever: Array | None, unknown: dict) -> dict | None:
    """The record ``_symbolic`` surely finds for a value with too many assignments to weigh one
    by one, where two of its outcomes (``probes``) show it unknown: one where the program goes on
    that is no array (an object, or unknown where ``whatever`` does not refine it), or known
    arrays of two libraries that differ in dtype or weak flag (their join is unknown), neither
    keeping a variable's dtype (what ``kept_dtype`` reads).  None where they do not show it."""
    if any(not isinstance(_refined(outcome, whatever), (Array, Refusal, Symbolic)) for _, outcome in probed):
        return unknown
    known = [(assignment, outcome) for assignment, outcome in probed if isinstance(outcome, Array) and outcome.dtypes]
    if len(known) < 2:
        return None
    (at_first, first), (at_second, second) = known
    if first.library is second.library or (first.dtypes, first.weak) == (second.dtypes, second.weak):
        return None
    kept = (v for v in at_first if first.dtypes == getattr(at_first[v], "dtypes", None)
            and second.dtypes == getattr(at_second[v], "dtypes", None))  # fmt: skip
    return None if any(kept) else unknown


def _unknown_of(value: Symbolic, outcomes: Iterable[Outcome], library: Library | None) -> bool:
    """Whether ``_symbolic`` surely finds ``value`` unknown, of ``library`` (every outcome where
    the program goes on is an array of it), or of no one library (None), told from its first
    outcomes.  Once one of them has another dtype than its variable's member (so that no
    variable's dtype is kept): of one library, one has no known dtype, or two differ in dtype and
    together they have more than ``MAX_CANDIDATES``; of no one library, one is no array, or two
    of two libraries differ, in dtype or weak flag too, or one has no known dtype."""
    single = value.ordered[0] if len(value.ordered) == 1 else None
    first = None
    differ = pairs_differ = no_dtype = False
    kept_broken = single is None
    libraries = set()
    dtypes: set[str] = set()
    for assignment, outcome in outcomes:
        if isinstance(outcome, Refusal):
            continue
        if type(outcome) is Symbolic:
            return False
        if not isinstance(outcome, Array):
            return library is None
        if library is not None and outcome.library is not library:
            return False  # not what the evaluation with every variable unknown said: weigh them all
        libraries.add(outcome.library)
        dtypes |= outcome.dtypes
        no_dtype = no_dtype or not outcome.dtypes
        kept_broken = kept_broken or outcome.dtypes != assignment[single].dtypes
        if first is None:
            first = outcome
        else:
            differ = differ or outcome != first
            pairs_differ = pairs_differ or (outcome.dtypes, outcome.weak) != (first.dtypes, first.weak)
        if not kept_broken:
            continue
        if library is not None:
            if no_dtype or pairs_differ and len(dtypes) > MAX_CANDIDATES:
                return True
        elif differ and (pairs_differ or no_dtype) and len(libraries) > 1:
            return True
    return False


def _kept(variable: Variable, weak: bool | None, library: Library | None, depends: list[str]) -> dict:
    """The record of a value that keeps ``variable``'s dtype: ``weak`` None for the variable's own
    flag, ``library`` None for any (the variable's, where its members share one)."""
    libraries = {m.library for m in variable.domain}
    library = library or (libraries.pop() if len(libraries) == 1 else None)
    return {"dtype": f"dtype of {variable.name}", "weak": weak, "library": library.value if library else None,
            "error": None, "depends": depends, "variable": variable.name, "variable_key": repr(variable.key)}

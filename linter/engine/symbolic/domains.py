"""The members a variable ranges over: every exact value of some libraries, in the modes of a run.

A parameter nothing types ranges over every numeric value (``NUMERIC``); one annotated with a
library only (``jax.Array``) over that library's dtypes; one annotated with a Python scalar type
(``x: float``) over every value of its kind and below, of any library (``annotated``); one the
code counts with over the integers of every library (``COUNTS``).
"""

from __future__ import annotations

import itertools
from types import MappingProxyType

from promolint.core.dtypes import DTYPES, is_64bit
from promolint.engine.context import Context
from promolint.engine.values import Array, Library

NUMERIC = (Library.PYTHON, Library.NUMPY_SCALAR, Library.NUMPY_ARRAY, Library.JAX)
# What a value the code counts with holds (``jnp.arange(n)``): an integer, of any library (no
# bool: arange refuses it).
COUNTS = frozenset(d for d in DTYPES if DTYPES[d].kind in "iu" and DTYPES[d].bits >= 8)
_PYTHON_KINDS = frozenset({"bool", "int64", "float64", "complex128"})  # the dtypes of Python's scalars
# What a Python scalar annotation admits (PEP 484's numeric tower: an int is a float), by kind;
# callers pass NumPy scalars and JAX arrays (tracers, under jit) of those kinds as well.
_TOWER = MappingProxyType({"b": "b", "i": "biu", "f": "biuf", "c": "biufc"})


def members(libraries: tuple[Library, ...], ctx: Context, dtypes: frozenset[str] | None = None) -> tuple[Array, ...]:
    """Every exact value of ``libraries`` (with ``dtypes`` only, when given), in the modes
    ``ctx``: JAX has no 64-bit arrays with x64 off, and its weak values have the default width."""
    names = sorted(dtypes if dtypes is not None else DTYPES)
    by_library: list[list[Array]] = []
    for library in libraries:
        found: list[Array] = []
        if library is Library.PYTHON:
            found += [Array(frozenset([d]), library, d != "bool") for d in names if d in _PYTHON_KINDS]
        elif library is Library.JAX:
            for d in names:
                if is_64bit(d) and not ctx.x64:
                    continue
                found.append(Array(frozenset([d]), library, False))
                if DTYPES[d].kind in "ifc" and d == ctx.jax.default_dtype(DTYPES[d].kind):
                    found.append(Array(frozenset([d]), library, True))
        else:
            found += [Array(frozenset([d]), library, False, ndim=0 if library is Library.NUMPY_SCALAR else None)
                      for d in names]  # fmt: skip
        by_library.append(found)
    # Libraries taken in turn: a value that differs between members shows it within the first
    # few, where the questions "is it the same at every member?" stop.
    return tuple(m for turn in itertools.zip_longest(*by_library) for m in turn if m is not None)


def annotated(annotation: Array) -> tuple[tuple[Library, ...], frozenset[str]] | None:
    """The libraries and dtypes a parameter annotated as ``annotation`` ranges over: an
    annotation of a Python scalar type (``x: float``) any numeric value of its kind and below, of
    any library; one of several dtypes of a library (jaxtyping's ``Float[Array, "n"]``) those
    dtypes of that library.  None when the annotation is exact already."""
    if annotation.library is Library.PYTHON and len(annotation.dtypes) == 1 and annotation.literal is None:
        kinds = _TOWER[DTYPES[next(iter(annotation.dtypes))].kind]
        return NUMERIC, frozenset(d for d in DTYPES if DTYPES[d].kind in kinds)
    if len(annotation.dtypes) > 1:
        return (annotation.library,), annotation.dtypes
    return None


def counting(members: tuple[Array, ...]) -> tuple[Array, ...]:
    """The members of an integer parameter (``n: int``, ``n=10``) the code counts with, where
    the program goes on: ``arange`` refuses a bool.  A wider annotation (``n: float``) is kept."""
    kinds = {DTYPES[d].kind for m in members for d in m.dtypes}
    counts = tuple(m for m in members if m.dtypes <= COUNTS)
    return counts if counts and kinds <= {"b", "i", "u"} else members

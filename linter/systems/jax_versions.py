"""JAX's facts per version: where a JAX release answers differently from the pinned one.

promolint never imports JAX, so these are data, measured on each version listed: the promotion
tables of 0.10.2, 0.12.0.1 and 0.12.1 agree in every mode among the dtypes promolint models
(tests/oracle/test_jax_system.py passes on each), but some functions' weak flags and the
exceptions of some refusals changed, from 0.11.0 to 0.12.1, one at a time, and 0.12.1 adds dtypes
promolint does not model.  The facts in force are those of a `jax-version` setting, else of the
JAX installed in the environment being linted (read from its metadata, never by importing it);
the pinned version's stand in where neither says.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from promolint.systems import installed

PINNED = "0.10.2"  # the version promolint's own facts were measured on (pyproject's test extra)


@dataclass(frozen=True)
class JaxFacts:
    """The facts measured on JAX ``version``, which hold from it to the next version listed."""

    version: str
    # jnp functions whose weak flag differs from promotion's: the catalog's `inexact` rule default
    # ("" where it follows promotion).
    inexact_weak: Mapping[str, str] = field(default_factory=dict)
    linalg_float16_error: str = "NotImplementedError"  # what jnp.linalg's cholesky, inv, solve, eigh raise
    # Dtypes whose comparisons may fail to compile, a backend's bug rather than a refusal of
    # promotion: the engine claims no dtype for them.
    unsure_comparisons: frozenset[str] = frozenset()
    # Functions that run on dtypes the pinned version refuses (promolint.engine.domains.REFUSED).
    runs: frozenset[str] = frozenset()
    # Dtypes this JAX has that promolint does not model: a value of one is unknown (as any dtype
    # name the catalog lacks), and promotion among the others is the pinned version's.
    unmodelled_dtypes: frozenset[str] = frozenset()


# Oldest first, each measured on its own version (0.12.0's on 0.12.0.1 too) with the probes in
# tests/systems/test_versions.py's docstring.
_FLOAT6 = frozenset({"float6_e2m3fn", "float6_e3m2fn"})
JAX_FACTS: tuple[JaxFacts, ...] = (
    JaxFacts(PINNED, inexact_weak={"log2": "strong", "log10": "strong", "hypot": "all-weak"}),
    # Comparing float6 arrays crashes XLA's CPU compiler (INTERNAL: RET_CHECK failure, "Invalid
    # bitcast i6 to i8"); 0.10.2 cannot make a float6 array on CPU at all.
    JaxFacts("0.11.0", inexact_weak={"log2": "strong", "log10": "strong", "hypot": "all-weak"},
             unsure_comparisons=_FLOAT6),  # fmt: skip
    JaxFacts("0.11.1", inexact_weak={"log2": "strong", "log10": "strong", "hypot": "all-weak"},
             linalg_float16_error="TypeError", unsure_comparisons=_FLOAT6),  # fmt: skip
    JaxFacts("0.11.2", inexact_weak={"log2": "", "log10": "strong", "hypot": "all-weak"},
             linalg_float16_error="TypeError", unsure_comparisons=_FLOAT6),  # fmt: skip
    JaxFacts("0.12.0", inexact_weak={"log2": "", "log10": "strong", "hypot": ""}, linalg_float16_error="TypeError",
             unsure_comparisons=_FLOAT6),  # fmt: skip
    # Three new dtypes, promoted only with each other and the weak kinds; `betaln` of weak values
    # is strong; `kron` of bools runs.
    JaxFacts("0.12.1", inexact_weak={"log2": "", "log10": "strong", "hypot": "", "jax.scipy.special.betaln": "strong"},
             linalg_float16_error="TypeError", unsure_comparisons=_FLOAT6, runs=frozenset({"kron"}),
             unmodelled_dtypes=frozenset({"complex32", "bcomplex32", "float8_e5m3fnu"})),  # fmt: skip
)
_VERSION = re.compile(r"\d+(\.\d+)*")


class JaxVersionError(ValueError):
    """A `jax-version` that is not a version number."""


def parse_version(text: str) -> tuple[int, ...]:
    """``0.12.0.1`` as (0, 12, 0, 1); a pre-release or local suffix (``0.12.0rc1``) is dropped."""
    match = _VERSION.match(text.strip())
    if not match:
        raise JaxVersionError(f"{text!r} is not a JAX version (like {PINNED})")
    return tuple(int(part) for part in match[0].split("."))


def facts_for(version: str) -> JaxFacts:
    """The facts of the newest version listed at or below ``version``; the pinned version's below them all."""
    wanted = parse_version(version)
    return next((facts for facts in reversed(JAX_FACTS) if parse_version(facts.version) <= wanted), JAX_FACTS[0])


@dataclass(frozen=True)
class JaxSelection:
    """The facts in force, the JAX version they were chosen for, and where that came from."""

    facts: JaxFacts
    version: str
    origin: str

    def describe(self) -> str:
        return f"jax {self.facts.version} facts, for jax {self.version} ({self.origin})"


def select(setting: str = "", environment: Mapping[str, str] | None = None) -> JaxSelection:
    """The facts for the `jax-version` ``setting``, else for the JAX of the linted environment
    (``VIRTUAL_ENV``'s site-packages, else promolint's own), else the pinned version's."""
    if setting:
        return JaxSelection(facts_for(setting), setting, "jax-version")
    found = installed_jax(os.environ if environment is None else environment)
    if found is not None:
        version, where = found
        try:
            return JaxSelection(facts_for(version), version, f"installed in {where}")
        except JaxVersionError:
            pass  # a broken metadata file: as if no JAX were installed
    return JaxSelection(facts_for(PINNED), PINNED, "pinned: no JAX found")


def installed_jax(environment: Mapping[str, str]) -> tuple[str, str] | None:
    """The version of the JAX installed in the linted environment and that environment's
    folder, read from the ``jax-*.dist-info`` metadata (JAX is never imported)."""
    virtual_env = environment.get("VIRTUAL_ENV")
    folders = [str(folder) for folder in site_packages_of(Path(virtual_env))] if virtual_env else sys.path
    version = installed.versions(folders, ("jax",)).get("jax")
    return None if version is None else (version, virtual_env or sys.prefix)


def site_packages_of(prefix: Path) -> list[Path]:
    """An environment's site-packages folders: ``lib/pythonX.Y/site-packages`` (POSIX),
    ``Lib/site-packages`` (Windows)."""
    return sorted(prefix.glob("lib/python*/site-packages")) + [p for p in [prefix / "Lib" / "site-packages"]
                                                                 if p.is_dir()]  # fmt: skip

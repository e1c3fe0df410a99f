"""``[tool.promolint]`` in pyproject.toml, found upward from the linted paths; flags override it."""

from __future__ import annotations

import fnmatch
import functools
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from promolint.core.dtypes import CONTRACT_WIDE, DEFAULT_INPUT_DTYPES
from promolint.rules.registry import NUMPY1_COMPAT, OUTSIDE_TESTS, PARSE_ERROR, REGISTRY, UNUSED_NOQA, X64_PORTABILITY

if TYPE_CHECKING:
    from promolint.engine.flow.modes import Settings
    from promolint.engine.project_facts import ProjectFacts

# Every rule's code, True for the opt-in ones; the checker's own PRM000 (always on) and PRM100
# (opt-in) are handled apart.
RULE_CODES = {info.code: info.opt_in for info in REGISTRY if info.reported_by != "checker"}

MODES = {"x64": ("on", "off", "auto"), "promotion": ("standard", "strict", "auto")}
DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "__pycache__", "build", "dist",
                   "node_modules", "site-packages", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                   ".promolint_cache", "*.egg-info", ".eggs")  # fmt: skip
_CODE_KEYS = ("select", "ignore", "extend-select")
_GLOB_KEYS = ("exclude", "extend-exclude", "test-files")
# Test modules by the conventions of pytest and unittest, and the helpers beside them: the rules
# whose registry row says `in_tests=False` (PRM001, PRM028, PRM029) are not reported there.
DEFAULT_TEST_FILES = ("test_*.py", "*_test.py", "*_tests.py", "conftest.py", "tests/*", "*/tests/*", "test/*",
                      "*/test/*", "testing/*", "*/testing/*")  # fmt: skip
_SWITCH_KEYS = ("report-unused-noqa", "x64-portability", "numpy1-compat", "force-exclude")
_PATH_KEYS = ("cache-dir", "baseline")
# The Pythons code may be written for, as ruff spells them: syntax a later one added is an error.
TARGET_VERSIONS = tuple(f"py3{minor}" for minor in range(7, 15))
KEYS = (*_CODE_KEYS, *MODES, "target-version", "jax-version", "input-dtypes", *_GLOB_KEYS, *_SWITCH_KEYS,
        "per-file-ignores", "external", *_PATH_KEYS)  # also `promolint config`'s order  # fmt: skip
_EXTENDING_FLAGS = ("ignore", "extend-select", "extend-exclude", "external")  # these flags add to the config


class ConfigError(Exception):
    """A bad setting: reported in one line, exit status 2."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("PRM",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    x64: str = "auto"
    promotion: str = "auto"
    target_version: str = ""  # "" for the grammar of the Python promolint runs on
    jax_version: str = ""  # whose JAX facts apply; "" for the JAX installed in the linted environment
    input_dtypes: tuple[str, ...] = DEFAULT_INPUT_DTYPES  # what array parameters are called with; () for none
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    report_unused_noqa: bool = False
    x64_portability: bool = False
    numpy1_compat: bool = False  # report where NumPy 1.x and 2 differ (PRM024)
    force_exclude: bool = False  # apply exclude to files named on the command line too (pre-commit passes them)
    test_files: tuple[str, ...] = DEFAULT_TEST_FILES  # globs of test modules ([] reports every rule there)
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    external: tuple[str, ...] = ()  # other tools' noqa codes (or prefixes): PRM100 leaves them alone, as ruff's
    cache_dir: str = ".promolint_cache"  # relative to the project root, like .ruff_cache
    baseline: str = ""  # findings recorded there are not reported (relative to the project root); "" for none
    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None  # the pyproject.toml the settings came from
    origins: Mapping[str, str] = field(default_factory=dict)  # key -> where its value came from; absent: default

    def enabled_codes(self, path: Path | None = None) -> frozenset[str]:
        ignored = self.ignore
        if path is not None and (self.per_file_ignores or self.test_files):
            relative = _relative(path, self.root)
            for pattern, extra in self.per_file_ignores.items():
                if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(path.name, pattern):
                    ignored += extra
            if any(fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(path.name, p) for p in self.test_files):
                ignored += OUTSIDE_TESTS
        switched = ((UNUSED_NOQA,) * self.report_unused_noqa + (X64_PORTABILITY,) * self.x64_portability
                    + (NUMPY1_COMPAT,) * self.numpy1_compat)
        return _enabled(self.select + self.extend_select + switched, ignored)

    def settings(self, facts: ProjectFacts | None = None) -> Settings:
        """The modes, grammar and facts a file is analysed with: every front end's one way from
        the configuration to the engine (``facts``: what the other files of the run decide)."""
        from promolint.engine.flow.modes import Settings  # loads the engine: a run served from the cache needs none
        from promolint.engine.project_facts import ProjectFacts

        return Settings(x64=self.x64, promotion=self.promotion, facts=facts or ProjectFacts(), python=self.python,
                        jax_version=self.jax_version, input_dtypes=self.input_dtypes)  # fmt: skip

    def results_key(self) -> str:
        """What a file's cached diagnostics depend on besides its bytes, codes and facts: the
        modes, the grammar, other tools' codes, and the versions whose facts apply (results found
        with JAX 0.10's facts are not 0.12's)."""
        return "|".join((self.x64, self.promotion, self.target_version, *self.external, facts_versions(self),
                         ",".join(self.input_dtypes)))

    @property
    def python(self) -> tuple[int, int] | None:
        """``target_version`` as ``ast.parse``'s ``feature_version``; None for the running Python's."""
        return (3, int(self.target_version[3:])) if self.target_version else None

    def excluded(self, path: Path) -> bool:
        return self.excluded_relative(_relative(path, self.root))

    def excluded_relative(self, relative: str) -> bool:
        """``excluded`` for a path given relative to the root, with forward slashes (a walk
        extends its folder's instead of computing each file's)."""
        pattern = _glob_regex(self.exclude + self.extend_exclude)
        return any(pattern.match(part) for part in relative.split("/")) or bool(pattern.match(relative))

    def relative(self, path: Path) -> str:
        """``path`` as ``excluded_relative`` takes it."""
        return _relative(path, self.root)


@functools.lru_cache(maxsize=64)
def _enabled(selected: tuple[str, ...], ignored: tuple[str, ...]) -> frozenset[str]:
    """Opt-in codes (PRM100, PRM010, ...) are enabled by their own code or ALL, never by a prefix."""
    named = "ALL" in selected
    codes = {c for c, opt_in in RULE_CODES.items() if (named or c in selected if opt_in else _matches(c, selected))}
    codes.add(PARSE_ERROR)
    if named or UNUSED_NOQA in selected:
        codes.add(UNUSED_NOQA)
    return frozenset(c for c in codes if not _matches(c, ignored))


@functools.lru_cache(maxsize=16)
def _glob_regex(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """All exclude globs as one regex: walking a tree tests every name against every glob."""
    return re.compile("|".join(fnmatch.translate(p) for p in patterns) or "(?!)")


def known_codes() -> list[str]:
    return sorted([*RULE_CODES, PARSE_ERROR, UNUSED_NOQA])


def _relative(path: Path, root: Path) -> str:
    """``path`` relative to the project root, with forward slashes (symlinks are not followed:
    excludes apply to the paths as walked)."""
    relative = os.path.relpath(os.path.abspath(path), _absolute(root))
    return path.as_posix() if relative.startswith("..") else relative.replace(os.sep, "/")


@functools.lru_cache(maxsize=16)
def _absolute(root: Path) -> str:
    return os.path.abspath(root)


def _matches(code: str, selectors: tuple[str, ...]) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def validate_codes(key: str, values) -> tuple[str, ...]:
    """Rule codes or prefixes, in any case (``prm001`` is PRM001, as `explain` reads it)."""
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{key} must be a list of rule codes")
    known = known_codes()
    values = [value.strip().upper() for value in values]
    for value in values:
        if value != "ALL" and not (value and any(code.startswith(value) for code in known)):
            raise ConfigError(f"unknown rule code {value!r} in {key} (known: {', '.join(known)}, or ALL)")
    return tuple(values)


_EXTERNAL_CODE = re.compile(r"[A-Z]+[0-9]*")


def _validate_external(label: str, values) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{label} must be a list of other tools' rule codes or prefixes (F401, E)")
    codes = tuple(value.strip().upper() for value in values)
    for code in codes:
        if not _EXTERNAL_CODE.fullmatch(code):
            raise ConfigError(f"{label}: {code!r} is not a rule code or prefix (letters, then digits: F401, E)")
        if code.startswith("PRM"):
            raise ConfigError(f"{label}: {code!r} is promolint's own code, not another tool's")
    return codes


def _parse(key: str, value, label: str):
    """One setting's value, checked by the same rules in pyproject.toml and on the command line;
    ``label`` names the setting in messages."""
    if key in _CODE_KEYS:
        codes = validate_codes(label, value)
        if key == "select" and not codes:
            raise ConfigError(f"{label} selects no rule: name codes or prefixes (PRM, PRM001) or ALL")
        return codes
    if key == "external":
        return _validate_external(label, value)
    if key in _GLOB_KEYS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{label} must be a list of glob patterns")
        return tuple(value)
    if key in MODES:
        if value not in MODES[key]:
            raise ConfigError(f"{label} = {value!r} is not one of {', '.join(MODES[key])}")
        return value
    if key == "jax-version":
        if not isinstance(value, str) or (value and not _JAX_VERSION.fullmatch(value)):
            raise ConfigError(f"{label} = {value!r} is not a JAX version (like \"0.10.2\"; \"\" for the installed one)")
        return value
    if key == "input-dtypes":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{label} must be a list of dtype names (like [\"float32\"]; [] for none)")
        unknown = [v for v in value if v not in CONTRACT_WIDE]
        if unknown:
            raise ConfigError(f"{label}: {unknown[0]!r} is not an array dtype a contract can give "
                              f"({', '.join(CONTRACT_WIDE)})")  # fmt: skip
        return tuple(value)
    if key == "target-version":
        if value != "" and value not in TARGET_VERSIONS:
            raise ConfigError(f"{label} = {value!r} is not one of {', '.join(TARGET_VERSIONS)} "
                              "(\"\" for the Python promolint runs on)")  # fmt: skip
        return value
    if key in _SWITCH_KEYS:
        if not isinstance(value, bool):
            raise ConfigError(f"{label} = {value!r} is not one of true, false")
        return value
    if key == "cache-dir":
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{label} must be a directory path")
        return value
    if key == "baseline":
        if not isinstance(value, str):
            raise ConfigError(f"{label} must be a file path (\"\" for none)")
        return value
    if not isinstance(value, dict):
        raise ConfigError(f"{label} must be a table of glob = [codes]")
    return {glob: validate_codes(f"{label} {glob!r}", codes) for glob, codes in value.items()}


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml above ``start`` that has a [tool.promolint] table."""
    start = start.resolve()
    directory = start if start.is_dir() else start.parent
    for candidate in (d / "pyproject.toml" for d in (directory, *directory.parents)):
        if candidate.is_file() and "promolint" in _read_toml(candidate).get("tool", {}):
            return candidate
    return None


def project_root(start: Path) -> Path:
    """Where a project without [tool.promolint] keeps its cache, as ruff finds it: the nearest
    folder above ``start`` with a pyproject.toml, setup.cfg or .git; else the working folder,
    unless ``start`` lies outside it: a tree linted from elsewhere keeps its cache beside it."""
    directory = start.resolve()
    directory = directory if directory.is_dir() else directory.parent
    for folder in (directory, *directory.parents):
        if any(os.path.exists(folder / marker) for marker in PROJECT_MARKERS):
            return folder
    working = Path.cwd().resolve()
    return working if directory == working or working in directory.parents else directory


PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None


def load_config(start: Path) -> Config:
    pyproject = find_pyproject(start)
    if pyproject is None:
        return Config(root=(start if start.is_dir() else start.parent).resolve())
    return parse_table(_read_toml(pyproject)["tool"]["promolint"], pyproject)


def parse_table(table: dict, origin: Path) -> Config:
    where = f"{origin}: [tool.promolint]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(KEYS))})")
    changes = {key.replace("-", "_"): _parse(key, value, f"{where} {key}") for key, value in table.items()}
    return Config(root=origin.parent.resolve(), source=origin, origins=dict.fromkeys(table, origin.name), **changes)


def apply_flags(config: Config, flags: Mapping[str, object]) -> Config:
    """``config`` overridden by command-line flags (keys as in pyproject.toml; lists as comma-separated text).

    Like ruff: ``--select`` and ``--exclude`` replace the configured list; ``--ignore``,
    ``--extend-select`` and ``--extend-exclude`` add to it."""
    changes, origins = {}, dict(config.origins)
    for key, value in flags.items():
        if isinstance(value, str) and key in (*_CODE_KEYS, *_GLOB_KEYS, "external", "input-dtypes"):
            value = [item.strip() for item in value.split(",") if item.strip()]
        attribute, flag = key.replace("-", "_"), f"--{key}"
        parsed = _parse(key, value, flag)
        if key in _EXTENDING_FLAGS:
            parsed = getattr(config, attribute) + parsed
            flag = f"{origins[key]}, {flag}" if key in origins else flag
        changes[attribute], origins[key] = parsed, flag
    return replace(config, origins=origins, **changes)


_JAX_VERSION = re.compile(r"\d+(\.\d+)*")


def facts_in_force(config: Config) -> str:
    """Which versions' facts the systems use: JAX's as chosen (by `jax-version` or the linted
    environment), NumPy's and ml_dtypes' as installed beside promolint."""
    from promolint.systems import get_system
    from promolint.systems.jax_versions import select

    return f"{select(config.jax_version).describe()}; {get_system('numpy').facts.describe()}"


def facts_versions(config: Config) -> str:
    """The versions whose facts apply, read from metadata without loading the facts (a cache key)."""
    from promolint.systems.jax_versions import select
    from promolint.systems.numpy_facts import installed_versions

    return f"jax {select(config.jax_version).facts.version}, numpy and ml_dtypes {installed_versions()}"


def render(config: Config) -> str:
    """The effective configuration as TOML, each setting commented with where it came from."""
    lines = [f"# settings from {config.source}" if config.source else "# no [tool.promolint] table found: defaults",
             "[tool.promolint]"]  # fmt: skip
    for key in KEYS:
        value = getattr(config, key.replace("-", "_"))
        if isinstance(value, bool):
            text = str(value).lower()
        elif isinstance(value, dict):
            text = "{" + ", ".join(f"{json.dumps(glob)} = {json.dumps(list(c))}" for glob, c in value.items()) + "}"
        else:
            text = json.dumps(list(value) if isinstance(value, tuple) else value)
        lines.append(f"{key} = {text}  # {config.origins.get(key, 'default')}")
    lines.append(f"# facts: {facts_in_force(config)}")
    lines.append(f"# enabled: {' '.join(sorted(config.enabled_codes()))}")
    return "\n".join(lines) + "\n"

"""``[tool.promolint]`` in pyproject.toml, found upward from the linted paths; flags override it."""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from linter.rules import ALL_RULES

MODES = {"x64": ("on", "off", "auto"), "promotion": ("standard", "strict", "auto")}
DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "__pycache__", "build", "dist",
                   "node_modules", "site-packages", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                   ".promolint_cache", "*.egg-info", ".eggs")  # fmt: skip
_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude")
_KNOWN_KEYS = frozenset((*_LIST_KEYS, "x64", "promotion", "per-file-ignores"))


class ConfigError(Exception):
    """A bad setting: reported in one line, exit status 2."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("PRM",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    x64: str = "auto"
    promotion: str = "auto"
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    root: Path = field(default_factory=Path.cwd)
    source: str = ""  # the file the settings came from, for `promolint config`

    def enabled_codes(self, path: Path | None = None) -> frozenset[str]:
        codes = {r.code for r in ALL_RULES if _matches(r.code, self.select + self.extend_select)}
        ignored = self.ignore
        if path is not None:
            relative = _relative(path, self.root)
            for pattern, extra in self.per_file_ignores.items():
                if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(path.name, pattern):
                    ignored += extra
        return frozenset(c for c in codes if not _matches(c, ignored)) | ({"PRM000"} if "PRM000" not in ignored else set())

    def excluded(self, path: Path) -> bool:
        relative = _relative(path, self.root)
        parts = Path(relative).parts
        for pattern in self.exclude + self.extend_exclude:
            if any(fnmatch.fnmatch(part, pattern) for part in parts) or fnmatch.fnmatch(relative, pattern):
                return True
        return False


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _matches(code: str, selectors: tuple[str, ...]) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def validate_codes(key: str, values) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{key} must be a list of rule codes")
    known = [r.code for r in ALL_RULES] + ["PRM000"]
    for value in values:
        if value != "ALL" and not any(code.startswith(value) for code in known):
            raise ConfigError(f"unknown rule code {value!r} in {key} (known: {', '.join(known)}, or ALL)")
    return tuple(values)


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml above ``start`` that has a [tool.promolint] table."""
    start = start.resolve()
    for directory in [start if start.is_dir() else start.parent, *(start if start.is_dir() else start.parent).parents]:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
                raise ConfigError(f"{candidate}: invalid TOML: {error}") from None
            if "promolint" in data.get("tool", {}):
                return candidate
    return None


def load_config(start: Path) -> Config:
    pyproject = find_pyproject(start)
    if pyproject is None:
        return Config(root=(start if start.is_dir() else start.parent).resolve())
    table = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["promolint"]
    return parse_table(table, pyproject)


def parse_table(table: dict, origin: Path) -> Config:
    where = f"{origin}: [tool.promolint]"
    unknown = sorted(set(table) - _KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_KNOWN_KEYS))})")
    config = Config(root=origin.parent.resolve(), source=str(origin))
    changes: dict = {}
    for key in ("select", "ignore", "extend-select"):
        if key in table:
            changes[key.replace("-", "_")] = validate_codes(f"{where} {key}", table[key])
    for key in ("exclude", "extend-exclude"):
        if key in table:
            values = table[key]
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise ConfigError(f"{where}: {key} must be a list of glob patterns")
            changes[key.replace("-", "_")] = tuple(values)
    for key, allowed in MODES.items():
        if key in table:
            if table[key] not in allowed:
                raise ConfigError(f"{where}: {key} = {table[key]!r} is not one of {', '.join(allowed)}")
            changes[key] = table[key]
    if "per-file-ignores" in table:
        raw = table["per-file-ignores"]
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: per-file-ignores must be a table of glob = [codes]")
        changes["per_file_ignores"] = {glob: validate_codes(f"{where} per-file-ignores {glob!r}", codes)
                                       for glob, codes in raw.items()}  # fmt: skip
    return replace(config, **changes)

"""Finding ``[tool.promolint]`` for a mypy run, and what mypy's cache must know about it.

Discovery is deliberately cheap (one TOML read, no engine import): mypy calls
``report_config_data`` for every module on every run, warm cache included.  The table is
validated by ``linter.config.parse_table`` (the same code as ``promolint check``) the first time
a hook needs it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class RawConfig:
    """The ``[tool.promolint]`` table as found (not yet validated), and where."""

    pyproject: str | None
    table: dict | None
    root: str
    error: str | None = None

    def report_data(self) -> str:
        """What mypy stores in each module's cache meta (a change invalidates the module): a
        digest of the table, where it came from, and the plugin's and engine's code."""
        global _last_report
        if _last_report is None or _last_report[0] is not self:
            import hashlib
            import json

            text = json.dumps([self.pyproject, self.table, self.error, code_fingerprint()], sort_keys=True, default=str)
            _last_report = (self, "promolint-" + hashlib.sha1(text.encode()).hexdigest()[:20])
        return _last_report[1]


_fingerprint: str | None = None
_last_report: tuple[RawConfig, str] | None = None


def code_fingerprint() -> str:
    """Identifies the plugin's and the engine's code (file sizes and times): mypy only tracks
    the plugin's entry module, and results of cached modules must not outlive an upgrade."""
    global _fingerprint
    if _fingerprint is None:
        import hashlib

        entries = []
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        stack = [os.path.join(root, "mypy_plugin"), os.path.join(root, "linter")]
        while stack:
            with os.scandir(stack.pop()) as directory:
                for entry in directory:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            stack.append(entry.path)
                    elif entry.name.endswith(".py"):
                        stat = entry.stat()
                        entries.append(f"{os.path.relpath(entry.path, root)}:{stat.st_size}:{stat.st_mtime_ns}")
        _fingerprint = hashlib.sha1(";".join(sorted(entries)).encode()).hexdigest()[:16]
    return _fingerprint


def _promolint_table(directory: Path) -> tuple[Path, dict] | tuple[Path, str] | None:
    for candidate_dir in [directory, *directory.parents]:
        candidate = candidate_dir / "pyproject.toml"
        if not candidate.is_file():
            continue
        try:
            data = tomllib.loads(candidate.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
            return candidate, f"{candidate}: invalid TOML: {error}"
        table = data.get("tool", {}).get("promolint")
        if table is not None:
            return candidate, table
    return None


def discover(config_file: str | None) -> RawConfig:
    """The nearest pyproject.toml with a [tool.promolint] table above the directory of mypy's
    config file, else above the working directory (as ``linter.config.find_pyproject``)."""
    starts = []
    if config_file:
        starts.append(Path(config_file).resolve().parent)
    starts.append(Path(os.getcwd()).resolve())
    for start in starts:
        found = _promolint_table(start)
        if found is None:
            continue
        path, table = found
        if isinstance(table, str):
            return RawConfig(str(path), None, str(path.parent), error=table)
        if not isinstance(table, dict):
            return RawConfig(str(path), None, str(path.parent), error=f"{path}: [tool.promolint] must be a table")
        return RawConfig(str(path), table, str(path.parent))
    return RawConfig(None, None, str(starts[0]))


def load(raw: RawConfig):
    """The validated ``linter.config.Config`` and an error message (None when valid)."""
    from linter.config import Config, ConfigError, parse_table

    if raw.error:
        return Config(root=Path(raw.root)), raw.error
    if raw.table is None or raw.pyproject is None:
        return Config(root=Path(raw.root)), None
    try:
        return parse_table(raw.table, Path(raw.pyproject)), None
    except ConfigError as error:
        return Config(root=Path(raw.root)), str(error)

"""Finding ``[tool.promolint]`` for a mypy run, and what mypy's cache must know about it.

mypy calls ``report_config_data`` for every module on every run, warm cache included, so what
it returns is cheap: a digest of the bytes of the pyproject.toml files that may hold the table
(no TOML parsing, no engine import).  The table itself is parsed when a hook first needs it, and
validated by ``promolint.driver.config.parse_table``, the same code as ``promolint check``.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path


class RawConfig:
    """Where ``[tool.promolint]`` comes from: the nearest pyproject.toml with that table above
    the directory of mypy's config file, else above the working directory (as
    ``promolint.driver.config.find_pyproject`` looks)."""

    def __init__(self, config_file: str | None):
        starts = [os.path.dirname(os.path.abspath(config_file))] if config_file else []
        self.starts = [*starts, os.path.abspath(os.getcwd())]
        self._digest: str | None = None
        self._found: tuple[str | None, dict | None, str | None] | None = None

    @functools.cached_property
    def _candidates(self) -> list[str]:
        """Every pyproject.toml above each start, nearest first."""
        out: list[str] = []
        for start in self.starts:
            directory = start
            while True:
                candidate = os.path.join(directory, "pyproject.toml")
                if candidate not in out and os.path.isfile(candidate):
                    out.append(candidate)
                parent = os.path.dirname(directory)
                if parent == directory:
                    break
                directory = parent
        return out

    def report_data(self) -> str:
        """What mypy stores in each module's cache meta (a change invalidates the module): the
        pyproject.toml files the table may come from, and the plugin's and engine's code."""
        if self._digest is None:
            import hashlib

            digest = hashlib.sha1(code_fingerprint().encode())
            for candidate in self._candidates:
                try:
                    digest.update(candidate.encode() + b"\0" + Path(candidate).read_bytes() + b"\0")
                except OSError:
                    continue
            self._digest = "promolint-" + digest.hexdigest()[:20]
        return self._digest

    def _find(self) -> tuple[str | None, dict | None, str | None]:
        """(pyproject path, [tool.promolint] table, error) of the first start that has one."""
        if self._found is None:
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover - Python 3.10
                import tomli as tomllib

            self._found = (None, None, None)
            for candidate in self._candidates:
                try:
                    data = tomllib.loads(Path(candidate).read_text(encoding="utf-8"))
                except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
                    self._found = (candidate, None, f"{candidate}: invalid TOML: {error}")
                    break
                table = data.get("tool", {}).get("promolint")
                if isinstance(table, dict):
                    self._found = (candidate, table, None)
                    break
                if table is not None:
                    self._found = (candidate, None, f"{candidate}: [tool.promolint] must be a table")
                    break
        return self._found

    @property
    def pyproject(self) -> str | None:
        return self._find()[0]

    @property
    def table(self) -> dict | None:
        return self._find()[1]

    @property
    def error(self) -> str | None:
        return self._find()[2]

    @property
    def root(self) -> str:
        return os.path.dirname(self.pyproject) if self.pyproject else self.starts[0]


_fingerprint: str | None = None


def code_fingerprint() -> str:
    """Identifies the plugin's and the engine's code (file sizes and times): mypy only tracks
    the plugin's entry module, and results of cached modules must not outlive an upgrade."""
    global _fingerprint
    if _fingerprint is None:
        import hashlib

        import promolint

        # The plugin's folder and the engine's.
        folders = {os.path.dirname(os.path.abspath(__file__)), os.path.dirname(os.path.abspath(promolint.__file__))}
        entries = set()
        root = os.path.commonpath(sorted(folders))
        stack = sorted(folders)
        while stack:
            with os.scandir(stack.pop()) as directory:
                for entry in directory:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            stack.append(entry.path)
                    elif entry.name.endswith(".py"):
                        stat = entry.stat()
                        entries.add(f"{os.path.relpath(entry.path, root)}:{stat.st_size}:{stat.st_mtime_ns}")
        _fingerprint = hashlib.sha1(";".join(sorted(entries)).encode()).hexdigest()[:16]
    return _fingerprint


def discover(config_file: str | None) -> RawConfig:
    return RawConfig(config_file)


def load(raw: RawConfig):
    """The validated ``promolint.driver.config.Config`` and an error message (None when valid)."""
    from promolint.driver.config import Config, ConfigError, parse_table

    if raw.error:
        return Config(root=Path(raw.root)), raw.error
    if raw.table is None or raw.pyproject is None:
        return Config(root=Path(raw.root)), None
    try:
        return parse_table(raw.table, Path(raw.pyproject)), None
    except ConfigError as error:
        return Config(root=Path(raw.root)), str(error)

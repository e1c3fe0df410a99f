"""A content-hash result cache, like ``.ruff_cache``: unchanged files are not parsed again.

Entries are keyed by the SHA-256 of the file's bytes; one cache file holds the entries of one
(promolint version, effective settings) pair, so any change of version or configuration starts
a fresh file.  Writes go to a temporary file renamed into place, so concurrent runs never see a
torn file (the last writer wins; a lost entry only costs a re-lint).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from promolint import __version__

CACHE_DIR_NAME = ".promolint_cache"
_FORMAT = 3  # 2: rows hold the fix as one list, and a notebook cell and file line; 3: related locations


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ResultCache:
    """Diagnostics by file content, for one version and one set of settings."""

    def __init__(self, directory: Path, settings_key: str):
        digest = hashlib.sha256(f"{_FORMAT}|{__version__}|{settings_key}".encode()).hexdigest()[:24]
        self.path = directory / f"{digest}.json"
        self.directory = directory
        self._entries: dict[str, list] = self._load()
        self._dirty = False

    def _load(self) -> dict[str, list]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # missing or damaged: start afresh
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> list | None:
        return self._entries.get(key)

    def put(self, key: str, rows: list) -> None:
        if self._entries.get(key) != rows:
            self._entries[key] = rows
            self._dirty = True

    def retain(self, keys: set[str]) -> None:
        """Forget entries of files no longer seen, so the cache does not grow without bound."""
        stale = set(self._entries) - keys
        if stale:
            for key in stale:
                del self._entries[key]
            self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Automatically created by promolint.\n*\n", encoding="utf-8")
            handle, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self._entries, out, separators=(",", ":"))
            os.replace(temporary, self.path)
        except OSError:
            pass  # a read-only tree lints fine without a cache
        self._dirty = False

"""A content-hash result cache, like ``.ruff_cache``: unchanged files are not parsed again.

Entries are keyed by the SHA-256 of the file's bytes; one cache file holds the entries of one
(promolint version, effective settings) pair, so any change of version or configuration starts
a fresh file.  Writes are atomic (``promolint.core.files``), so concurrent or interrupted runs never
leave a torn file (the last writer wins; a lost entry only costs a re-lint).

The same file holds an index of the last run's files, as git's index does: each path's status
(modification and change times, size, inode) when it was read, and the key of its entry.  A run
whose files all have the status recorded reads none of them (``promolint.driver.index``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from promolint import __version__
from promolint.core.files import write_atomically

CACHE_DIR_NAME = ".promolint_cache"
_PARTS = ("results", "files", "run")  # of a cache file: entries, the index of files, the index's run
# 2: rows hold the fix as one list, and a notebook cell and file line; 3: related locations; 4: the index; 5: an
# index entry's status is one field (promolint.driver.index.IndexEntry)
_FORMAT = 5


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ResultCache:
    """Diagnostics by file content, for one version and one set of settings."""

    def __init__(self, directory: Path, settings_key: str):
        digest = hashlib.sha256(f"{_FORMAT}|{__version__}|{settings_key}".encode()).hexdigest()[:24]
        self.path = directory / f"{digest}.json"
        self.directory = directory
        loaded = self._load()
        self._entries: dict[str, list] = loaded.get("results", {})
        self.files: dict[str, list] = loaded.get("files", {})  # the index: path -> its entry (index)
        self.run: dict = loaded.get("run", {})  # what the index holds for the run as a whole (index)
        self._dirty = False

    def _load(self) -> dict[str, dict]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # missing or damaged: start afresh
        if not isinstance(data, dict) or not all(isinstance(data.get(part, {}), dict) for part in _PARTS):
            return {}
        return data

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def get(self, key: str) -> list | None:
        return self._entries.get(key)

    def put(self, key: str, rows: list) -> None:
        if self._entries.get(key) != rows:
            self._entries[key] = rows
            self._dirty = True

    def index(self, files: dict[str, list], run: dict) -> None:
        """Replace the index of the last run's files."""
        if files != self.files or run != self.run:
            self.files, self.run = files, run
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
                write_atomically(ignore, "# Automatically created by promolint.\n*\n")
            # dumps, not dump: dump encodes a file in Python, 2.5x slower than dumps' C encoder
            write_atomically(self.path, json.dumps({"results": self._entries, "files": self.files, "run": self.run},
                                                   separators=(",", ":")))  # fmt: skip
        except OSError:
            pass  # a read-only tree lints fine without a cache
        self._dirty = False

"""Paths as CI tools want them: relative to the working directory (the repository root in CI)."""

from __future__ import annotations

from pathlib import Path


def relative_path(path: str) -> str:
    """``path`` relative to the working directory with forward slashes; absolute when outside it."""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return resolved.as_posix()

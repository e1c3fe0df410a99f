"""A run's progress on the terminal: ``files done/total`` on one line of standard error, redrawn in
place and cleared at the end.  Shown only where a person watches (an interactive standard error,
no ``CI`` variable): piped output and CI logs get none of it."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

_REDRAW_SECONDS = 0.1  # a terminal redrawn more often than this only costs time
_CLEAR_LINE = "\r\x1b[K"  # to the line's start, then erase it


class Progress:
    """Counts the files done of ``total`` and, on a terminal, shows them."""

    def __init__(self, total: int, stream: TextIO | None = None, done: int = 0):
        self.stream = stream if stream is not None else sys.stderr
        self.total, self.done = total, done
        self.shown = _interactive(self.stream) and total > 0
        self._drawn_at: float | None = None

    def __enter__(self) -> Progress:
        self.start()
        return self

    def __exit__(self, *exception: object) -> None:
        self.clear()

    def advance(self, files: int = 1) -> None:
        self.done += files
        if not self.shown:
            return
        now = time.monotonic()
        if self._drawn_at is None or now - self._drawn_at >= _REDRAW_SECONDS or self.done >= self.total:
            self._draw(f"{self.done}/{self.total} files")
            self._drawn_at = now

    def start(self) -> None:
        """Show the count before the first file is done (the first may take long)."""
        if self.shown:
            self._draw(f"{self.done}/{self.total} files")
            self._drawn_at = time.monotonic()

    def clear(self) -> None:
        """Erase the line, before other output is written to the terminal or at the end; the
        next ``advance`` draws it again."""
        if self.shown and self._drawn_at is not None:
            self._draw("")
            self._drawn_at = None

    def _draw(self, text: str) -> None:
        try:
            self.stream.write(_CLEAR_LINE + text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the run goes on without it
            self.shown = False


def _interactive(stream: TextIO) -> bool:
    if os.environ.get("CI"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or a stand-in without isatty
        return False

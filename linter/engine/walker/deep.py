"""Running a function on a deep stack: code nested as deeply as CPython compiles (about 3,000
levels) exceeds Python's default recursion limit while it is parsed or analyzed."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_STACK_BYTES = 512 * 1024 * 1024  # virtual memory, committed only as deep as the recursion goes
_RECURSION_LIMIT = 200_000


def deeply(function: Callable[[], T]) -> T:
    """``function()`` in a thread with a large stack and a high recursion limit; its result, or
    its exception re-raised here.  Only for the rare deep input: starting a thread costs more
    than most files' analysis."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, function()))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            outcome.append((False, error))

    previous_stack = threading.stack_size(_STACK_BYTES)
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, _RECURSION_LIMIT))
    try:
        thread = threading.Thread(target=run, name="promolint-deep")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
    ok, value = outcome[0]
    if not ok:
        raise value
    return value

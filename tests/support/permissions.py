"""Commands that file permissions bind, whoever runs the tests: CI runs them as root, whom a
file's mode does not stop, so a test of what promolint does with a file it may not read or write
runs the command without the capabilities that override permissions."""

from __future__ import annotations

import os
import shutil

import pytest

_OVERRIDES = "-dac_override,-dac_read_search"


def bound_by_permissions(command: list[str]) -> list[str]:
    """``command`` as it runs here, or, as root, under util-linux's setpriv without the
    capabilities that override file permissions (the test is skipped where none can drop them)."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("root reads and writes files whatever their permissions, and no setpriv is here to drop that")
    return ["setpriv", "--bounding-set", _OVERRIDES, f"--inh-caps={_OVERRIDES}", *command]

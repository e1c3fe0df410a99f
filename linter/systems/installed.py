"""The versions of installed distributions, read from their metadata folders' names.

``jax-0.12.0.1.dist-info`` says JAX 0.12.0.1 is installed there: listing a folder is all it
takes, where ``importlib.metadata`` costs tens of milliseconds on its first use, and a run that
answers from the cache must stay fast.  Nothing is imported.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

_SUFFIXES = (".dist-info", ".egg-info")


def versions(folders: Iterable[str], names: Iterable[str]) -> dict[str, str]:
    """The version of each distribution in ``names`` found in ``folders`` (the first folder that
    has one wins, as for imports); names absent everywhere are left out."""
    wanted = {_normalized(name): name for name in names}
    found: dict[str, str] = {}
    for folder in folders:
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            continue
        for entry in entries:
            suffix = next((s for s in _SUFFIXES if entry.endswith(s)), None)
            if suffix is None:
                continue
            name, _, version = entry[: -len(suffix)].partition("-")
            key = _normalized(name)
            if key in wanted and wanted[key] not in found and version:
                found[wanted[key]] = version.partition("-")[0]  # an egg's "2.4.6-py3.11"
        if len(found) == len(wanted):
            break
    return found


def _normalized(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")

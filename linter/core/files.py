"""Writing a file atomically: every file promolint writes (fixed sources, the cache, a baseline,
a report) is either the old one or the whole new one, never a torn mix, whatever interrupts it.

The text goes to a temporary file in the target's folder (a rename is atomic only within one
file system), which then replaces the target with ``os.replace``; the target's mode is kept, and
its owner where the user may keep it (root fixing another user's file)."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: str | os.PathLike[str], data: bytes | str, encoding: str = "utf-8") -> None:
    """Replace ``path``'s content with ``data`` (text is encoded with ``encoding``); an
    ``OSError`` says why it could not be written, and the file is then as it was.

    A symlink's target is written, not the link replaced by a file.  A file the user may not
    write raises ``PermissionError`` as writing it in place would, although its folder would
    let the rename replace it."""
    target = Path(os.path.realpath(path))
    content = data.encode(encoding) if isinstance(data, str) else data
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    if existing is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        _take_permissions(temporary, existing)
        os.replace(temporary, target)
    except BaseException:  # an interrupt too: no temporary file is left behind
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _take_permissions(temporary: str, existing: os.stat_result | None) -> None:
    """The owner and mode the file had (the owner first: a change of owner clears setuid bits),
    or for a new file what ``open`` would have given it (``mkstemp`` makes it its owner's only)."""
    if existing is None:
        os.chmod(temporary, 0o666 & ~_umask())
        return
    if hasattr(os, "chown") and (existing.st_uid, existing.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.chown(temporary, existing.st_uid, existing.st_gid)
        except PermissionError:
            pass  # only root may give a file away: it becomes the user's, as an editor's save makes it
    os.chmod(temporary, stat.S_IMODE(existing.st_mode))


def _umask() -> int:
    """The process's umask, which can only be read by setting it (and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask

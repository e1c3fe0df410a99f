"""Every file promolint writes (fixed sources, the cache, a baseline, a report) is replaced
atomically: a write that fails leaves the old file whole, and a fix that cannot be written is one
finding while the run's other files are fixed."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import promolint.core.files
import pytest
from permissions import bound_by_permissions
from promolint.cli.main import main
from promolint.core.files import write_atomically

FIXABLE = "import jax.numpy as jnp\nx = jnp.zeros(3, dtype=jnp.float64)\n"  # PRM007 with x64 off: float32


def _full_disk(monkeypatch) -> None:
    """Every rename fails as on a full disk (after the temporary file is written)."""
    def refuse(source, target):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    monkeypatch.setattr(promolint.core.files.os, "replace", refuse)


def _leftovers(folder: Path) -> list[str]:
    return [path.name for path in folder.iterdir() if path.name.endswith(".tmp")]


def test_the_mode_and_owner_are_kept_and_a_new_file_gets_the_umask(tmp_path) -> None:
    target = tmp_path / "kept.py"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    if os.geteuid() == 0:  # only root can give a file away: it must stay the other user's
        os.chown(target, 65534, 65534)
    write_atomically(target, "new\n")
    assert target.read_text() == "new\n" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.stat().st_uid == (65534 if os.geteuid() == 0 else os.geteuid())
    umask = os.umask(0o022)
    os.umask(umask)
    write_atomically(tmp_path / "new.py", b"x = 1\n")
    assert stat.S_IMODE((tmp_path / "new.py").stat().st_mode) == 0o666 & ~umask
    assert _leftovers(tmp_path) == []


def test_a_symlink_keeps_pointing_at_the_file_it_names(tmp_path) -> None:
    (tmp_path / "real.py").write_text("old\n")
    (tmp_path / "link.py").symlink_to("real.py")
    write_atomically(tmp_path / "link.py", "new\n")
    assert (tmp_path / "link.py").is_symlink() and (tmp_path / "real.py").read_text() == "new\n"


def test_a_read_only_file_is_not_replaced_although_its_folder_would_allow_it(tmp_path) -> None:
    target = tmp_path / "frozen.py"
    target.write_text("old\n")
    os.chmod(target, 0o444)
    attempt = f"from promolint.core.files import write_atomically\nwrite_atomically({str(target)!r}, 'new')"
    result = subprocess.run(bound_by_permissions([sys.executable, "-c", attempt]), capture_output=True, text=True,
                            timeout=120, check=False)  # fmt: skip
    assert result.returncode == 1 and result.stderr.splitlines()[-1].startswith("PermissionError: [Errno 13]")
    assert target.read_text() == "old\n" and _leftovers(tmp_path) == []


@pytest.mark.parametrize("interruption", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_write_that_fails_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch,
                                                                           interruption) -> None:  # fmt: skip
    target = tmp_path / "kept.py"
    target.write_text("old\n")

    def fail(source, destination):
        raise interruption

    monkeypatch.setattr(promolint.core.files.os, "replace", fail)
    with pytest.raises(type(interruption)):
        write_atomically(target, "new\n" * 1000)
    assert target.read_text() == "old\n" and _leftovers(tmp_path) == []


def test_a_report_that_cannot_be_written_leaves_the_last_one(tmp_path, capsys, monkeypatch) -> None:
    (tmp_path / "a.py").write_text(FIXABLE)
    report = tmp_path / "report.txt"
    report.write_text("the last report\n")
    _full_disk(monkeypatch)
    status = main(["check", "--no-cache", "--x64", "off", "-o", str(report), str(tmp_path / "a.py")])
    assert status == 2 and "No space left on device" in capsys.readouterr().err
    assert report.read_text() == "the last report\n" and _leftovers(tmp_path) == []


def test_a_baseline_that_cannot_be_written_leaves_the_last_one(tmp_path, capsys, monkeypatch) -> None:
    (tmp_path / "a.py").write_text(FIXABLE)
    baseline = tmp_path / "baseline.json"
    assert main(["check", "--no-cache", "--x64", "off", "--write-baseline", str(baseline), str(tmp_path)]) == 0
    recorded = baseline.read_text()
    (tmp_path / "b.py").write_text(FIXABLE)
    _full_disk(monkeypatch)
    status = main(["check", "--no-cache", "--x64", "off", "--write-baseline", str(baseline), str(tmp_path)])
    assert status == 2 and "cannot write the baseline" in capsys.readouterr().err
    assert baseline.read_text() == recorded and _leftovers(tmp_path) == []


def test_a_cache_that_cannot_be_written_stays_as_it_was(tmp_path, capsys, monkeypatch) -> None:
    (tmp_path / "a.py").write_text(FIXABLE)
    cache = tmp_path / "cache"
    assert main(["check", "--x64", "off", "--cache-dir", str(cache), str(tmp_path / "a.py")]) == 1
    (saved,) = cache.glob("*.json")
    before = saved.read_text()
    (tmp_path / "a.py").write_text(FIXABLE + "y = jnp.ones(2, jnp.int8) + 1000\n")
    _full_disk(monkeypatch)
    assert main(["check", "--x64", "off", "--cache-dir", str(cache), str(tmp_path / "a.py")]) == 1
    assert "PRM006" in capsys.readouterr().out  # the run reports as ever; only its cache is not kept
    assert saved.read_text() == before and json.loads(before) and _leftovers(cache) == []


def test_a_fix_that_cannot_be_written_is_one_error_and_the_other_files_are_fixed(tmp_path, capsys,
                                                                               monkeypatch) -> None:  # fmt: skip
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(FIXABLE)
    real = promolint.core.files.os.replace

    def full_for_b(source, target):
        if Path(target).name == "b.py":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
        real(source, target)

    monkeypatch.setattr(promolint.core.files.os, "replace", full_for_b)
    status = main(["check", "--fix", "--x64", "off", "--jobs", "1", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1 and "float32" in (tmp_path / "a.py").read_text() and "float32" in (tmp_path / "c.py").read_text()
    assert (tmp_path / "b.py").read_text() == FIXABLE and _leftovers(tmp_path) == []
    errors = [line for line in out.splitlines() if "cannot write" in line]
    assert errors == [f"{tmp_path / 'b.py'}:1:1: PRM000 cannot write the fixes: No space left on device"]
    assert f"{tmp_path / 'b.py'}:2:5: PRM007" in out  # its finding is still there, unfixed


def test_fix_on_a_file_the_user_may_not_write_fixes_the_others(tmp_path) -> None:
    for name in ("a.py", "locked.py", "z.py"):
        (tmp_path / name).write_text(FIXABLE)
    os.chmod(tmp_path / "locked.py", 0o444)
    command = bound_by_permissions([sys.executable, "-m", "promolint", "check", "--fix", "--x64", "off", "."])
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "locked.py:1:1: PRM000 cannot write the fixes: Permission denied" in result.stdout
    assert (tmp_path / "locked.py").read_text() == FIXABLE
    assert all("float32" in (tmp_path / name).read_text() for name in ("a.py", "z.py"))

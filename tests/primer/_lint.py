"""One project through one promolint: `check` in each mode, `reveal` for coverage.

Only the command line is used (`python -m promolint ...` of the venv given), so the same code
runs a base revision installed in a scratch venv.  Coverage is counted with this checkout's
``promolint.reveal.coverage`` over whatever records that promolint reveals, so the figure means
the same thing on both sides of a diff.
"""

from __future__ import annotations

import json
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from promolint.reveal import coverage

# Mode name -> the flags `promolint check` gets; default: as configured (x64 and promotion auto).
MODES = {"default": [], "x64": ["--x64", "on"], "strict": ["--promotion", "strict"]}
INTERNAL_ERROR = "internal error"
_REVEAL_CHUNK_LINES = 15_000  # reveal's JSON for this many lines stays a few megabytes


@dataclass
class ModeRun:
    wall_s: float = 0.0
    findings: list[dict] = field(default_factory=list)  # as check --format json gives them
    crash: str | None = None  # the run itself failed: exit status, timeout or unreadable output


@dataclass
class Coverage:
    known: int = 0
    sites: int = 0
    wall_s: float = 0.0
    failures: list[str] = field(default_factory=list)  # files reveal could not give records for


def check(promolint: list[str], root: Path, packages: tuple[str, ...], mode: str, jobs: int, timeout: float) -> ModeRun:
    command = [*promolint, "check", "--format", "json", "--no-cache", "--exit-zero", "--select", "PRM",
               "--jobs", str(jobs), *MODES[mode], *packages]  # fmt: skip
    start = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ModeRun(time.perf_counter() - start, crash=f"timed out after {timeout:.0f}s")
    wall = time.perf_counter() - start
    if done.returncode != 0:
        return ModeRun(wall, crash=f"exit status {done.returncode}: {_tail(done.stderr)}")
    try:
        findings = json.loads(done.stdout)
    except json.JSONDecodeError as error:
        return ModeRun(wall, crash=f"output is not JSON ({error}): {_tail(done.stderr or done.stdout)}")
    return ModeRun(wall, findings)


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(text.strip().splitlines()[-lines:]) or "(no output)"


def reveal_coverage(promolint: list[str], root: Path, files: list[Path], jobs: int, timeout: float) -> Coverage:
    """(known, sites) over the files, in the default mode; files in chunks run side by side."""
    chunks: list[list[Path]] = [[]]
    size = 0
    for path in files:
        if size > _REVEAL_CHUNK_LINES:
            chunks.append([])
            size = 0
        chunks[-1].append(path)
        size += path.read_bytes().count(b"\n")
    start = time.perf_counter()
    result = Coverage()
    with ThreadPoolExecutor(jobs) as pool:
        for known, sites, failures in pool.map(lambda chunk: _reveal(promolint, root, chunk, timeout), chunks):
            result.known += known
            result.sites += sites
            result.failures += failures
    result.wall_s = time.perf_counter() - start
    return result


def _reveal(promolint: list[str], root: Path, chunk: list[Path], timeout: float) -> tuple[int, int, list[str]]:
    command = [*promolint, "reveal", "--format", "json", *(str(p.relative_to(root)) for p in chunk)]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=timeout)
        records = json.loads(done.stdout) if done.returncode in (0, 1) else None  # 1: a file did not parse
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        records = None
    if records is not None:
        return (*coverage(records), [])
    if len(chunk) == 1:
        return 0, 0, [str(chunk[0].relative_to(root))]
    known = sites = 0
    failures: list[str] = []
    for path in chunk:  # find the file that failed; the others still count
        one = _reveal(promolint, root, [path], timeout)
        known, sites, failures = known + one[0], sites + one[1], failures + one[2]
    return known, sites, failures

"""One project through one promolint: `check` in each mode, `reveal` for coverage.

Only the command line is used (`python -m promolint ...` of the venv given), so the same code
runs a base revision installed in a scratch venv.  Coverage is counted with this checkout's
``promolint.driver.reveal.coverage`` over whatever records that promolint reveals, so the figure means
the same thing on both sides of a diff.
"""

from __future__ import annotations

import functools
import json
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from promolint.driver.reveal import concrete_share, coverage
from promolint.rules.registry import MEASURED_OPT_IN

# Mode name -> the flags `promolint check` gets; default: as configured (x64 and promotion auto).
MODES = {"default": [], "x64": ["--x64", "on"], "strict": ["--promotion", "strict"]}
INTERNAL_ERROR = "internal error"


@dataclass
class ModeRun:
    wall_s: float = 0.0
    findings: list[dict] = field(default_factory=list)  # as check --format json gives them
    crash: str | None = None  # the run itself failed: exit status, timeout or unreadable output


# The default rules, and the opt-in rules whose primer precision decides whether they join them
# (test_primer_ledger holds every default rule to 90%).
SELECTED = ("PRM", *MEASURED_OPT_IN)


@functools.cache
def _selected(promolint: tuple[str, ...]) -> str:
    """SELECTED as the promolint given knows it: a base revision older than an opt-in rule
    would refuse the rule's code (exit 2) and lint nothing."""
    listed = subprocess.run([*promolint, "rules"], capture_output=True, text=True, timeout=300).stdout
    known = {line.split()[0] for line in listed.splitlines() if line.strip()}
    return ",".join(code for code in SELECTED if code == "PRM" or code in known)


@dataclass
class Coverage:
    known: int = 0
    sites: int = 0
    concrete: int = 0  # sites of one concrete dtype (``concrete_share``)
    wall_s: float = 0.0
    failures: list[str] = field(default_factory=list)  # files reveal could not give records for


def check(promolint: list[str], root: Path, packages: tuple[str, ...], mode: str, jobs: int, timeout: float) -> ModeRun:
    return json_check([*promolint, "check", "--select", _selected(tuple(promolint)), "--jobs", str(jobs), *MODES[mode],
                       *packages], root, timeout)  # fmt: skip


def json_check(command: list[str], root: Path, timeout: float) -> ModeRun:
    """A ``promolint check`` command run in ``root`` with its findings as JSON, every one (no cache,
    exit 0 whatever it finds), its wall time, or why it gave none."""
    command = [*command, "--format", "json", "--no-cache", "--exit-zero"]
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
    """(known, sites, concrete) over the files, in the default mode, from one `reveal` over all of them:
    the files of a run are a project, whose modules read each other's (README, "The project
    pass"), so the files are not split into runs of their own.  ``jobs`` workers where that
    promolint's reveal has --jobs (a base revision may not)."""
    start = time.perf_counter()
    parallel = ["--jobs", str(jobs)] if _reveal_has_jobs(tuple(promolint)) else []
    known, sites, concrete, failures = _reveal(promolint, root, files, timeout, parallel)
    return Coverage(known, sites, concrete, time.perf_counter() - start, failures)


@functools.lru_cache(maxsize=None)
def _reveal_has_jobs(promolint: tuple[str, ...]) -> bool:
    done = subprocess.run([*promolint, "reveal", "--help"], capture_output=True, text=True)
    return "--jobs" in done.stdout


def _reveal(promolint: list[str], root: Path, chunk: list[Path], timeout: float,
            parallel: list[str]) -> tuple[int, int, int, list[str]]:  # fmt: skip
    command = [*promolint, "reveal", "--format", "json", *parallel, *(str(p.relative_to(root)) for p in chunk)]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=timeout)
        records = json.loads(done.stdout) if done.returncode in (0, 1) else None  # 1: a file did not parse
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        records = None
    if records is not None:
        return (*coverage(records), concrete_share(records), [])
    if len(chunk) == 1:
        return 0, 0, 0, [str(chunk[0].relative_to(root))]
    known = sites = concrete = 0
    failures: list[str] = []
    for path in chunk:  # find the file that failed; the others still count (each alone)
        one = _reveal(promolint, root, [path], timeout, [])
        known, sites, concrete, failures = known + one[0], sites + one[1], concrete + one[2], failures + one[3]
    return known, sites, concrete, failures

"""How fast promolint lints a 600k-line JAX code base, against baselines measured in the same run.

    python tests/benchmarks/bench.py [--repeat 3] [--quick]

Measures (medians over --repeat runs): libcst parse-only of every file in one process (the
baseline), the same with Python's ``ast`` (the parser the analysis reads; divided by the cores,
the floor of a run on all of them), flake8 over the same tree, `promolint check` cold with one
worker and with all cores, warm (cache hit, nothing changed) and after touching one file; a
pre-commit style run on one ~500-line file with interpreter start; peak memory per worker, on the
whole corpus and on its largest file alone; `reveal` against `check` on one package of about 28k
lines.
Prints figures and same-run ratios; a full run (not --quick) also writes them to last_run.json
beside this script, with the revision and date, which the README's speed figures are generated
from (``python tests/update_docs.py``).

Needs flake8 (``pip install -e ".[bench]"``).  Child processes run without
PYTHONDONTWRITEBYTECODE, as an installed promolint does: else every start recompiles the linter.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpus import DEFAULT_CACHE, fetch, python_files  # noqa: E402

LAST_RUN = Path(__file__).resolve().parent / "last_run.json"

# argv: TREE PARSER, the parser "libcst" or "ast".
PARSE_ONLY = """
import ast, sys, time, warnings, libcst
from pathlib import Path
files = sorted(Path(sys.argv[1]).rglob("*.py"))
parse = libcst.parse_module if sys.argv[2] == "libcst" else ast.parse
warnings.simplefilter("ignore")
start = time.process_time()
for f in files:
    try:
        parse(f.read_bytes())
    except Exception:
        pass
print(time.process_time() - start)
"""


ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
_POLL_SECONDS = 0.2


def timed(command: list[str], watch_workers: bool = False) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak RSS in MiB of the largest process (the command or, with
    ``watch_workers``, one of its workers, sampled while they run), output."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True, env=ENVIRONMENT)
        workers_peak = 0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG if watch_workers else 0)
            if pid:
                break
            workers_peak = max(workers_peak, _descendants_peak_kib(process.pid))
            time.sleep(_POLL_SECONDS)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{stderr[-2000:]}")
    # ru_maxrss covers the command and the children it waited for; pool workers forked by a
    # forkserver are not among them, so their high-water marks are read while they run.
    return wall, usage.ru_utime + usage.ru_stime, max(usage.ru_maxrss, workers_peak) / 1024, stdout


def _descendants_peak_kib(root: int) -> int:
    """The largest high-water RSS among ``root``'s descendants (Linux /proc; 0 elsewhere)."""
    parents = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    tree, frontier = set(), [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier and pid not in tree]
        tree.update(children)
        frontier = children
    peak = 0
    for pid in tree:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
    return peak


def median(runs: list[float]) -> float:
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="lint only optax (a smoke run)")
    args = parser.parse_args()
    if importlib.util.find_spec("flake8") is None:
        raise SystemExit('flake8, the baseline, is missing: pip install -e ".[bench]"')

    source = fetch(DEFAULT_CACHE) if not args.quick else fetch(DEFAULT_CACHE, ["optax"])
    tree = source if not args.quick else source / "optax"
    files = python_files(tree)
    lines = sum(f.read_bytes().count(b"\n") for f in files)
    cores = os.cpu_count() or 1
    work = Path(tempfile.mkdtemp(prefix="promolint-bench-"))
    cache_dir = work / "cache"
    promolint = [sys.executable, "-m", "promolint", "check", str(tree), "--cache-dir", str(cache_dir)]
    print(f"corpus: {len(files)} files, {lines:,} lines, {cores} cores")

    parse = [float(timed([sys.executable, "-c", PARSE_ONLY, str(tree), "libcst"])[3]) for _ in range(args.repeat)]
    ast_parse = [float(timed([sys.executable, "-c", PARSE_ONLY, str(tree), "ast"])[3]) for _ in range(args.repeat)]
    flake8 = [timed([sys.executable, "-m", "flake8", "--jobs", str(cores), "--exit-zero", str(tree)])[0]
              for _ in range(args.repeat)]  # fmt: skip

    def cold(jobs: int) -> tuple[list[float], list[float], float]:
        walls, cpus, peak = [], [], 0.0
        for _ in range(args.repeat):
            shutil.rmtree(cache_dir, ignore_errors=True)
            wall, cpu, rss, _ = timed([*promolint, "--jobs", str(jobs)], watch_workers=True)
            walls.append(wall)
            cpus.append(cpu)
            peak = max(peak, rss)
        return walls, cpus, peak

    one_wall, one_cpu, one_peak = cold(1)
    all_wall, _, all_peak = cold(cores)
    warm = [timed([*promolint])[0] for _ in range(args.repeat)]
    touched_file = max(files, key=lambda f: f.stat().st_size)
    original = touched_file.read_bytes()
    touched = []
    try:
        for i in range(args.repeat):
            touched_file.write_bytes(original + f"\n# touched {i}\n".encode())
            touched.append(timed([*promolint])[0])
    finally:
        touched_file.write_bytes(original)

    largest = max(files, key=lambda f: f.stat().st_size)
    largest_peak = max(timed([sys.executable, "-m", "promolint", "check", str(largest), "--no-cache", "--jobs", "1"],
                             watch_workers=True)[2] for _ in range(args.repeat))  # fmt: skip
    typical = min(files, key=lambda f: abs(f.read_bytes().count(b"\n") - 500))
    typical_lines = typical.read_bytes().count(b"\n")
    latency = [timed([sys.executable, "-m", "promolint", "check", str(typical), "--no-cache"])[0]
               for _ in range(args.repeat)]  # fmt: skip

    # reveal against check on one package of about 28k lines (distrax), both cold on all cores
    package = tree / ("distrax" if not args.quick else "optax")
    package_lines = sum(f.read_bytes().count(b"\n") for f in python_files(package))
    package_check, package_reveal = [], []
    for _ in range(args.repeat):
        package_check.append(timed([sys.executable, "-m", "promolint", "check", str(package), "--no-cache"])[0])
        package_reveal.append(timed([sys.executable, "-m", "promolint", "reveal", str(package)])[0])

    parse_s, flake8_s = median(parse), median(flake8)
    print(f"libcst parse-only (1 process, CPU): {parse_s:8.2f} s  ({lines / parse_s:,.0f} lines/s)")
    print(f"flake8 --jobs {cores} (wall):              {flake8_s:8.2f} s")
    print(f"promolint cold, 1 worker (CPU):      {median(one_cpu):8.2f} s  = {median(one_cpu) / parse_s:.2f}x parse-only")
    print(f"promolint cold, 1 worker (wall):     {median(one_wall):8.2f} s  ({lines / median(one_wall):,.0f} lines/s)")
    print(f"ast parse-only (1 process, CPU):    {median(ast_parse):8.2f} s  (promolint 1 worker = "
          f"{median(one_cpu) / median(ast_parse):.2f}x the parser it reads)")  # fmt: skip
    floor = median(ast_parse) / cores  # the parser alone, shared by every core: no linter reading ast can beat it
    print(f"promolint cold, {cores} workers (wall):    {median(all_wall):8.2f} s  = {median(all_wall) / flake8_s:.2f}x "
          f"flake8, {median(all_wall) / floor:.2f}x the all-cores ast floor ({floor:.2f} s)")  # fmt: skip
    print(f"promolint warm, nothing changed:     {median(warm):8.2f} s")
    print(f"promolint warm, one file touched:    {median(touched):8.2f} s  ({touched_file.name})")
    print(f"pre-commit latency, one file:        {median(latency):8.2f} s  ({typical.name}, {typical_lines} lines, "
          "interpreter start included)")  # fmt: skip
    print(f"peak memory per worker:              {one_peak:8.0f} MiB (1 worker), {all_peak:.0f} MiB ({cores} workers)")
    print(f"peak memory, largest file alone:     {largest_peak:8.0f} MiB ({largest.name}; whole corpus, 1 worker = "
          f"{one_peak / largest_peak:.2f}x)")  # fmt: skip
    reveal_ratio = median(package_reveal) / median(package_check)
    print(f"promolint reveal, one package (wall): {median(package_reveal):7.2f} s  = {reveal_ratio:.2f}x check cold on "
          f"it ({median(package_check):.2f} s; {package.name}, {package_lines:,} lines, {cores} workers)")  # fmt: skip
    shutil.rmtree(work, ignore_errors=True)
    if not args.quick:
        record_last_run({
            "cores": cores, "corpus_files": len(files), "corpus_lines": lines, "libcst_parse_s": parse_s,
            "ast_floor_s": floor, "flake8_s": flake8_s, "cold_one_worker_s": median(one_wall),
            "cold_one_worker_cpu_s": median(one_cpu), "cold_all_cores_s": median(all_wall), "warm_s": median(warm),
            "touched_s": median(touched), "precommit_s": median(latency), "peak_mib_one_worker": one_peak,
            "peak_mib_all_cores": all_peak, "peak_mib_largest_file": largest_peak,
            "reveal_package": package.name, "reveal_package_lines": package_lines,
            "reveal_package_s": median(package_reveal), "check_package_s": median(package_check),
            "reveal_to_check": reveal_ratio, "repeat": args.repeat,
        })  # fmt: skip
    return 0


def record_last_run(figures: dict[str, float]) -> None:
    """Write the run's figures, rounded as printed, with the revision measured and today's date."""
    head = subprocess.run(["git", "-C", str(LAST_RUN.parent), "describe", "--always", "--dirty", "--abbrev=7"],
                          capture_output=True, text=True).stdout.strip() or "unknown"  # fmt: skip
    rounded = {name: round(value, 2) if isinstance(value, float) else value for name, value in figures.items()}
    record = {"revision": head, "date": datetime.date.today().isoformat(), **rounded}
    LAST_RUN.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {LAST_RUN}")


if __name__ == "__main__":
    raise SystemExit(main())

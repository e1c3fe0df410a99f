"""The long differential-fuzzing campaign: generated programs under real NumPy and JAX, in x64
off, x64 on and strict modes, against ``promolint reveal`` at every site.

    python tests/benchmarks/fuzz.py --n 100000 [--jobs CORES] [--chunk 500] [--start 0]
                                    [--modes x64off,x64on,strict] [--show 20] [--json FILE]

``--n`` programs run in every mode, in chunks of ``--chunk`` seeds, each chunk a subprocess of
``tests/fuzz/differential.py`` (JAX's mode is fixed per process), ``--jobs`` at a time.  JAX's
persistent compilation cache is shared by the chunks (compiling each new operation and dtype
is most of a cold chunk's time).  Prints agreement (of the sites where reveal claims a dtype or
an error), unknown (of all sites with a run-time dtype or a promotion error), the disagreement
classes that KNOWN_LIMITATIONS.md does not list, then the known ones; the first example of each
new class (and of the ``--show`` most frequent known ones) is minimized (statements dropped
while the class persists) in a last pass.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKER = ROOT / "tests" / "fuzz" / "differential.py"
sys.path[:0] = [str(WORKER.parent), str(ROOT / "tests" / "oracle")]

from known_limitations import limitations  # noqa: E402
from workers import worker_environment  # noqa: E402
MODES = ("x64off", "x64on", "strict")
FIELDS = ("programs", "sites", "claimed", "agreed", "unknown", "disagreed", "propagated", "raised")


def _environment(cache: str) -> dict[str, str]:
    return worker_environment(JAX_COMPILATION_CACHE_DIR=cache, JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
                              JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0")  # fmt: skip


def _work(arguments: list[str], environment: dict[str, str], folder: str, attempts: int = 3) -> dict:
    """One worker process; a failed one is retried (a crash of the engine while its files are
    being edited is not a result), and the last failure raised."""
    output = Path(tempfile.mkstemp(suffix=".json", dir=folder)[1])
    for attempt in range(attempts):
        process = subprocess.run([sys.executable, str(WORKER), *arguments, "--output", str(output)],
                                 env=environment, cwd=ROOT, capture_output=True, text=True)  # fmt: skip
        if process.returncode == 0:
            return json.loads(output.read_text())
        print(f"{' '.join(arguments)} failed (attempt {attempt + 1}):\n{process.stderr[-1500:]}", file=sys.stderr)
        time.sleep(30)
    raise RuntimeError(f"{' '.join(arguments)} failed {attempts} times")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="programs per mode")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--chunk", type=int, default=500, help="programs per worker process")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--show", type=int, default=20, help="minimized disagreement classes to print")
    parser.add_argument("--json", help="write the classes and tallies here")
    parser.add_argument("--jax-cache", default=os.path.join(tempfile.gettempdir(), "promolint-fuzz-jax-cache"))
    args = parser.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    environment = _environment(args.jax_cache)
    started = time.perf_counter()
    chunks = [(mode, start, min(start + args.chunk, args.start + args.n))
              for start in range(args.start, args.start + args.n, args.chunk) for mode in modes]  # fmt: skip
    tallies = {mode: dict.fromkeys(FIELDS, 0) for mode in modes}
    classes: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="promolint-fuzz-") as folder, ThreadPoolExecutor(args.jobs) as pool:
        futures = [(mode, pool.submit(_work, [mode, "--seeds", f"{a}:{b}"], environment, folder)) for mode, a, b in chunks]
        for done, (mode, future) in enumerate(futures, 1):
            result = future.result()
            for name in FIELDS:
                tallies[mode][name] += result["tally"][name]
            for key, entry in result["classes"].items():
                known = classes.setdefault(key, {**entry, "mode": mode, "count": 0})
                known["count"] += entry["count"]
            print(f"chunk {done}/{len(futures)} done ({time.perf_counter() - started:.0f}s)", file=sys.stderr)
        # Minimize the first example of each new class, and of the most frequent known ones, in its mode.
        examples: dict[str, dict[str, str]] = {mode: {} for mode in modes}
        from_worker = {}
        known = sorted((k for k, v in classes.items() if v["limitation"]), key=lambda k: -classes[k]["count"])
        for key in [k for k, v in classes.items() if not v["limitation"]] + known[: args.show]:
            entry = classes[key]
            examples[entry["mode"]][entry["program"]] = "".join(s + "\n" for s in entry["statements"])
        for mode in modes:
            if examples[mode]:
                path = Path(folder) / f"examples-{mode}.json"
                path.write_text(json.dumps(examples[mode]))
                from_worker.update(_work([mode, "--programs", str(path), "--minimize", "all"], environment, folder)["classes"])
    for key, entry in classes.items():
        entry["minimized"] = from_worker.get(key, {}).get("minimized", "")
        # KNOWN_LIMITATIONS.md as it is now: it may have been edited while the chunks ran.
        entry["limitation"] = next((lim.id for lim in limitations() if lim.matches(entry["mode"], key)), None)
    seconds = time.perf_counter() - started
    _print_report(tallies, classes, args.show, seconds, args.n)
    if args.json:
        Path(args.json).write_text(json.dumps({"tallies": tallies, "classes": classes, "seconds": seconds}, indent=1))
    return 0


def _print_report(tallies: dict, classes: dict, show: int, seconds: float, n: int) -> None:
    total = dict.fromkeys(FIELDS, 0)
    for mode, tally in tallies.items():
        for name in FIELDS:
            total[name] += tally[name]
    print(f"{total['programs']} program runs ({n} programs x {len(tallies)} modes) in {seconds:.0f}s "
          f"({total['programs'] / seconds:.1f}/s)")  # fmt: skip
    for mode, tally in [*tallies.items(), ("all", total)]:
        claimed, sites = max(tally["claimed"], 1), max(tally["sites"], 1)
        print(f"  {mode:7s} sites {tally['sites']:8d}  agree {tally['agreed'] / claimed:7.3%} of claimed  "
              f"unknown {tally['unknown'] / sites:6.3%}  disagree {tally['disagreed']:6d} "
              f"({tally['propagated']} propagated)  programs stopped by an error {tally['raised'] / max(tally['programs'], 1):.1%}")  # fmt: skip
    new = {k: v for k, v in classes.items() if not v["limitation"]}
    known = {k: v for k, v in classes.items() if v["limitation"]}
    print(f"{len(classes)} disagreement classes: {len(new)} not in KNOWN_LIMITATIONS.md, {len(known)} known "
          f"({sum(v['count'] for v in known.values())} disagreements)")  # fmt: skip
    for title, group in (("NEW", new), ("known", known)):
        ordered = sorted(group.items(), key=lambda kv: -kv[1]["count"])
        for key, entry in ordered[:show]:
            label = entry["limitation"] or "NEW"
            print(f"\n[{label}] x{entry['count']} {key}")
            print("    " + (entry.get("minimized") or "").rstrip().replace("\n", "\n    "))
        if len(ordered) > show:
            print(f"\n... and {len(ordered) - show} more {title} classes")


if __name__ == "__main__":
    sys.exit(main())

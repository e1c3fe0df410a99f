"""Lint the pinned JAX-ecosystem corpus with `promolint check` and report what it finds.

    python tests/benchmarks/corpus.py [--x64 on|off|auto] [--sample 30] [--jobs N]

Prints files, lines, findings per rule, crashes (with the first traceback) and time, then a
random sample of findings with their source lines for a person to judge.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpus import DEFAULT_CACHE, fetch, python_files  # noqa: E402

from promolint.driver.lint import lint_source  # noqa: E402
from promolint.engine.walker.analysis import Settings  # noqa: E402
from promolint.rules import ALL_RULES  # noqa: E402

CODES = frozenset({r.code for r in ALL_RULES} | {"PRM000"})


def lint_one(job):
    path, settings = job
    data = path.read_bytes()
    try:
        return str(path), data.count(b"\n"), lint_source(data, str(path), settings, CODES), None
    except Exception:  # a crash is a result here: counted and shown, never hidden
        return str(path), data.count(b"\n"), [], traceback.format_exc()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--x64", default="auto", choices=["on", "off", "auto"])
    parser.add_argument("--promotion", default="auto", choices=["standard", "strict", "auto"])
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()

    source = fetch(args.cache)
    files = python_files(source)
    settings = Settings(args.x64, args.promotion)
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lint_one, [(f, settings) for f in files], chunksize=8))
    wall = time.perf_counter() - start

    lines = sum(r[1] for r in results)
    diagnostics = [d for r in results for d in r[2]]
    crashes = [(r[0], r[3]) for r in results if r[3]]
    print(f"files {len(files)}  lines {lines}  wall {wall:.1f}s ({args.jobs} workers)  "
          f"lines/s {lines / wall:,.0f}  crashes {len(crashes)}")  # fmt: skip
    for code, count in sorted(Counter(d.code for d in diagnostics).items()):
        print(f"  {code}: {count}")
    if crashes:
        print(f"\nfirst crash: {crashes[0][0]}\n{crashes[0][1]}")
    rng = random.Random(args.seed)
    print(f"\nsample of {min(args.sample, len(diagnostics))} findings:")
    for d in rng.sample(diagnostics, min(args.sample, len(diagnostics))):
        line = Path(d.path).read_text(errors="replace").splitlines()[d.line - 1].strip()
        print(f"- {Path(d.path).relative_to(source)}:{d.line}:{d.column} {d.code} {d.message}\n    {line}")
    return 1 if crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())

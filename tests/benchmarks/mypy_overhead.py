"""What the promolint mypy plugin costs: mypy with the plugin against mypy alone, on optax.

    python tests/benchmarks/mypy_overhead.py [--repeat-cold 1] [--repeat-warm 5] [--full-cold]
                                             [--cache DIR] [--tests]

Downloads optax's wheel (pinned; ``pip download --no-deps``) into a cache folder
(``.bench_cache/mypy-overhead`` by default: git-ignored, never part of the tracked tree),
unpacks it, and times ``python -m mypy -p optax`` in two configurations, plain and with
``plugins = promolint_mypy``, each with its own cache folder.  Runs of the two alternate, so that
load on the machine hits both alike; each figure is a median, in wall time and in CPU time (the
latter is steadier on a shared machine).  Measured, in one run:

* cold: optax's modules checked from scratch, installed libraries (numpy, jax) from a cache
  built beforehand for each configuration: the first check of a project;
* warm: nothing changed since the previous check: every later check (mypy reads its cache);
* full cold (``--full-cold``): everything from scratch, libraries included (the plugin leaves
  installed packages alone, so this mostly adds the same library time to both sides);
* hook time (``--hook-time``): one more cold check with the plugin, in which the time spent inside
  the plugin (every hook mypy calls, hook lookups, config data) is summed: the plugin's own cost,
  independent of how busy the machine is.

The goal is a ratio of at most 1.05.  optax's dependencies chex and absl are not required:
missing imports are ignored (as in both configurations).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OPTAX = "0.2.8"  # pinned, as in tests/benchmarks/_corpus.py
DEFAULT_CACHE = REPO / ".bench_cache" / "mypy-overhead"
SEED = "import math, functools, typing\nimport numpy, numpy.typing\nimport jax, jax.numpy, jax.lax, jax.nn, jax.random, jax.scipy, jax.tree_util\n"
CONFIGS = {"plain": "", "plugin": "plugins = promolint_mypy\n"}


def fetch(cache: Path) -> Path:
    """optax's sources, unpacked under ``cache``."""
    source = cache / f"optax-{OPTAX}"
    if (source / "optax" / "__init__.py").exists():
        return source
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", f"optax=={OPTAX}", "-d",
                    str(wheels)], check=True)  # fmt: skip
    wheel = next(wheels.glob(f"optax-{OPTAX}-*.whl"))
    shutil.rmtree(source, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(source)
    return source


def write_configs(cache: Path, tests: bool) -> dict[str, Path]:
    paths = {}
    for name, extra in CONFIGS.items():
        path = cache / f"{name}.ini"
        exclude = "" if tests else "exclude = _test\\.py$\n"
        path.write_text(f"[mypy]\nignore_missing_imports = True\n{exclude}{extra}")
        paths[name] = path
    return paths


def mypy(config: Path, cache_dir: Path, cwd: Path, arguments: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, output) of one mypy run in a fresh process."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache_dir),
                             "--no-error-summary", *arguments], check=False, cwd=cwd, capture_output=True, text=True,
                            env=env)  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1) or "INTERNAL ERROR" in result.stdout + result.stderr:
        raise SystemExit(f"mypy failed with {config.name}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.stdout


def seed_caches(cache: Path, configs: dict[str, Path]) -> dict[str, Path]:
    """A cache of the installed libraries per configuration (checked once, then copied)."""
    seeds = {}
    (cache / "seed.py").write_text(SEED)
    for name, config in configs.items():
        seed = cache / f"seed-cache-{name}"
        if not (seed / "ready").exists():
            shutil.rmtree(seed, ignore_errors=True)
            mypy(config, seed, cache, ["seed.py"])
            (seed / "ready").write_text("")
        seeds[name] = seed
    return seeds


_HOOK_TIMER = """
import sys, time
started = time.perf_counter()
from promolint_mypy.plugin import PromolintPlugin
imported = time.perf_counter() - started
spent = [imported]
def timed(function):
    def wrapper(*args, **kwargs):
        began = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - began
    return wrapper
for name in dir(PromolintPlugin):
    if name.startswith(("get_", "report_", "_value_hook", "_report_hook", "_annotated", "__init__")):
        setattr(PromolintPlugin, name, timed(getattr(PromolintPlugin, name)))
from mypy import api
began = time.perf_counter()
api.run(sys.argv[1:])
print(f"HOOKTIME {spent[0]:.3f} {time.perf_counter() - began + imported:.3f}")
"""


def hook_time(config: Path, seed: Path, work: Path, cwd: Path, arguments: list[str]) -> tuple[float, float]:
    """(seconds inside the plugin, seconds of the whole check) for one cold check."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(seed, work, ignore=shutil.ignore_patterns("ready"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    result = subprocess.run([sys.executable, "-c", _HOOK_TIMER, "--config-file", str(config), "--cache-dir", str(work),
                             "--no-error-summary", *arguments], check=False, cwd=cwd, capture_output=True, text=True,
                            env=env)  # fmt: skip
    line = next((line for line in result.stdout.splitlines() if line.startswith("HOOKTIME")), None)
    if line is None:
        raise SystemExit(f"hook timing failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    _, inside, total = line.split()
    return float(inside), float(total)


def _report(label: str, samples: dict[str, list[tuple[float, float]]]) -> None:
    wall = {name: statistics.median(s[0] for s in runs) for name, runs in samples.items()}
    cpu = {name: statistics.median(s[1] for s in runs) for name, runs in samples.items()}
    print(f"{label:<10} plain {wall['plain']:8.2f} s wall {cpu['plain']:8.2f} s CPU | plugin {wall['plugin']:8.2f} s "
          f"wall {cpu['plugin']:8.2f} s CPU | ratio {wall['plugin'] / wall['plain']:.3f} wall, "
          f"{cpu['plugin'] / cpu['plain']:.3f} CPU  (n={len(samples['plain'])})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where optax and the mypy caches go")
    parser.add_argument("--repeat-cold", type=int, default=1, help="cold runs per configuration (slow: minutes)")
    parser.add_argument("--repeat-warm", type=int, default=5, help="warm runs per configuration (after a cold run)")
    parser.add_argument("--full-cold", action="store_true", help="also time checks with no cache at all")
    parser.add_argument("--tests", action="store_true", help="check optax's *_test.py files too")
    parser.add_argument("--hook-time", action="store_true", help="also sum the time spent inside the plugin")
    args = parser.parse_args(argv)

    cache = args.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    source = fetch(cache)
    configs = write_configs(cache, args.tests)
    print(f"optax {OPTAX} ({sum(1 for _ in (source / 'optax').rglob('*.py'))} files, tests "
          f"{'included' if args.tests else 'excluded'}); mypy {_mypy_version()}; {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    seeds = seed_caches(cache, configs)
    target = ["-p", "optax"]
    work = {name: cache / f"run-cache-{name}" for name in configs}
    outputs: dict[str, str] = {}

    def cold_run(name: str, from_seed: bool) -> tuple[float, float]:
        shutil.rmtree(work[name], ignore_errors=True)
        if from_seed:
            shutil.copytree(seeds[name], work[name], ignore=shutil.ignore_patterns("ready"))
        wall, cpu, out = mypy(configs[name], work[name], source, target)
        outputs[name] = out
        return wall, cpu

    results: dict[str, dict[str, list[tuple[float, float]]]] = {}
    if args.full_cold:
        results["full cold"] = {name: [] for name in configs}
        for _ in range(args.repeat_cold):
            for name in configs:
                results["full cold"][name].append(cold_run(name, from_seed=False))
    results["cold"] = {name: [] for name in configs}
    for _ in range(args.repeat_cold):
        for name in configs:
            results["cold"][name].append(cold_run(name, from_seed=True))
    results["warm"] = {name: [] for name in configs}
    for _ in range(args.repeat_warm if args.repeat_cold else 0):
        for name in configs:
            wall, cpu, _ = mypy(configs[name], work[name], source, target)
            results["warm"][name].append((wall, cpu))

    for label, samples in results.items():
        if samples["plain"]:
            _report(label, samples)
    if args.hook_time:
        inside, total = hook_time(configs["plugin"], seeds["plugin"], work["plugin"], source, target)
        print(f"hook time  {inside:.2f} s inside the plugin of a {total:.2f} s cold check ({100 * inside / total:.1f}%)")
    if outputs:
        plain_errors = outputs["plain"].count(": error:")
        plugin_errors = outputs["plugin"].count(": error:")
        findings = outputs["plugin"].count("[promolint-")
        print(f"mypy errors: plain {plain_errors}, with the plugin {plugin_errors} (promolint findings: {findings})")
    return 0


def _mypy_version() -> str:
    import mypy.version

    return mypy.version.__version__


if __name__ == "__main__":
    raise SystemExit(main())

"""The run-time primer: real projects' own test suites run under promolint's run-time shim.

    python tests/primer/runtime.py [--project NAME]... [--x64 off,on] [--predict arguments,code]
                                   [--jobs 2] [--timeout 900] [--out DIR] [--cache DIR]

For each project of ``tests/primer/runtime_suites.toml`` (pinned distributions, downloaded on
demand and checked against their sha256) it installs the pinned files into a scratch venv
(``--system-site-packages``: this machine's jax, numpy and pytest; plus this checkout, editable,
for the pytest plugin), then runs the project's bounded test subset, for each x64 mode
(``JAX_ENABLE_X64=0/1``):

* without the shim (the baseline outcome of every test);
* under ``pytest --promolint-verify=PKG --promolint-mode=report`` with each prediction mode:
  ``arguments`` (a function's parameters typed from each call's arguments) and ``code`` (from
  the code alone, as ``promolint check`` sees it).

It writes ``runtime.json`` and ``runtime.md`` into ``--out`` (default: the gitignored
``tests/primer/.runtime/out``): per project and mode, array-valued sites observed, sites
predicted, agree / disagree / unknown / unchecked records, shim errors, run-time coverage
(sites predicted from the code alone / observed array-valued sites), every disagreement, and
every test whose outcome the shim changed.  What each number means: docs/runtime.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time
import tomllib
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SUITES = HERE / "runtime_suites.toml"
WORK = HERE / ".runtime"  # gitignored by the .gitignore this script writes into it
X64_MODES = ("off", "on")
PREDICTIONS = ("arguments", "code")
BASELINE = "baseline"


# --- the suites ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Distribution:
    name: str
    version: str
    kind: str  # wheel or sdist
    file: str
    sha256: str


@dataclass(frozen=True)
class Project:
    name: str
    package: str
    install: tuple[str, ...]
    tests_in: str
    cwd: str
    tests: tuple[str, ...]
    deselect: tuple[str, ...] = ()


def load_suites(path: Path = SUITES) -> tuple[dict[str, Distribution], dict[str, Project]]:
    """The pinned distributions and the projects; a malformed file raises ValueError."""
    data = tomllib.loads(path.read_text())
    distributions = {name: Distribution(name, **entry) for name, entry in data.get("distribution", {}).items()}
    projects = {}
    for name, entry in data.get("project", {}).items():
        project = Project(name, entry["package"], tuple(entry["install"]), entry["tests_in"], entry["cwd"],
                          tuple(entry["tests"]), tuple(entry.get("deselect", ())))  # fmt: skip
        unknown = sorted({d for d in (*project.install, project.tests_in) if d not in distributions})
        if unknown:
            raise ValueError(f"{path.name}: project {name} names unpinned distributions {unknown}")
        if project.tests_in not in project.install:
            raise ValueError(f"{path.name}: project {name} takes its tests from {project.tests_in}, "
                             "which it does not install")  # fmt: skip
        projects[name] = project
    for distribution in distributions.values():
        if distribution.kind not in ("wheel", "sdist") or len(distribution.sha256) != 64:
            raise ValueError(f"{path.name}: {distribution.name}: kind must be wheel or sdist, sha256 64 hex digits")
        if distribution.version not in distribution.file:
            raise ValueError(f"{path.name}: {distribution.name}: {distribution.file} is not "
                             f"version {distribution.version}")  # fmt: skip
    return distributions, projects


# --- the scratch environment ---------------------------------------------------------------------
def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(distribution: Distribution, cache: Path) -> Path:
    """The distribution's file, downloaded once with pip and checked against its sha256."""
    target = cache / "dist" / distribution.file
    if not target.exists():
        binary = ["--only-binary", ":all:"] if distribution.kind == "wheel" else ["--no-binary", ":all:"]
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", *binary, "--dest",
                        str(target.parent), f"{distribution.name}=={distribution.version}"], check=True)  # fmt: skip
        if not target.exists():
            raise SystemExit(f"runtime primer: pip did not download {distribution.file}")
    digest = _sha256(target)
    if digest != distribution.sha256:
        raise SystemExit(f"runtime primer: {target} has sha256 {digest}, not the pinned {distribution.sha256}")
    return target


def prepare(distributions: dict[str, Distribution], projects: list[Project], cache: Path) -> Path:
    """The scratch venv with every needed distribution and this checkout installed; returns its
    python.  Reinstalls only when the set of files changed."""
    cache.mkdir(parents=True, exist_ok=True)
    (cache / ".gitignore").write_text("*\n")  # downloads, the venv and the output never get committed
    needed = sorted({d for p in projects for d in p.install})
    files = [fetch(distributions[name], cache) for name in needed]
    venv = cache / "venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    stamp = venv / "promolint-primer-installed.json"
    wanted = {"files": [f.name for f in files], "root": str(ROOT)}
    if not stamp.exists() or json.loads(stamp.read_text()) != wanted:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", *map(str, files)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)], check=True)
        stamp.write_text(json.dumps(wanted))
    return python


def tests_root(project: Project, distributions: dict[str, Distribution], python: Path, cache: Path) -> Path:
    """Where the project's tests run: its installed package (a wheel) or its unpacked sdist."""
    distribution = distributions[project.tests_in]
    if distribution.kind == "sdist":
        source = cache / "src"
        unpacked = source / distribution.file.removesuffix(".tar.gz")
        if not unpacked.exists():
            with tarfile.open(cache / "dist" / distribution.file) as archive:
                archive.extractall(source, filter="data")
        return unpacked / project.cwd
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    return Path(site) / project.cwd


# --- running the suites ---------------------------------------------------------------------------
@dataclass
class Run:
    project: str
    x64: str
    variant: str  # baseline, arguments or code
    seconds: float = 0.0
    status: int | None = None
    tests: dict[str, str] = field(default_factory=dict)  # node id -> passed, failed, error, skipped
    report: dict | None = None
    tail: str = ""


def run_suite(project: Project, root: Path, python: Path, x64: str, variant: str, out: Path, timeout: int) -> Run:
    name = f"{project.name}-x64{x64}-{variant}"
    junit, report = out / f"{name}.junit.xml", out / f"{name}.json"
    for stale in (junit, report):
        stale.unlink(missing_ok=True)
    command = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--junitxml", str(junit),
               *project.tests, *(f"--deselect={node}" for node in project.deselect)]  # fmt: skip
    if variant != BASELINE:
        command += [f"--promolint-verify={project.package}", "--promolint-mode=report",
                    f"--promolint-predict={variant}", f"--promolint-report={report}"]  # fmt: skip
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "PROMOLINT_", "XLA_"))}
    environment.update(JAX_PLATFORMS="cpu", JAX_ENABLE_X64="1" if x64 == "on" else "0", PYTHONHASHSEED="0")
    run = Run(project.name, x64, variant)
    start = time.perf_counter()
    try:
        process = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, timeout=timeout)
        run.status, run.tail = process.returncode, (process.stdout + process.stderr)[-3000:]
    except subprocess.TimeoutExpired as expired:
        run.tail = f"timed out after {timeout} s\n" + str(expired.stdout or "")[-2000:]
    run.seconds = round(time.perf_counter() - start, 1)
    if junit.exists():
        run.tests = junit_outcomes(junit)
    if report.exists():
        run.report = json.loads(report.read_text())
    return run


def junit_outcomes(path: Path) -> dict[str, str]:
    outcomes = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        outcome = next((k for k in ("error", "failure", "skipped") if k in kinds), "passed")
        outcomes[f"{case.get('classname')}::{case.get('name')}"] = {"failure": "failed"}.get(outcome, outcome)
    return outcomes


# --- what the runs say ----------------------------------------------------------------------------
def summarize(runs: list[Run]) -> dict:
    """Per project and x64 mode: the figures of each prediction mode, coverage, disagreements,
    shim errors, and the tests whose outcome the shim changed."""
    by_key = {(r.project, r.x64, r.variant): r for r in runs}
    projects: dict[str, dict] = {}
    for project, x64 in sorted({(r.project, r.x64) for r in runs}):
        baseline = by_key.get((project, x64, BASELINE))
        entry: dict = {"baseline": _tests_figures(baseline) if baseline else None}
        for variant in PREDICTIONS:
            run = by_key.get((project, x64, variant))
            if run is None:
                continue
            entry[variant] = _shim_figures(run)
            # A run that timed out left its tests unrun: that is the machine's limit, not the shim's doing.
            timed_out = run.status is None
            entry[variant]["timed_out"] = timed_out
            entry[variant]["changed_tests"] = changed_tests(baseline, run) if baseline and not timed_out else []
        code = entry.get("code")
        if code and code.get("array_sites"):
            entry["runtime_coverage"] = round(code["predicted_sites"] / code["array_sites"], 4)
        projects.setdefault(project, {})[f"x64 {x64}"] = entry
    return {"promolint_runtime_primer": 1, "projects": projects,
            "runs": [{"project": r.project, "x64": r.x64, "variant": r.variant, "seconds": r.seconds,
                      "status": r.status} for r in runs]}  # fmt: skip


def _tests_figures(run: Run) -> dict:
    counts: dict[str, int] = {}
    for outcome in run.tests.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    return {"tests": counts, "seconds": run.seconds, "status": run.status,
            **({"tail": run.tail} if not run.tests else {})}  # fmt: skip


def _shim_figures(run: Run) -> dict:
    figures = _tests_figures(run)
    report = run.report
    if report is None:
        return {**figures, "report": None, "tail": run.tail}
    counts, coverage = report["counts"], report["coverage"]
    figures.update(array_sites=coverage["array_sites"], predicted_sites=coverage["predicted_sites"],
                   **{k: counts[k] for k in ("agree", "disagree", "unknown", "unchecked", "evaluations",
                                             "shim_errors")})  # fmt: skip
    figures["disagreements"] = sorted({_disagreement(m) for m in report["mismatches"]})
    figures["shim_error_kinds"] = sorted({e["error"][:200] for e in report["shim_errors"]})
    return figures


def _disagreement(mismatch: dict) -> str:
    path = _relative(mismatch["path"])
    if "text" not in mismatch:  # an escaped exception
        return (f"{path}:{mismatch['line']}: raised {mismatch['error']}; predicted "
                f"{mismatch['predicted'] or 'no refusal'} ({mismatch['jax_mode']})")  # fmt: skip
    arguments = f"; arguments {mismatch['arguments']}" if mismatch["arguments"] else ""
    return (f"{path}:{mismatch['line']}:{mismatch['column']}: `{mismatch['text']}` observed "
            f"{_describe(mismatch['observed'])}, predicted {_describe(mismatch['predicted'])} "
            f"({mismatch['jax_mode']}{arguments})")  # fmt: skip


def _describe(description: dict) -> str:
    """As the shim's session describes an observation or a prediction (this script runs without
    promolint installed: it only reads the reports)."""
    if description.get("error"):
        return f"a {description['error']}"
    if description.get("dtype") is None:
        return "unknown"
    weak = "weak " if description.get("weak") else ""
    return f"{weak}{description['dtype']} [{description['library']}]"


def _relative(path: str) -> str:
    """A path from the package or the unpacked sdist on: ``optax/_src/...``."""
    for marker in ("/site-packages/", "/src/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def changed_tests(baseline: Run, run: Run) -> list[str]:
    """Tests whose outcome under the shim differs from their outcome without it."""
    return sorted(f"{test}: {outcome} without the shim, {run.tests.get(test, 'not run')} with it"
                  for test, outcome in baseline.tests.items() if run.tests.get(test, "not run") != outcome)  # fmt: skip


def markdown(summary: dict) -> str:
    lines = ["# Run-time primer", "",
             "Records are (site, JAX mode, argument types, run-time type); sites are source spans. "
             "Coverage = array sites predicted from the code alone / array sites observed (docs/runtime.md).", "",
             "| project | x64 | tests (pass/fail/skip) | array sites | predicted (code) | coverage | "
             "agree / disagree / unknown / unchecked (arguments) | agree / disagree / unknown / unchecked (code) | "
             "shim errors | tests changed by the shim |",
             "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    notes = []
    for project, modes in summary["projects"].items():
        for mode, entry in modes.items():
            baseline = entry.get("baseline")
            base = (baseline or {}).get("tests", {})
            arguments, code = entry.get("arguments") or {}, entry.get("code") or {}

            def outcomes(figures: dict) -> str:
                if figures.get("timed_out"):
                    return "timed out"
                if "agree" not in figures:
                    return "no report"
                return " / ".join(str(figures[k]) for k in ("agree", "disagree", "unknown", "unchecked"))

            changed = sorted({*arguments.get("changed_tests", []), *code.get("changed_tests", [])})
            coverage = entry.get("runtime_coverage")
            # Without the run without the shim (--no-baseline) there are no tests to show or compare.
            tests = (f"{base.get('passed', 0)}/{base.get('failed', 0) + base.get('error', 0)}/{base.get('skipped', 0)}"
                     if baseline else "-")  # fmt: skip
            lines.append(
                f"| {project} | {mode.removeprefix('x64 ')} | {tests} | {code.get('array_sites', '-')} | "
                f"{code.get('predicted_sites', '-')} | {f'{coverage:.1%}' if coverage is not None else '-'} | "
                f"{outcomes(arguments)} | {outcomes(code)} | "
                f"{arguments.get('shim_errors', '-')} / {code.get('shim_errors', '-')} | {len(changed) if baseline else '-'} |"
            )  # fmt: skip
            for variant, figures in (("arguments", arguments), ("code", code)):
                notes += [f"- {project}, {mode}, {variant}: {d}" for d in figures.get("disagreements", [])]
                notes += [f"- {project}, {mode}, {variant}: shim error {e}" for e in figures.get("shim_error_kinds", [])]
            notes += [f"- {project}, {mode}: test changed: {t}" for t in changed]
    if notes:
        lines += ["", "## Disagreements, shim errors and changed tests", "", *notes]
    seconds = sum(r["seconds"] for r in summary["runs"])
    lines += ["", f"{len(summary['runs'])} runs, {seconds:.0f} s of wall time in all."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", help="run only this project (repeatable)")
    parser.add_argument("--x64", default="off,on", help="x64 modes to run: off, on or off,on (default)")
    parser.add_argument("--predict", default="arguments,code", help="prediction modes (default arguments,code)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the runs without the shim")
    parser.add_argument("--jobs", type=int, default=2, help="suites run at once (default 2)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds one suite run may take (default 900)")
    parser.add_argument("--cache", type=Path, default=WORK, help=f"downloads and the scratch venv (default {WORK})")
    parser.add_argument("--out", type=Path, help="where runtime.json and runtime.md go (default CACHE/out)")
    args = parser.parse_args(argv)
    distributions, projects = load_suites()
    chosen = [projects[name] for name in args.project] if args.project else list(projects.values())
    x64_modes = [m for m in args.x64.split(",") if m]
    variants = ([] if args.no_baseline else [BASELINE]) + [v for v in args.predict.split(",") if v]
    if not set(x64_modes) <= set(X64_MODES) or not set(variants) <= {BASELINE, *PREDICTIONS}:
        parser.error("--x64 takes off and/or on; --predict takes arguments and/or code")
    cache = args.cache.resolve()  # the suites run in their own folders
    out = (args.out or cache / "out").resolve()
    out.mkdir(parents=True, exist_ok=True)
    python = prepare(distributions, chosen, cache)
    roots = {p.name: tests_root(p, distributions, python, cache) for p in chosen}
    jobs = [(p, x64, v) for p in chosen for x64 in x64_modes for v in variants]
    runs: list[Run] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_suite, p, roots[p.name], python, x64, v, out, args.timeout) for p, x64, v in jobs]
        for future in concurrent.futures.as_completed(futures):
            run = future.result()
            runs.append(run)
            print(f"runtime primer: {run.project} x64 {run.x64} {run.variant}: {run.seconds} s, "
                  f"{len(run.tests)} tests, exit {run.status}", file=sys.stderr)  # fmt: skip
    summary = summarize(sorted(runs, key=lambda r: (r.project, r.x64, r.variant)))
    (out / "runtime.json").write_text(json.dumps(summary, indent=1) + "\n")
    (out / "runtime.md").write_text(markdown(summary))
    print(markdown(summary))
    print(f"runtime primer: written to {out}/runtime.json and runtime.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

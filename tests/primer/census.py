"""The census of real promotion bugs: primer projects' code run, every promotion it raises recorded.

    python tests/primer/census.py [--project NAME]... [--timeout 300] [--no-static] [--cache DIR]

For each project of ``census.toml`` (the primer's pinned wheel plus the pinned distributions it
needs, installed into a scratch venv by the run-time primer's machinery) it runs the project's
harness, public entry points called with float32 example inputs, twice: with
``JAX_ENABLE_X64=1`` and with ``JAX_NUMPY_DTYPE_PROMOTION=strict`` (x64 off).  The recorder
(_census_record.py) keeps every promotion error raised and every float32 value promoted to
float64, at the innermost line of the project's package: the census lines.

Then `promolint check` runs on the primer's unpacked copy of the project in both modes, with the
default rules and with all rules, and each census line is named or missed (_census_recall.py).
It writes ``census.json`` into ``CACHE/out`` (gitignored) and the figures, as markdown, into
``tests/primer/census.md``.
"""

from __future__ import annotations

import argparse
import json
import linecache
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import _projects
import runtime
from _census_recall import KNOWLEDGE, NOT_REVEALED, RULE_SETS, check, known_at, ledger_precision, naming, nearby
from _census_record import F64_PROMOTION

HERE = Path(__file__).resolve().parent
CENSUS = HERE / "census.toml"
WORK = HERE / ".census"  # downloads, the scratch venv and census.json; gitignored
MARKDOWN = HERE / "census.md"
MODES = {"x64": {"JAX_ENABLE_X64": "1"},
         "strict": {"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "strict"}}  # fmt: skip


@dataclass(frozen=True)
class Harness:
    name: str  # the primer project's name
    package: str  # its import name
    install: tuple[str, ...]  # the primer wheel and the census.toml distributions it needs
    setup: str
    cases: dict[str, str]

    def spec(self) -> dict:
        return {"package": self.package, "setup": self.setup, "cases": self.cases}


def load_census(path: Path = CENSUS) -> tuple[dict[str, runtime.Distribution], list[Harness]]:
    """The pinned distributions (census.toml's and the primer's wheels of the projects) and the
    harnesses; a malformed file raises ValueError."""
    data = tomllib.loads(path.read_text())
    distributions = {name: runtime.Distribution(name, **entry) for name, entry in data.get("distribution", {}).items()}
    primer = {p.name: p for p in _projects.load_projects()}
    entries = data.get("project", {})
    for name in entries:
        if name not in primer:
            raise ValueError(f"{path.name}: {name} is not a primer project (projects.toml)")
        pinned = primer[name]  # a project may install another one (ott-jax needs jaxopt)
        distributions[name] = runtime.Distribution(name, pinned.version, "wheel" if pinned.is_wheel else "sdist",
                                                   pinned.file, pinned.sha256)  # fmt: skip
    harnesses = []
    for name, entry in entries.items():
        if not entry.get("cases"):
            raise ValueError(f"{path.name}: {name} has no cases")
        unknown = sorted(set(entry.get("install", ())) - set(distributions))
        if unknown:
            raise ValueError(f"{path.name}: {name} installs unpinned distributions {unknown}")
        harnesses.append(Harness(name, entry["package"], (*entry.get("install", ()), name), entry.get("setup", ""),
                                 dict(entry["cases"])))  # fmt: skip
    return distributions, harnesses


def place_primer_downloads(harnesses: list[Harness], cache: Path) -> None:
    """The primer's own download of each project, where runtime.fetch looks (sha256 checked there)."""
    primer = {p.name: p for p in _projects.load_projects()}
    for harness in harnesses:
        project = primer[harness.name]
        target = cache / "dist" / project.file
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(_projects.download(project), target)


def run_harness(harness: Harness, python: Path, mode: str, out: Path, timeout: int, reuse: bool = False) -> dict:
    """The recorder's report of one run, with its wall time and how it ended; with ``reuse``, the
    report an earlier run of the same harness left in ``out``, where there is one."""
    spec, report = out / f"{harness.name}-{mode}.spec.json", out / f"{harness.name}-{mode}.json"
    if reuse and report.exists() and spec.exists() and json.loads(spec.read_text()) == harness.spec():
        return {**json.loads(report.read_text()), "ended": "reused", "seconds": 0.0}
    spec.write_text(json.dumps(harness.spec()))
    report.unlink(missing_ok=True)
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_", "PROMOLINT_"))}
    environment.update(JAX_PLATFORMS="cpu", JAX_TRACEBACK_FILTERING="off", PYTHONHASHSEED="0", **MODES[mode])
    command = ["nice", "-n", "10", str(python), str(HERE / "_census_harness.py"), str(spec), str(report)]
    start = time.perf_counter()
    try:
        # in the output folder: what a project writes into its working directory (jaxns's
        # application.log) stays out of the checkout
        done = subprocess.run(command, cwd=out, env=environment, capture_output=True, text=True, timeout=timeout)
        ended = f"exit {done.returncode}" + (f": {done.stderr.strip()[-600:]}" if done.returncode else "")
    except subprocess.TimeoutExpired:
        ended = f"timed out after {timeout} s"
    result = {"records": [], "cases": [], "casts": 0}
    if report.exists():
        result.update(json.loads(report.read_text()))
    return {**result, "ended": ended, "seconds": round(time.perf_counter() - start, 1)}


def census_lines(runs: dict[str, dict]) -> list[dict]:
    """One line per (mode, path, line): an error's kind wins over a float64 promotion there."""
    lines: dict[tuple[str, str, int], dict] = {}
    for mode, run in runs.items():
        for record in run["records"]:
            key = (mode, record["path"], record["line"])
            if key not in lines or lines[key]["kind"] == F64_PROMOTION:
                lines[key] = {"mode": mode, "path": record["path"], "line": record["line"], "kind": record["kind"],
                              "message": record["message"], "cases": record["cases"]}  # fmt: skip
    return [lines[key] for key in sorted(lines)]


def census_project(harness: Harness, python: Path, out: Path, timeout: int, static: bool, reuse: bool) -> dict:
    runs = {mode: run_harness(harness, python, mode, out, timeout, reuse) for mode in MODES}
    lines = census_lines(runs)
    entry = {"driver": {"harness": harness.spec()}, "runs": runs, "lines": lines}
    if not static:
        return entry
    project = next(p for p in _projects.load_projects() if p.name == harness.name)
    root = _projects.fetch(project)
    entry["static"] = {}
    for rules in RULE_SETS:
        for mode in MODES:
            done = check(root, project.packages, mode, rules, timeout)
            entry["static"][f"{rules} {mode}"] = {"findings": len(done.findings), "crash": done.crash,
                                                  "seconds": round(done.wall_s, 1)}  # fmt: skip
            for line in lines:
                if line["mode"] == mode:
                    line[f"named_{rules}"] = naming(line["path"], line["line"], done.findings)
                    if rules == "all" and not line[f"named_{rules}"]:
                        line["nearby"] = nearby(line["path"], line["line"], done.findings)
    for mode in MODES:
        known_at(root, [line for line in lines if line["mode"] == mode and not line.get("named_all")], mode, timeout)
    return entry


def attach_sources(census: dict) -> None:
    """Each census line's code, as the primer's unpacked copy of its project has it."""
    primer = {p.name: p for p in _projects.load_projects()}
    for name, entry in census["projects"].items():
        root = _projects.fetch(primer[name])
        for line in entry["lines"]:
            line["source"] = linecache.getline(str(root / line["path"]), line["line"]).strip()


def figures(entry: dict) -> dict:
    lines = entry["lines"]
    errors = [line for line in lines if line["kind"] != F64_PROMOTION]
    cases = [c for run in entry["runs"].values() for c in run["cases"]]
    return {"cases": len(cases), "case_errors": sum(bool(c["error"]) for c in cases),
            "lines": len(lines), "error_lines": len(errors), "f64_lines": len(lines) - len(errors),
            **{f"named_{rules}": sum(bool(line.get(f"named_{rules}")) for line in lines) for rules in RULE_SETS},
            **{f"errors_named_{rules}": sum(bool(line.get(f"named_{rules}")) for line in errors)
               for rules in RULE_SETS}}  # fmt: skip


def _ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "-"


def markdown(census: dict) -> str:
    rows = ["| project | case runs (failed) | census lines (errors + f64 promotions) | named, default rules | "
            "named, all rules | errors named, default | errors named, all |", "|---|---|---|---|---|---|---|"]
    total: dict[str, int] = {}
    missed = []
    for name, entry in census["projects"].items():
        f = entry["figures"]
        total = {k: total.get(k, 0) + v for k, v in f.items()}
        rows.append(f"| {name} | {f['cases']} ({f['case_errors']}) | "
                    f"{f['lines']} ({f['error_lines']} + {f['f64_lines']}) | "
                    f"{_ratio(f['named_default'], f['lines'])} | {_ratio(f['named_all'], f['lines'])} | "
                    f"{_ratio(f['errors_named_default'], f['error_lines'])} | "
                    f"{_ratio(f['errors_named_all'], f['error_lines'])} |")  # fmt: skip
        for line in entry["lines"]:
            if not line.get("named_all"):
                hint = f" (nearby: {', '.join(line['nearby'])})" if line.get("nearby") else ""
                message = line["message"].splitlines()[0].split(" have no available")[0][:120]
                known = line.get("known", NOT_REVEALED)
                why = f" `{' '.join(line['why'].split())[:60]}`" if line.get("why") else ""
                missed.append(f"- {name} `{line['path']}:{line['line']}` ({line['mode']}, {line['kind']}): "
                              f"`{line.get('source', '')[:100]}`: {message}{hint}; reveal: {known}{why}")  # fmt: skip
    kinds: dict[str, list[int]] = {}
    for entry in census["projects"].values():
        for line in entry["lines"]:
            counts = kinds.setdefault(line["kind"], [0, 0, 0])
            counts[0] += 1
            counts[1] += bool(line.get("named_default"))
            counts[2] += bool(line.get("named_all"))
    by_kind = ["| kind | census lines | named, default rules | named, all rules |", "|---|---|---|---|",
               *(f"| {kind} | {n} | {_ratio(d, n)} | {_ratio(a, n)} |" for kind, (n, d, a) in sorted(kinds.items()))]
    by_knowledge = _by_knowledge(census)
    if total:
        rows.append(f"| **all {len(census['projects'])}** | {total['cases']} ({total['case_errors']}) | "
                    f"{total['lines']} ({total['error_lines']} + {total['f64_lines']}) | "
                    f"{_ratio(total['named_default'], total['lines'])} | "
                    f"{_ratio(total['named_all'], total['lines'])} | "
                    f"{_ratio(total['errors_named_default'], total['error_lines'])} | "
                    f"{_ratio(total['errors_named_all'], total['error_lines'])} |")  # fmt: skip
    ledger = census.get("ledger", {})
    precision = ", ".join(f"{rules} rules {v['bug']} bug / {v['noise']} noise / {v['wrong']} wrong"
                          for rules, v in ledger.items())  # fmt: skip
    out = ["## Census of real promotion bugs", "",
           "Written by `python tests/primer/census.py`: each project's harness (census.toml: public entry "
           "points, float32 example inputs) run with `JAX_ENABLE_X64=1` and with "
           "`JAX_NUMPY_DTYPE_PROMOTION=strict` (x64 off); a census line is a line of the project's package "
           "where a promotion error was raised (innermost frame) or a float32 value was promoted to float64 "
           "(x64). A line is named when a `promolint check` finding of the same mode spans it.", "",
           *rows, "", *by_kind, "", f"Ledger precision: {precision or 'not read'}.", "",
           ("What `promolint reveal` knows at the lines no rule names (in the line's mode): an operand of "
            "unknown dtype (an attribute, a call the engine cannot follow), values that depend on inputs "
            "(parameters and fields whose dtype the code does not say), or every value known."), "",
           *by_knowledge]  # fmt: skip
    if missed:
        out += ["", "Lines no rule names (mode, kind):", "", *missed]
    return "\n".join(out) + "\n"


def _by_knowledge(census: dict) -> list[str]:
    """The missed lines counted by what reveal knows there, per mode and kind of line."""
    counts: dict[tuple[str, str], Counter] = {}
    for entry in census["projects"].values():
        for line in entry["lines"]:
            if not line.get("named_all"):
                group = (line["mode"], "f64 promotion" if line["kind"] == F64_PROMOTION else "error")
                counts.setdefault(group, Counter())[line.get("known", NOT_REVEALED)] += 1
    return ["| mode | line | " + " | ".join(KNOWLEDGE) + " |", "|---|---|" + "---|" * len(KNOWLEDGE),
            *(f"| {mode} | {kind} | " + " | ".join(str(known[c]) for c in KNOWLEDGE) + " |"
              for (mode, kind), known in sorted(counts.items()))]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", help="census only this project (repeatable)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds one harness or check run may take")
    parser.add_argument("--no-static", dest="static", action="store_false", help="skip promolint check")
    parser.add_argument("--cache", type=Path, default=WORK, help=f"downloads, venv and output (default {WORK})")
    parser.add_argument("--markdown", type=Path, default=MARKDOWN, help=f"where the figures go (default {MARKDOWN})")
    parser.add_argument("--reuse-runs", action="store_true",
                        help="take the harness reports an interrupted census left in the output folder")
    parser.add_argument("--report-only", action="store_true", help="rewrite the markdown from the last census.json")
    args = parser.parse_args(argv)
    if args.report_only:
        last = args.cache.resolve() / "out" / "census.json"
        if not last.exists():
            print(f"census: no {last} to report on; run the census first", file=sys.stderr)
            return 2
        census = json.loads(last.read_text())
        attach_sources(census)
        args.markdown.write_text(markdown(census))
        print(args.markdown.read_text())
        return 0
    try:
        distributions, harnesses = load_census()
    except (ValueError, tomllib.TOMLDecodeError, TypeError) as error:
        print(f"census: {error}", file=sys.stderr)
        return 2
    known = {h.name for h in harnesses}
    if args.project and not set(args.project) <= known:
        parser.error(f"no harness for {sorted(set(args.project) - known)}; census.toml has {sorted(known)}")
    chosen = [h for h in harnesses if not args.project or h.name in args.project]
    cache = args.cache.resolve()
    out = cache / "out"
    out.mkdir(parents=True, exist_ok=True)
    place_primer_downloads(chosen, cache)
    python = runtime.prepare(distributions, chosen, cache)
    census = {"promolint_census": 1, "projects": {}}
    if args.project and (out / "census.json").exists():  # a partial run updates the last full one
        census["projects"] = json.loads((out / "census.json").read_text())["projects"]
    for harness in chosen:  # one at a time: the machine's cores are shared
        entry = census_project(harness, python, out, args.timeout, args.static, args.reuse_runs)
        entry["figures"] = figures(entry)
        census["projects"][harness.name] = entry
        (out / "census.json").write_text(json.dumps(census, indent=1) + "\n")  # each project kept as it ends
        print(f"census: {harness.name}: {entry['figures']}", file=sys.stderr)
    if args.static:
        census["ledger"] = ledger_precision()
    attach_sources(census)
    (out / "census.json").write_text(json.dumps(census, indent=1) + "\n")
    text = markdown(census)
    args.markdown.write_text(text)
    print(text)
    print(f"census: written to {out / 'census.json'} and {args.markdown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""No safe fix changes a dtype, on the primer's projects: every safe fix applied to every file in
each mode, and `promolint reveal` of every expression compared before and after, with x64 off
and on (the one mode a mode forces) under standard promotion, and under the mode's promotion.

    python tests/primer/fix_safety.py [--modes default,x64,x32,strict] [--project NAME[,NAME]]
                                      [--jobs N] [--output DIR] [--cache DIR] [--timeout S] [--net]

Downloads the projects it lacks (tests/primer/_projects.py), never in CI.  Writes
fix_safety.json and fix_safety.md to the output folder (gitignored): per project and mode the
files, the safe fixes applied, and every expression whose dtype, weak flag, library or error a
safe fix changed (with the fixed code around it), files whose fixed code did not parse or match,
and files that timed out.  Exit status 1 when a safe fix changed something.

The fixes are the ones the rules call safe, as they are; ``--net`` applies them as
`promolint check --fix` does, after its own check that drops a fix changing an assigned name's
dtype in the other x64 mode (which hides a rule's wrong call).  The comparison is
``tests/support/safe_fixes.py``'s, as the test suite runs it on the fixtures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "support")]
from _projects import DEFAULT_CACHE, ROOT, FetchError, fetch, load_projects, python_files  # noqa: E402
from safe_fixes import check_safe_fixes  # noqa: E402

from promolint.driver.config import X64_PORTABILITY, known_codes  # noqa: E402
from promolint.engine.walker.analysis import Settings  # noqa: E402
from promolint.driver.project import project_facts  # noqa: E402
from promolint.engine.project_facts import ProjectFacts  # noqa: E402

MODES = {"default": Settings(), "x64": Settings(x64="on"), "x32": Settings(x64="off"),
         "strict": Settings(promotion="strict")}  # fmt: skip
CODES = frozenset(known_codes()) - {X64_PORTABILITY}
DEFAULT_OUTPUT = ROOT / "primer_output"


def _check_file(job: tuple[str, str, Settings, bool]) -> dict:
    path, mode, settings, net = job
    start = time.perf_counter()
    try:
        outcome = check_safe_fixes(Path(path).read_bytes(), settings, CODES, net=net)
    except RecursionError:
        return {"path": path, "mode": mode, "error": "nested too deeply to compare", "applied": 0, "changes": []}
    lines = outcome.fixed.decode("utf-8", "replace").splitlines()
    changes = [{"line": c.line, "column": c.column, "text": c.text, "mode": c.mode, "before": c.before,
                "after": c.after, "fixed_line": _at(lines, c.line)} for c in outcome.changes]  # fmt: skip
    return {"path": path, "mode": mode, "applied": outcome.applied, "error": outcome.error, "changes": changes,
            "wall_s": round(time.perf_counter() - start, 2)}  # fmt: skip


def _at(lines: list[str], line: int) -> str:
    """The original's ``line`` in the fixed file, near enough: fixes add imports at the top."""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def run(args: argparse.Namespace) -> dict:
    wanted = {n for names in args.project for n in names.split(",") if n}
    projects = [p for p in load_projects() if not wanted or p.name in wanted]
    report = {"modes": args.modes, "net": args.net, "projects": []}
    pool = multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=50)
    try:
        for project in projects:
            entry = {"name": project.name, "version": project.version, "error": None, "files": 0, "modes": {}}
            report["projects"].append(entry)
            try:
                root = fetch(project, args.cache)
            except FetchError as error:
                entry["error"] = str(error)
                continue
            files = python_files(root, project)
            entry["files"] = len(files)
            facts = project_facts([(f, f.read_bytes()) for f in files])
            jobs = []
            for mode in args.modes:
                settings = MODES[mode]
                for f in files:
                    known = facts.get(str(f), ProjectFacts()) if settings.x64 == "auto" else ProjectFacts()
                    jobs.append((str(f), mode, replace(settings, facts=known), args.net))
            pending = [(job, pool.apply_async(_check_file, (job,))) for job in jobs]
            for (path, mode, _, _), result in pending:
                relative = str(Path(path).relative_to(root))
                summary = entry["modes"].setdefault(mode, {"applied": 0, "files_fixed": 0, "changes": [],
                                                           "errors": [], "timeouts": []})  # fmt: skip
                try:
                    done = result.get(timeout=args.timeout)
                except multiprocessing.TimeoutError:
                    summary["timeouts"].append(relative)
                    continue
                summary["applied"] += done["applied"]
                summary["files_fixed"] += bool(done["applied"])
                if done["error"]:
                    summary["errors"].append({"path": relative, "error": done["error"]})
                summary["changes"] += [{"path": relative, **change} for change in done["changes"]]
            print(f"{project.name}: " + ", ".join(f"{m} {s['applied']} fixes, {len(s['changes'])} changes"
                                                  for m, s in entry["modes"].items()), file=sys.stderr)  # fmt: skip
    finally:
        pool.terminate()
    return report


def markdown(report: dict) -> str:
    out = ["# Safe fixes on the primer's projects", "",
           f"Modes: {', '.join(report['modes'])}; fixes as the rules call them safe"
           f"{', after `check --fix`’s own check' if report['net'] else ''}.", "",
           "| project | files | " + " | ".join(f"{m}: fixes (files) / changes" for m in report["modes"]) + " |",
           "|---|---|" + "---|" * len(report["modes"])]  # fmt: skip
    for p in report["projects"]:
        cells = [f"{s['applied']} ({s['files_fixed']}) / {len(s['changes'])}" for m in report["modes"]
                 if (s := p["modes"].get(m))] if not p["error"] else [f"error: {p['error']}"]  # fmt: skip
        out.append(f"| {p['name']} {p['version']} | {p['files']} | " + " | ".join(cells) + " |")
    for p in report["projects"]:
        for mode, s in p["modes"].items():
            for change in s["changes"]:
                out.append(f"- {p['name']} {change['path']}:{change['line']}:{change['column']} ({mode} fixes, "
                           f"{change['mode']}): `{change['text']}` {change['before']} -> {change['after']}; "
                           f"fixed: `{change['fixed_line']}`")  # fmt: skip
            for error in s["errors"]:
                out.append(f"- {p['name']} {error['path']} ({mode}): {error['error']}")
            for path in s["timeouts"]:
                out.append(f"- {p['name']} {path} ({mode}): timed out")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="default,x64,x32,strict", help="comma-separated, of " + ", ".join(MODES))
    parser.add_argument("--project", action="append", default=[], help="only these (repeat or comma-separate)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--timeout", type=float, default=300, help="seconds one file in one mode may take")
    parser.add_argument("--net", action="store_true", help="apply the fixes as `promolint check --fix` does")
    args = parser.parse_args(argv)
    args.modes = [m for m in args.modes.split(",") if m]
    unknown = [m for m in args.modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode {', '.join(unknown)}; modes are {', '.join(MODES)}")
    report = run(args)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "fix_safety.json").write_text(json.dumps(report, indent=1) + "\n")
    (args.output / "fix_safety.md").write_text(markdown(report))
    changed = sum(len(s["changes"]) for p in report["projects"] for s in p["modes"].values())
    print(f"{changed} changes; report in {args.output / 'fix_safety.md'}", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())

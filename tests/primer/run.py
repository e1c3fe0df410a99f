"""The primer: lint pinned real projects with `promolint check` in several modes and report.

    python tests/primer/run.py [--modes default,x64,strict] [--project NAME[,NAME]] [--base REV]
                               [--jobs N] [--output DIR] [--no-coverage]
    python tests/primer/run.py --ledger-update [--prune]
    python tests/primer/run.py --held-out [...]


Writes primer.json and summary.md to the output folder (gitignored): per project its files,
lines, wall time and findings per rule in each mode, crashes and internal errors, and static
coverage; with the default, x64 and strict modes it rewrites tests/primer/produced.toml, the keys the
triage ledger (tests/primer/ledger.toml) must cover.  ``--base REV`` installs REV in a scratch
worktree and venv, runs the same there and writes diff.md: findings added and removed per project
and rule, coverage before and after.  ``--ledger-update`` adds produced keys the ledger lacks as
untriaged entries and lists stale ones (``--prune`` removes them).  ``--held-out`` does the same
for the projects kept out of development (held_out.toml, held_out_ledger.toml,
held_out_produced.toml).  See docs/primer.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _keys import Key, keyed  # noqa: E402
from _ledger import (HELD_OUT_LEDGER, HELD_OUT_PRODUCED, LEDGER, LEDGER_MODES, PRODUCED, LedgerError,  # noqa: E402
                     Produced, ledgered, read_ledger, read_produced, update, write_ledger, write_produced)
from _lint import INTERNAL_ERROR, MODES, check, reveal_coverage  # noqa: E402
from _projects import (DEFAULT_CACHE, HELD_OUT, PROJECTS, ROOT, FetchError, Project, fetch,  # noqa: E402
                       load_projects, python_files)
from _report import diff, summary  # noqa: E402

DEFAULT_OUTPUT = ROOT / "primer_output"
PARSE_ERROR = "PRM000"


@dataclass(frozen=True)
class Suite:
    """Pinned projects, the ledger of their judged findings and the keys the last run produced."""

    projects: Path
    ledger: Path
    produced: Path


PRIMER = Suite(PROJECTS, LEDGER, PRODUCED)
HELD_OUT_SUITE = Suite(HELD_OUT, HELD_OUT_LEDGER, HELD_OUT_PRODUCED)


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def _revision(cwd: Path) -> str:
    sha = _git("rev-parse", "--short=12", "HEAD", cwd=cwd)
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=cwd).returncode != 0
    return sha + ("+changes" if dirty else "")


def lint_project(project: Project, promolint: list[str], args: argparse.Namespace) -> tuple[dict, dict]:
    """The project's entry of primer.json, and its findings by mode keyed for the ledger."""
    entry = {"name": project.name, "version": project.version, "style": project.style, "error": None,
             "files": 0, "lines": 0, "modes": {}, "coverage": None}  # fmt: skip
    try:
        root = fetch(project, args.cache)
    except FetchError as error:
        entry["error"] = str(error)
        return entry, {}
    files = python_files(root, project)
    texts = {str(f.relative_to(root).as_posix()): f.read_text(encoding="utf-8", errors="replace") for f in files}
    entry["files"], entry["lines"] = len(files), sum(t.count("\n") for t in texts.values())
    keys = {}
    for mode in args.modes:
        run = check(promolint, root, project.packages, mode, args.jobs, args.timeout)
        rule_findings = [f for f in run.findings if f["code"] != PARSE_ERROR]
        parse_errors = [f for f in run.findings if f["code"] == PARSE_ERROR]
        by_key: dict[Key, dict] = {}
        for key, finding in keyed(project.name, texts, rule_findings):
            finding.update(key=[key.file, key.rule, key.expr, key.occurrence])
            by_key.setdefault(key, finding)  # two messages on one node: the first stands for the key
        keys[mode] = by_key
        entry["modes"][mode] = {
            "wall_s": round(run.wall_s, 3),
            "crash": run.crash,
            "findings": rule_findings,
            "internal_errors": [f"{f['path']}: {f['message']}" for f in parse_errors if INTERNAL_ERROR in f["message"]],
            "unparsable": [f"{f['path']}:{f['line']}: {f['message']}" for f in parse_errors
                           if INTERNAL_ERROR not in f["message"]],
        }  # fmt: skip
    if args.coverage:
        cov = reveal_coverage(promolint, root, files, args.jobs, args.timeout)
        entry["coverage"] = {"known": cov.known, "sites": cov.sites, "concrete": cov.concrete,
                             "wall_s": round(cov.wall_s, 3), "failures": cov.failures}  # fmt: skip
    return entry, keys


def run_all(projects: list[Project], promolint: list[str], revision: str,
            args: argparse.Namespace) -> tuple[dict, dict]:
    start = time.perf_counter()
    result = {"revision": revision, "modes": args.modes, "jobs": args.jobs, "projects": []}
    keys: dict[tuple[str, str], dict[Key, dict]] = {}
    for project in projects:
        entry, by_mode = lint_project(project, promolint, args)
        result["projects"].append(entry)
        keys.update({(project.name, mode): found for mode, found in by_mode.items()})
        if entry["error"]:
            print(f"  {project.name}: FAILED {entry['error']}", file=sys.stderr)
            continue
        runs = ", ".join(f"{m} {r['wall_s']:.1f}s/{len(r['findings'])}" + (" CRASH" if r["crash"] else "")
                         for m, r in entry["modes"].items())  # fmt: skip
        cov = entry["coverage"]
        cov_text = f", coverage {cov['known']}/{cov['sites']}" if cov else ""
        print(f"  {project.name}: {entry['files']} files, {entry['lines']} lines; {runs}{cov_text}", file=sys.stderr)
    result["wall_s"] = round(time.perf_counter() - start, 1)
    return result, keys


def ledger_keys(result: dict, keys: dict) -> dict[Key, tuple[str, ...]]:
    """The run's keys in the ledger's modes, with the modes that produced each."""
    out: dict[Key, list[str]] = {}
    for (_, mode), found in keys.items():
        for key in found:
            if ledgered(mode, key.rule):
                out.setdefault(key, []).append(mode)
    return {key: tuple(m for m in LEDGER_MODES if m in modes) for key, modes in out.items()}


def update_produced(result: dict, keys: dict, names: set[str], suite: Suite = PRIMER) -> None:
    """Replace the keys of every project this run linted cleanly in both ledger modes; keep the
    others' (a failed download says nothing about its findings) and drop unlisted projects'."""
    clean = {p["name"] for p in result["projects"]
             if not p["error"] and all(not p["modes"][m]["crash"] for m in LEDGER_MODES)}  # fmt: skip
    for p in result["projects"]:
        if p["name"] not in clean:
            print(f"produced.toml keeps the old keys of {p['name']}: it did not lint cleanly", file=sys.stderr)
    kept = {k: v for k, v in read_produced(suite.produced).items() if k.project in names and k.project not in clean}
    for key, modes in ledger_keys(result, keys).items():
        if key.project in clean:
            finding = keys[(key.project, modes[0])][key]
            kept[key] = Produced(modes, finding["line"], finding["message"])
    write_produced(kept, suite.produced)


def prepare_base(rev: str, cache: Path) -> tuple[list[str], str]:
    """A git worktree of ``rev`` with its own venv (system site packages, promolint installed
    editable without dependencies), made once per commit under ``cache``/base."""
    sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    where = cache / "base" / sha[:12]
    python = where / ".venv" / "bin" / "python"
    script = where / ".venv" / "bin" / "promolint"  # older revisions import as `linter`: use the script
    if not (where / ".primer-ready").exists():
        print(f"installing {rev} ({sha[:12]}) in {where}", file=sys.stderr)
        _git("worktree", "prune")
        if where.exists():
            _git("worktree", "remove", "--force", str(where))
        _git("worktree", "add", "--detach", str(where), sha)
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(where / ".venv")], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(where)], check=True)
        (where / ".primer-ready").write_text(sha + "\n")
    return [str(script)], _revision(where)


def _write(output: Path, name: str, text: str) -> Path:
    output.mkdir(parents=True, exist_ok=True)
    (output / name).write_text(text, encoding="utf-8")
    return output / name


def ledger_update(prune: bool, suite: Suite = PRIMER) -> int:
    try:
        entries, added, stale = update(read_ledger(suite.ledger), read_produced(suite.produced), prune)
    except LedgerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write_ledger(entries, suite.ledger)
    print(f"{suite.ledger.name}: {len(added)} new keys added as untriaged, {len(stale)} stale"
          + (" (removed)" if prune and stale else ""))  # fmt: skip
    for key in added:
        print(f"  + {key.label()}")
    for key in stale:
        print(f"  {'-' if prune else '?'} {key.label()}")
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="default,x64,strict", help="comma-separated, of " + ", ".join(MODES))
    parser.add_argument("--project", action="append", default=[], help="lint only these (repeat or comma-separate)")
    parser.add_argument("--base", metavar="REV", help="also run REV and print what changed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--timeout", type=float, default=900, help="seconds one promolint command may take")
    parser.add_argument("--no-coverage", dest="coverage", action="store_false", help="skip reveal's coverage count")
    parser.add_argument("--ledger-update", action="store_true",
                        help="add the produced keys the ledger lacks as untriaged, list stale ones")
    parser.add_argument("--prune", action="store_true", help="with --ledger-update: remove stale entries")
    parser.add_argument("--held-out", action="store_true",
                        help="the projects kept out of development (held_out.toml) and their ledger")
    args = parser.parse_args(argv)
    args.modes = [m for m in args.modes.split(",") if m]
    unknown = [m for m in args.modes if m not in MODES]
    if unknown or not args.modes:
        parser.error(f"unknown mode {', '.join(unknown) or '(none)'}; choose from {', '.join(MODES)}")
    args.project = [n for names in args.project for n in names.split(",") if n]
    args.cache = args.cache.resolve()  # the checks run inside each project's folder
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    suite = HELD_OUT_SUITE if args.held_out else PRIMER
    if args.ledger_update:
        return ledger_update(args.prune, suite)
    projects = load_projects(suite.projects)
    names = {p.name for p in projects}
    missing = [n for n in args.project if n not in names]
    if missing:
        print(f"error: no project {', '.join(missing)} in {suite.projects.name}", file=sys.stderr)
        return 2
    projects = [p for p in projects if not args.project or p.name in args.project]
    try:
        ledger = read_ledger(suite.ledger)
    except LedgerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    print(f"primer: {len(projects)} projects, modes {', '.join(args.modes)}", file=sys.stderr)
    head, head_keys = run_all(projects, [sys.executable, "-m", "promolint"], _revision(ROOT), args)
    produced = ledger_keys(head, head_keys)
    _write(args.output, "primer.json", json.dumps(head, indent=1))
    path = _write(args.output, "summary.md", summary(head, ledger, produced))
    print(f"wrote {path} and primer.json", file=sys.stderr)
    if set(LEDGER_MODES) <= set(args.modes):
        update_produced(head, head_keys, names, suite)
    status = 1 if any(p["error"] or any(r["crash"] or r["internal_errors"] for r in p["modes"].values())
                      for p in head["projects"]) else 0  # fmt: skip

    if args.base:
        promolint, revision = prepare_base(args.base, args.cache)
        print(f"primer: base {revision}", file=sys.stderr)
        base, base_keys = run_all(projects, promolint, revision, args)
        _write(args.output, "base.json", json.dumps(base, indent=1))
        text = diff(head, base, head_keys, base_keys)
        path = _write(args.output, "diff.md", text)
        print(text)
        print(f"wrote {path}", file=sys.stderr)
    else:
        print((args.output / "summary.md").read_text())
    return status


if __name__ == "__main__":
    raise SystemExit(main())

"""Issue #35's corpus of promotion surprises users reported in public issue trackers, measured.

    python tests/primer/reports.py [--verify] [--only ID[,ID...]] [--no-markdown]

Each entry of tests/primer/reports.toml is a report minimized to a snippet, with the line where the
problem shows, the mode where it bites and the outcome running it gave under the JAX and NumPy the
file names.  This script lints every snippet with ``promolint check`` in its mode, once with the
default rules and once with every rule (``--select ALL``), and says whether a finding lands on the
problem's line; ``--verify`` first runs each snippet under the installed JAX/NumPy in a fresh
interpreter and compares with the recorded outcome.  It prints a line per entry and the totals,
and writes the same as a markdown table to tests/primer/reports.md (generated: do not edit).

Exit status: 0; 1 when ``--verify`` found an outcome that changed or when promolint crashed
(an internal error, PRM000, or a traceback) on a snippet.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "reports.toml"
MARKDOWN = CORPUS.with_suffix(".md")
REQUIRED = ("id", "url", "title", "repository", "reported", "pattern", "kind", "x64", "promotion",
            "line", "outcome", "snippet")
KINDS = ("raises", "widens", "wraps", "narrows", "retraces")
RULE_SETS = {"default": (), "all": ("--select", "ALL")}
# Rules that report a dtype differing between modes (x64 off/on, NumPy 1/2), not the problem the
# report is about: counted apart unless the report's mode is that difference (--numpy1-compat).
MODE_DIFFERENCE = {"PRM010": "--x64-portability", "PRM024": "--numpy1-compat"}

# Runs one snippet the way the report ran it: modes set before anything is computed, the outcome
# is the exception it raised or what it left in `out`, and the warnings it gave.
_CHILD = r"""
import json, sys, warnings
import jax
jax.config.update("jax_enable_x64", sys.argv[1] == "on")
jax.config.update("jax_numpy_dtype_promotion", sys.argv[2])
import numpy as np

def describe(value):
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return f"{type(value).__name__} {value!r}"
    weak = " weak" if getattr(value, "weak_type", False) else ""
    library = "jax" if type(value).__module__.startswith("jax") else "numpy"
    return f"{dtype}{weak} [{library}] {np.asarray(value).tolist()!r}"

scope = {"__name__": "__report__"}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        exec(compile(sys.argv[3], "<snippet>", "exec"), scope)
    except Exception as error:
        message = " ".join(str(error).split())
        outcome = f"{type(error).__name__}: {message}"[:400]
    else:
        outcome = describe(scope.get("out"))[:400]
shown = dict.fromkeys(f"{w.category.__name__}: {str(w.message).split('. ')[0][:160]}" for w in caught
                      if not issubclass(w.category, DeprecationWarning))
print(json.dumps(outcome + "".join(f"; warns {text}" for text in shown)))
"""


class CorpusError(Exception):
    """reports.toml is malformed: the message names the entry and the field."""


@dataclass(frozen=True)
class Report:
    """One reported surprise: where it was reported, its snippet, and what running it gave."""

    id: str
    url: str
    title: str
    repository: str
    reported: str
    pattern: str
    kind: str
    x64: str
    promotion: str
    line: int
    outcome: str
    snippet: str
    also_lines: tuple[int, ...] = ()
    flags: tuple[str, ...] = ()

    @property
    def lines(self) -> frozenset[int]:
        """The lines where a finding counts as reporting the problem."""
        return frozenset((self.line, *self.also_lines))

    @property
    def mode_flags(self) -> tuple[str, ...]:
        return ("--x64", self.x64, "--promotion", self.promotion, *self.flags)


@dataclass
class Lint:
    codes: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # id -> (line, code)
    crashes: dict[str, str] = field(default_factory=dict)  # id -> what went wrong


def load(path: Path = CORPUS) -> tuple[dict, list[Report]]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    reports, seen = [], set()
    for index, entry in enumerate(data.get("report", [])):
        where = f"report #{index + 1} ({entry.get('id', '?')})"
        missing = [name for name in REQUIRED if name not in entry]
        if missing:
            raise CorpusError(f"{where}: missing {', '.join(missing)}")
        unknown = sorted(set(entry) - set(Report.__dataclass_fields__))
        if unknown:
            raise CorpusError(f"{where}: unknown field {', '.join(unknown)}")
        if entry["id"] in seen:
            raise CorpusError(f"{where}: duplicate id")
        seen.add(entry["id"])
        if entry["kind"] not in KINDS:
            raise CorpusError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
        if entry["x64"] not in ("on", "off") or entry["promotion"] not in ("standard", "strict"):
            raise CorpusError(f"{where}: x64 is on/off, promotion standard/strict")
        report = Report(**{**entry, "also_lines": tuple(entry.get("also_lines", ())),
                           "flags": tuple(entry.get("flags", ()))})
        count = len(report.snippet.splitlines())
        if not all(1 <= line <= count for line in report.lines):
            raise CorpusError(f"{where}: a problem line is outside the snippet's {count} lines")
        reports.append(report)
    return data.get("meta", {}), reports


def run_under_jax(report: Report) -> str:
    """The outcome the installed JAX/NumPy give for the snippet, in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", _CHILD, report.x64, report.promotion, report.snippet],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        return f"child failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def lint(reports: list[Report], rule_set: tuple[str, ...]) -> Lint:
    """promolint check on every snippet, one run per mode: the findings' lines and codes."""
    result = Lint()
    groups: dict[tuple[str, ...], list[Report]] = {}
    for report in reports:
        groups.setdefault(report.mode_flags, []).append(report)
    with tempfile.TemporaryDirectory(prefix="promolint-reports-") as folder:
        for flags, members in groups.items():
            files = {}
            for report in members:
                path = Path(folder) / f"{report.id.replace('-', '_')}.py"
                path.write_text(report.snippet)
                files[path.name] = report.id
                result.codes[report.id] = []
            done = subprocess.run([sys.executable, "-m", "promolint", "check", "--no-cache", "--jobs", "1",
                                   "--format", "json", *flags, *rule_set, *sorted(files)],
                                  cwd=folder, capture_output=True, text=True, timeout=600)
            if done.returncode not in (0, 1) or "Traceback" in done.stderr:
                for report_id in files.values():
                    result.crashes[report_id] = f"exit {done.returncode}: {done.stderr.strip()[-500:]}"
                continue
            for finding in json.loads(done.stdout or "[]"):
                report_id = files[Path(finding["path"]).name]
                if finding["code"] == "PRM000":
                    result.crashes[report_id] = f"PRM000 line {finding['line']}: {finding['message']}"
                result.codes[report_id].append((finding["line"], finding["code"]))
    return result


def landed(report: Report, result: Lint) -> list[str]:
    """The codes of the findings on the problem's lines."""
    return sorted({code for line, code in result.codes.get(report.id, ()) if line in report.lines})


def elsewhere(report: Report, result: Lint) -> list[str]:
    """The findings on other lines than the problem's, as CODE@line."""
    return sorted({f"{code}@{line}" for line, code in result.codes.get(report.id, ()) if line not in report.lines})


def on_topic(report: Report, codes: list[str]) -> list[str]:
    """The codes that report the problem itself, not only that a dtype differs between modes."""
    return [code for code in codes if MODE_DIFFERENCE.get(code, "") in ("", *report.flags)]


def markdown(meta: dict, rows: list[dict], totals: dict[str, int], verified: bool, since: str) -> str:
    head = ["<!-- generated by tests/primer/reports.py: do not edit -->", "",
            "# Promotion surprises reported in public issue trackers", "",
            f"Each report minimized to a snippet (tests/primer/reports.toml), its outcome recorded "
            f"under jax {meta.get('jax', '?')} / numpy {meta.get('numpy', '?')}; found: a "
            f"`promolint check` finding on the problem's line in the mode where it bites.", "",
            f"Entries: {totals['entries']}; reproduced: {totals['reproduced']}"
            f"{'' if verified else ' (as recorded; run with --verify to rerun them)'}; "
            f"found by default rules: {totals['default']}; found with all rules: {totals['all']} "
            f"({totals['all_on_topic']} counting PRM010/PRM024 only where the report is about that "
            f"mode difference). Reported since {since} (the issue's last three years): "
            f"{totals['recent']}, found by default rules: {totals['recent_default']}, with all rules: "
            f"{totals['recent_all']}.", "",
            "| report | pattern | mode | outcome | reproduced | default rules | all rules | all rules, other lines |",
            "|---|---|---|---|---|---|---|---|"]
    body = [f"| [{row['id']}]({row['url']}) | {row['pattern']} | {row['mode']} | {row['kind']} | "
            f"{row['reproduced']} | {row['default'] or '-'} | {row['all'] or '-'} | {row['elsewhere'] or '-'} |"
            for row in rows]
    return "\n".join(head + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verify", action="store_true", help="rerun every snippet under the installed JAX")
    parser.add_argument("--only", default="", help="comma-separated ids to measure (no markdown)")
    parser.add_argument("--no-markdown", action="store_true", help="do not rewrite reports.md")
    args = parser.parse_args(argv)
    try:
        meta, reports = load()
    except (CorpusError, tomllib.TOMLDecodeError) as error:
        print(f"reports.toml: {error}", file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only.split(","))
        reports = [report for report in reports if report.id in wanted]
    results = {name: lint(reports, flags) for name, flags in RULE_SETS.items()}
    changed, rows = [], []
    totals = Counter(entries=len(reports))
    recorded = meta.get("recorded", "0000")
    since = f"{int(recorded[:4]) - 3:04d}{recorded[4:]}"  # issue #35 counts the last three years
    for report in reports:
        if args.verify:
            actual = run_under_jax(report)
            reproduced = "yes" if actual == report.outcome else "NO"
            if actual != report.outcome:
                changed.append((report.id, actual))
        else:
            reproduced = "recorded"
        totals["reproduced"] += reproduced in ("yes", "recorded")
        found = {name: landed(report, result) for name, result in results.items()}
        totals["default"] += bool(found["default"])
        totals["all"] += bool(found["all"])
        totals["all_on_topic"] += bool(on_topic(report, found["all"]))
        if report.reported >= since:
            totals["recent"] += 1
            totals["recent_default"] += bool(found["default"])
            totals["recent_all"] += bool(found["all"])
        mode = f"x64 {report.x64}" + (", strict" if report.promotion == "strict" else "") + \
            "".join(f", {flag}" for flag in report.flags)
        rows.append({"id": report.id, "url": report.url, "pattern": report.pattern, "mode": mode,
                     "kind": report.kind, "reproduced": reproduced,
                     "default": ", ".join(found["default"]), "all": ", ".join(found["all"]),
                     "elsewhere": ", ".join(elsewhere(report, results["all"]))})
        print(f"{report.id:28} {mode:24} {report.kind:9} reproduced={reproduced:8} "
              f"default={','.join(found['default']) or '-':14} all={','.join(found['all']) or '-':22} "
              f"other lines={','.join(elsewhere(report, results['all'])) or '-'}")
    print(f"entries {totals['entries']}, reproduced {totals['reproduced']}, found by default rules "
          f"{totals['default']}, found with all rules {totals['all']} ({totals['all_on_topic']} with "
          f"PRM010/PRM024 counted only for their own mode difference); reported since {since}: "
          f"{totals['recent']}, found by default {totals['recent_default']}, with all rules {totals['recent_all']}")
    for report_id, actual in changed:
        print(f"changed outcome {report_id}: {actual}", file=sys.stderr)
    crashes = {**results["default"].crashes, **results["all"].crashes}
    for report_id, what in crashes.items():
        print(f"promolint crashed on {report_id}: {what}", file=sys.stderr)
    if not args.only and not args.no_markdown:
        MARKDOWN.write_text(markdown(meta, rows, totals, args.verify, since))
    return 1 if changed or crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())

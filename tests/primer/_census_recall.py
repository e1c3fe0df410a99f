"""Static recall of the census: which census lines a `promolint check` finding names.

A finding names a census line when it is in the same file and its span (line to end_line)
holds the line, in the mode the line was seen in: the x64 run's lines against ``check --x64 on``,
the strict run's against ``check --promotion strict --x64 off``.  Two rule sets: the default
one (no ``--select``) and all rules (``ALL_RULES_EXCLUDED`` aside).  A line no rule names gets
what `promolint reveal` knows there (``known_at``): where the engine, not a rule, must change.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from _ledger import VERDICTS, precision, read_ledger
from _lint import ModeRun, json_check

CHECK_FLAGS = {"x64": ["--x64", "on"], "strict": ["--promotion", "strict", "--x64", "off"]}
RULE_SETS = ("default", "all")
# Left out of "all rules": they report no promotion, only where code differs between
# configurations (PRM010: x64 off and on, PRM024: NumPy 1 and 2) or unused noqa comments.
ALL_RULES_EXCLUDED = ("PRM010", "PRM024", "PRM100")
PROMOLINT = (sys.executable, "-m", "promolint")


@functools.cache
def rule_codes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(default codes, opt-in codes) as `promolint rules` lists them."""
    listed = subprocess.run([*PROMOLINT, "rules"], capture_output=True, text=True, check=True).stdout
    default, opt_in = [], []
    for line in listed.splitlines():
        code, _, kind = (line.split(None, 3) + ["", "", ""])[:3]
        (default if kind.startswith("default") else opt_in).append(code)
    return tuple(default), tuple(opt_in)


def selection(rules: str) -> list[str]:
    if rules == "default":
        return []
    default, opt_in = rule_codes()
    return ["--select", ",".join(c for c in (*default, *opt_in) if c not in ALL_RULES_EXCLUDED)]


def check(root: Path, packages: Iterable[str], mode: str, rules: str, timeout: float) -> ModeRun:
    return json_check(["nice", "-n", "10", *PROMOLINT, "check", "--jobs", "1", *selection(rules), *CHECK_FLAGS[mode],
                       *packages], root, timeout)  # fmt: skip


def naming(path: str, line: int, findings: Iterable[dict]) -> list[str]:
    """The codes of the findings that name (path, line), sorted."""
    return sorted({f["code"] for f in findings
                   if f["path"] == path and f["line"] <= line <= f.get("end_line", f["line"])})  # fmt: skip


def nearby(path: str, line: int, findings: Iterable[dict], distance: int = 5) -> list[str]:
    """Findings a few lines from a missed line (a reader's hint, never counted as naming it)."""
    return sorted(f"{f['code']}@{f['line']}" for f in findings
                  if f["path"] == path and abs(f["line"] - line) <= distance)  # fmt: skip


def ledger_precision() -> dict[str, dict]:
    """The triage ledger's verdicts over default rules' findings and over all of them."""
    default, _ = rule_codes()
    counts: dict[str, Counter] = {"default": Counter(), "all": Counter()}
    for key, verdict in read_ledger().items():
        counts["all"][verdict.verdict] += 1
        if key.rule in default:
            counts["default"][verdict.verdict] += 1
    return {rules: {**{v: c.get(v, 0) for v in VERDICTS}, "precision": precision(c)} for rules, c in counts.items()}


# What `reveal` knows at a census line no rule names, worst first: a value it knows nothing of
# (an attribute, a call it cannot follow), values that depend on parameters or fields whose
# dtype the code does not say, or every value known (the rules miss a known promotion).
UNKNOWN_OPERAND, DEPENDS, KNOWN, NO_RECORD = "an operand of unknown dtype", "depends on inputs", "known", "no record"
NOT_REVEALED = "not revealed"  # reveal failed or timed out on the line's file
KNOWLEDGE = (UNKNOWN_OPERAND, DEPENDS, KNOWN, NO_RECORD, NOT_REVEALED)


def knowledge(records: Iterable[dict]) -> tuple[str, str]:
    """What reveal's records of one line (of one mode) know, and the text of the value that
    decides it (the first unknown operand, or the first input a value depends on)."""
    values = [r for r in records if not r["target"] and not (r["library"] == "python" and r["dtype"])]
    unknown = [r for r in values if r["dtype"] is None and not r.get("depends") and not r.get("error")]
    if unknown:
        return UNKNOWN_OPERAND, unknown[0]["text"]
    depending = [d for r in values for d in r.get("depends") or ()]
    if depending:
        return DEPENDS, depending[0]
    return (KNOWN, "") if values else (NO_RECORD, "")


def known_at(root: Path, lines: list[dict], mode: str, timeout: float) -> None:
    """Each of ``lines`` (census lines of ``mode`` no rule names) with what `promolint reveal`
    of its file, in that mode, knows there (``knowledge``): "known" and "why"."""
    files = sorted({line["path"] for line in lines})
    if not files:
        return
    try:
        done = subprocess.run([*PROMOLINT, "reveal", "--format", "json", *CHECK_FLAGS[mode], *files], cwd=root,
                              capture_output=True, text=True, timeout=timeout, check=False)  # fmt: skip
        records = json.loads(done.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return  # the lines keep no "known": NOT_REVEALED
    by_line: dict[tuple[str, int], list[dict]] = {}
    for record in records:
        by_line.setdefault((record["path"], record["line"]), []).append(record)
    for line in lines:
        line["known"], line["why"] = knowledge(by_line.get((line["path"], line["line"]), []))

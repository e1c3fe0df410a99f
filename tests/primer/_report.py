"""The primer's markdown: the summary of one run, and what changed against a base revision."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping

from _keys import Key
from _ledger import UNTRIAGED, VERDICTS, Verdict, precision


def _percent(known: int, sites: int) -> str:
    return f"{100 * known / sites:.1f}% ({known:,}/{sites:,})" if sites else "n/a"


def _known(coverage: dict | None) -> str:
    return _percent(coverage["known"], coverage["sites"]) if coverage else "—"


def _concrete_text(coverage: dict | None) -> str:
    """A run of a primer older than the concrete count has none."""
    return _percent(coverage["concrete"], coverage["sites"]) if coverage and "concrete" in coverage else "—"


def _concrete(covered: list[dict]) -> int | None:
    return sum(c["concrete"] for c in covered) if all("concrete" in c for c in covered) else None


def _mode_cell(project: dict, mode: str, what: str) -> str:
    run = project["modes"].get(mode)
    if run is None:
        return "—"
    if run["crash"]:
        return "crash"
    return f"{run['wall_s']:.1f}" if what == "time" else str(len(run["findings"]))


def summary(result: dict, ledger: Mapping[Key, Verdict], produced_keys: Mapping[Key, tuple[str, ...]]) -> str:
    """``produced_keys``: the ledger-scoped keys of this run (``_ledger.ledgered``), with their modes."""
    modes = result["modes"]
    projects = result["projects"]
    ok = [p for p in projects if not p["error"]]
    lines = [f"# Primer summary: {result['revision']}", ""]
    lines.append(f"{len(ok)} of {len(projects)} projects linted, {sum(p['files'] for p in ok):,} files, "
                 f"{sum(p['lines'] for p in ok):,} lines; modes {', '.join(modes)}; {result['jobs']} jobs; "
                 f"{result['wall_s']:.0f} s in all.")  # fmt: skip
    covered = [p["coverage"] for p in ok if p.get("coverage")]
    known, sites = sum(c["known"] for c in covered), sum(c["sites"] for c in covered)
    concrete = _concrete(covered)
    if sites:
        of_one = _percent(concrete, sites) if concrete is not None else "n/a"
        lines.append(f"Static coverage (default mode): {_percent(known, sites)} of NumPy/JAX value sites are known, "
                     f"{of_one} of one concrete dtype (not candidates, not the dtype of a parameter), "
                     f"{_percent(sites - known, sites)} unknown.")  # fmt: skip
    lines += ["", "## Projects", "", "| project | files | lines | known | concrete | "
              + " | ".join(f"{m} s" for m in modes) + " | " + " | ".join(f"{m} findings" for m in modes) + " |",
              "|---|" + "---:|" * (4 + 2 * len(modes))]  # fmt: skip
    for p in projects:
        name = f"{p['name']} {p['version']}"
        if p["error"]:
            lines.append(f"| {name} | failed: {p['error']} |" + " |" * (3 + 2 * len(modes)))
            continue
        cov = p.get("coverage")
        lines.append(f"| {name} | {p['files']:,} | {p['lines']:,} | {_known(cov)} | {_concrete_text(cov)} | "
                     + " | ".join(_mode_cell(p, m, "time") for m in modes) + " | "
                     + " | ".join(_mode_cell(p, m, "count") for m in modes) + " |")  # fmt: skip
    totals_time = [sum(p["modes"][m]["wall_s"] for p in ok if m in p["modes"]) for m in modes]
    totals_count = [sum(len(p["modes"][m]["findings"]) for p in ok if m in p["modes"]) for m in modes]
    lines.append(f"| **total** | {sum(p['files'] for p in ok):,} | {sum(p['lines'] for p in ok):,} | "
                 f"{_percent(known, sites)} | {_percent(concrete, sites) if concrete is not None else '—'} | "
                 + " | ".join(f"{t:.1f}" for t in totals_time) + " | "
                 + " | ".join(str(c) for c in totals_count) + " |")  # fmt: skip

    by_rule: dict[str, Counter] = defaultdict(Counter)
    for p in ok:
        for mode, run in p["modes"].items():
            for f in run["findings"]:
                by_rule[f["code"]][mode] += 1
    lines += ["", "## Findings per rule", "", "| rule | " + " | ".join(modes) + " |", "|---|" + "---:|" * len(modes)]
    lines += [f"| {rule} | " + " | ".join(str(by_rule[rule][m]) for m in modes) + " |" for rule in sorted(by_rule)]

    lines += ["", "## Crashes and internal errors", ""]
    problems = [f"- {p['name']}: could not be fetched: {p['error']}" for p in projects if p["error"]]
    for p in ok:
        for mode, run in p["modes"].items():
            if run["crash"]:
                problems.append(f"- {p['name']} ({mode}): crash: {run['crash']}")
            problems += [f"- {p['name']} ({mode}): {e}" for e in run["internal_errors"]]
            problems += [f"- {p['name']} ({mode}): unparsable: {e}" for e in run["unparsable"]]
        problems += [f"- {p['name']}: reveal failed on {f}" for f in (p.get("coverage") or {}).get("failures", [])]
    lines += problems or ["None."]
    lines += triage(ledger, produced_keys, {p["name"] for p in ok})
    return "\n".join(lines) + "\n"


def triage(ledger: Mapping[Key, Verdict], produced_keys: Mapping[Key, tuple[str, ...]], projects: set[str]) -> list[str]:
    """Precision per rule over this run's keys, the untriaged ones, and the ledger entries of the
    ``projects`` run that it did not produce."""
    counts: dict[str, Counter] = defaultdict(Counter)
    untriaged = []
    for key in sorted(produced_keys):
        verdict = ledger.get(key)
        counts[key.rule][verdict.verdict if verdict else UNTRIAGED] += 1
        if verdict is None or verdict.verdict == UNTRIAGED:
            untriaged.append(key)
    lines = ["", "## Triage (tests/primer/ledger.toml: default and x64 findings, PRM028's strict ones)", "",
             "| rule | findings | bug | noise | wrong | untriaged | precision |", "|---|---:|---:|---:|---:|---:|---:|"]
    total: Counter = Counter()
    for rule in sorted(counts):
        total.update(counts[rule])
        lines.append(_triage_row(rule, counts[rule]))
    lines.append(_triage_row("**all**", total))
    lines += ["", "precision = bug / (bug + noise + wrong), over the findings judged."]
    for verdict, title in (("bug", "Judged bug"), ("wrong", "Judged wrong")):
        judged = [k for k in sorted(produced_keys) if k in ledger and ledger[k].verdict == verdict]
        if judged:
            lines += ["", f"### {title} ({len(judged)})", ""]
            lines += [f"- {k.label()} [{', '.join(produced_keys[k])}]: {ledger[k].reason}" for k in judged]
    if untriaged:
        lines += ["", f"### Untriaged ({len(untriaged)})", ""]
        lines += [f"- {k.label()} [{', '.join(produced_keys[k])}]" for k in untriaged]
    stale = sorted(k for k in ledger if k.project in projects and k not in produced_keys)
    if stale:
        lines += ["", f"### Ledger entries this run did not produce ({len(stale)})", ""]
        lines += [f"- {k.label()}: {ledger[k].verdict}" for k in stale]
    return lines


def _triage_row(rule: str, counts: Counter) -> str:
    value = precision(counts)
    shown = f"{100 * value:.0f}%" if value is not None else "n/a"
    return (f"| {rule} | {sum(counts.values())} | " + " | ".join(str(counts[v]) for v in VERDICTS)
            + f" | {counts[UNTRIAGED]} | {shown} |")  # fmt: skip


def diff(head: dict, base: dict, head_keys: dict, base_keys: dict) -> str:
    """What changed from ``base`` to ``head``: findings added and removed per project and rule
    (``*_keys``: (project, mode) -> {Key: finding}), coverage before and after."""
    lines = [f"# Primer diff: {base['revision']} → {head['revision']}", ""]
    base_projects = {p["name"]: p for p in base["projects"]}
    rows = ["| project | rule | mode | added | removed |", "|---|---|---|---:|---:|"]
    details = []
    for p in head["projects"]:
        b = base_projects.get(p["name"])
        if b is None or p["error"] or b["error"]:
            continue
        for mode in head["modes"]:
            now, before = head_keys.get((p["name"], mode), {}), base_keys.get((p["name"], mode), {})
            added, removed = sorted(set(now) - set(before)), sorted(set(before) - set(now))
            for rule in sorted({k.rule for k in added + removed}):
                plus, minus = [k for k in added if k.rule == rule], [k for k in removed if k.rule == rule]
                rows.append(f"| {p['name']} | {rule} | {mode} | {len(plus)} | {len(minus)} |")
                details += [f"- + {k.label()} [{mode}]: {now[k]['message']}" for k in plus]
                details += [f"- − {k.label()} [{mode}]: {before[k]['message']}" for k in minus]
    lines += rows if len(rows) > 2 else ["No finding added or removed."]
    if details:
        lines += ["", "### Findings", "", *details]
    header = "| project | known, base | known, head | concrete, base | concrete, head |"
    lines += ["", "## Coverage (default mode)", "", header, "|---|---:|---:|---:|---:|"]
    for p in head["projects"]:
        b = base_projects.get(p["name"])
        if b is None or not p.get("coverage") or not b.get("coverage"):
            continue
        lines.append(f"| {p['name']} | {_known(b['coverage'])} | {_known(p['coverage'])} | "
                     f"{_concrete_text(b['coverage'])} | {_concrete_text(p['coverage'])} |")  # fmt: skip
    return "\n".join(lines) + "\n"

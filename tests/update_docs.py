"""The generated parts of README.md and docs/*.md, each made from the one place its facts live.

    python tests/update_docs.py           # rewrite every generated part (docs/rules.md included)
    python tests/update_docs.py --check   # exit 1, naming each part that is stale

Two kinds of part:

- a ```` ```console ```` block: each line ``$ promolint ...`` is a command and the lines after it,
  up to the next ``$``, are what it prints on stdout, run in-process from a scratch copy of
  ``fixtures/`` (so no cache of the checkout is read or written);
- the lines between ``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->``: what
  ``FIGURES[NAME]`` makes of the primer's ledger (tests/primer/ledger.toml), the keys the last
  primer run produced (tests/primer/produced.toml), the pinned projects, the held-out projects'
  ledger (tests/primer/held_out_ledger.toml), or the bench's last run
  (tests/benchmarks/last_run.json, written by ``tests/benchmarks/bench.py``).

tests/test_docs.py fails while any part differs from what this makes now.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "primer"), str(ROOT / "tests" / "benchmarks")]
from _census_recall import DEPENDS, UNKNOWN_OPERAND  # noqa: E402
from _corpus import WHEELS  # noqa: E402
from _ledger import (HELD_OUT_LEDGER, HELD_OUT_PRODUCED, LEDGER, LEDGER_MODES, PRODUCED, UNTRIAGED,  # noqa: E402
                     VERDICTS, precision, read_ledger, read_produced)
from _projects import HELD_OUT, load_projects  # noqa: E402

from promolint.report import rule_docs as rules_docs  # noqa: E402
from promolint.cli.main import main as promolint_main  # noqa: E402
from promolint.rules.registry import BY_CODE  # noqa: E402

DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
LAST_BENCH_RUN = ROOT / "tests" / "benchmarks" / "last_run.json"
CENSUS = ROOT / "tests" / "primer" / "census.md"  # written by tests/primer/census.py
REPORTS = ROOT / "tests" / "primer" / "reports.md"  # written by tests/primer/reports.py
PROMPT = "$ "
_CONSOLE = re.compile(r"^```console\n(.*?)^```$", re.DOTALL | re.MULTILINE)
WIDTH = 100  # the docs' line length for prose
_GENERATED = re.compile(r"^<!-- generated: ([\w-]+) -->\n(.*?)^<!-- end generated: \1 -->$", re.DOTALL | re.MULTILINE)


class DocsError(Exception):
    """A generated part that cannot be made: a console line that is no promolint command or one
    that promolint refuses, an unknown figure's name."""


@contextlib.contextmanager
def _inside(directory: str) -> Iterator[None]:
    """The working directory ``directory`` for the block (contextlib.chdir is Python 3.11's)."""
    before = os.getcwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(before)


def command_output(command: str) -> str:
    """What ``promolint ARGS`` prints on stdout, run from a scratch copy of fixtures/."""
    argv = shlex.split(command)
    if argv[:1] != ["promolint"]:
        raise DocsError(f"`{command}`: a console block runs promolint commands only")
    with tempfile.TemporaryDirectory(prefix="promolint-docs-") as scratch:
        shutil.copytree(ROOT / "fixtures", Path(scratch) / "fixtures")
        out, err = io.StringIO(), io.StringIO()
        with _inside(scratch), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = promolint_main(argv[1:])
            except SystemExit as refused:  # argparse refuses a flag by exiting
                status = refused.code
    if status not in (0, 1, None):  # 1: findings; 2: a bad flag, file or configuration
        raise DocsError(f"`{command}` exits {status}: {err.getvalue().strip()}")
    return out.getvalue()


def console_block(block: str) -> str:
    """``block`` with the output of each of its commands made again."""
    commands = [line[len(PROMPT):] for line in block.splitlines() if line.startswith(PROMPT)]
    if not commands:
        raise DocsError(f"a console block has no `{PROMPT}promolint ...` line:\n{block}")
    return "".join(f"{PROMPT}{command}\n{command_output(command)}" for command in commands)


def _prose(text: str) -> str:
    return textwrap.fill(text, WIDTH, break_long_words=False, break_on_hyphens=False) + "\n"


def _verdicts_per_rule(ledger: Path = LEDGER) -> dict[str, Counter]:
    counts: dict[str, Counter] = defaultdict(Counter)
    for key, verdict in read_ledger(ledger).items():
        counts[key.rule][verdict.verdict] += 1
    return counts


def _judged(counts: Counter) -> int:
    return sum(counts[verdict] for verdict in VERDICTS)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def primer_precision() -> str:
    """One sentence per rule group: how many of each measured rule's judged primer findings are bugs."""
    return _precision_said(f"the judged primer findings ({len(load_projects())} pinned projects, "
                           "tests/primer/ledger.toml)", _verdicts_per_rule())  # fmt: skip


def held_out_precision() -> str:
    """The same of the held-out projects' findings (tests/primer/held_out_ledger.toml)."""
    return _precision_said(f"the findings on {len(load_projects(HELD_OUT))} projects kept out of development "
                           "(tests/primer/held_out_ledger.toml)", _verdicts_per_rule(HELD_OUT_LEDGER))  # fmt: skip


def _precision_said(where: str, counts: dict[str, Counter]) -> str:
    opt_in = [rule for rule in sorted(counts) if BY_CODE[rule].opt_in]
    default = [rule for rule in sorted(counts) if not BY_CODE[rule].opt_in]

    def said(rule: str) -> str:
        return f"{rule} {counts[rule]['bug']} of {_judged(counts[rule])} ({_percent(precision(counts[rule]))})"

    return _prose(f"Bugs among {where}: on by default, {', '.join(map(said, default))}; "
                  f"opt-in, {', '.join(map(said, opt_in))}.")


def primer_triage(ledger: Path = LEDGER, produced_keys: Path = PRODUCED) -> str:
    """The ledger's verdicts per rule, with the findings per mode of the last primer run."""
    counts = _verdicts_per_rule(ledger)
    per_mode: dict[str, Counter] = defaultdict(Counter)
    for key, produced in read_produced(produced_keys).items():
        per_mode[key.rule].update(produced.modes)
    rows = [("| rule | on by default | default findings | x64 findings | strict findings | bug | noise | wrong | "
             "untriaged | precision |"), "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    total: Counter = Counter()
    for rule in sorted(set(counts) | set(per_mode)):
        total.update(counts[rule])
        rows.append(f"| {rule} | {'no' if BY_CODE[rule].opt_in else 'yes'} | "
                    + " | ".join(str(per_mode[rule][m]) for m in LEDGER_MODES) + " | "
                    + " | ".join(str(counts[rule][v]) for v in (*VERDICTS, UNTRIAGED))
                    + f" | {_percent(precision(counts[rule]))} |")  # fmt: skip
    rows.append("| **all** | | " + " | ".join(str(sum(c[m] for c in per_mode.values())) for m in LEDGER_MODES) + " | "
                + " | ".join(str(total[v]) for v in (*VERDICTS, UNTRIAGED)) + f" | {_percent(precision(total))} |")
    return "\n".join(rows) + "\n"  # fmt: skip


def held_out_triage() -> str:
    """The held-out projects, and the verdicts per rule on their findings (tests/primer/held_out_ledger.toml)."""
    projects = ", ".join(f"{p.name} {p.version}" for p in load_projects(HELD_OUT))
    return (_prose(f"Projects kept out of development ({projects}):")
            + "\n" + primer_triage(HELD_OUT_LEDGER, HELD_OUT_PRODUCED))  # fmt: skip


def bench_speed() -> str:
    """Today's speed: the figures of the bench's last run, with its revision and date."""
    run = json.loads(LAST_BENCH_RUN.read_text(encoding="utf-8"))
    first, others = list(WHEELS)[:4], len(WHEELS) - 4
    return _prose(
        f"`promolint check` lints the {run['corpus_lines'] / 1000:.0f}k lines of the bench corpus "
        f"({', '.join(first)} and {others} more JAX libraries, pinned) in {run['cold_all_cores_s']:.1f} s on "
        f"{run['cores']} cores, {run['cold_all_cores_s'] / run['flake8_s']:.2f}x flake8's {run['flake8_s']:.1f} s "
        f"in the same run, and in {run['cold_one_worker_s']:.1f} s with one worker "
        f"({run['cold_one_worker_s'] / run['libcst_parse_s']:.2f}x libcst's parse of the same files alone). "
        f"A run with nothing changed answers from the cache in {run['warm_s']:.2f} s; one file for pre-commit "
        f"takes {run['precommit_s']:.2f} s, interpreter start included. Peak memory: "
        f"{run['peak_mib_one_worker']:.0f} MiB for one worker. (`python tests/benchmarks/bench.py` at "
        f"{run['revision']}, {run['date']}.)")


def census_recall() -> str:
    """The census's figures: the tables ``tests/primer/census.py`` last wrote into census.md (its
    heading and method are said in the docs; its list of the lines no rule names stays there)."""
    text = CENSUS.read_text(encoding="utf-8")
    return text[text.index("| project |"):text.index("Lines no rule names")].rstrip("\n") + "\n"


def census_summary() -> str:
    """The census's recall in a sentence, from the totals row census.py last wrote."""
    text = CENSUS.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| **all "))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    projects = cells[0].strip("* ").removeprefix("all ")
    lines, raising = cells[2].split(" (")[0], cells[6].split("/")[1].split(" ")[0]
    # "7/219 (3%)" as "7 (3%)": the totals are said once
    default, every, errors_default, errors_every = (re.sub(r"/\d+", "", cell) for cell in cells[3:7])
    return _prose(
        f"Recall, measured by running the code (the census, docs/primer.md): {projects} primer projects' "
        f"entry points, called with float32 inputs under x64 and under strict promotion, raise or widen "
        f"to float64 at {lines} lines; the default rules name {default} of them, every rule {every} "
        f"(of the {raising} lines that raise: {errors_default} and {errors_every}). Of the lines no rule names, "
        f"{_missed(text)}.")


def _missed(census: str) -> str:
    """What reveal knows at the census lines no rule names, from census.md's table of them."""
    table = census[census.index("| mode | line |"):].split("\n\n")[0].splitlines()
    columns = [c.strip() for c in table[0].strip("|").split("|")][2:]
    totals = [0] * len(columns)
    for row in table[2:]:
        for i, cell in enumerate(row.strip("|").split("|")[2:]):
            totals[i] += int(cell)
    by = dict(zip(columns, totals))
    return (f"{by[DEPENDS]} depend on parameters or fields whose dtype the code does not say, and "
            f"{by[UNKNOWN_OPERAND]} have an operand whose dtype promolint does not know")


def reports_summary() -> str:
    """The public reports corpus's figures, from the line tests/primer/reports.py last wrote."""
    text = REPORTS.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("Entries: "))
    found = re.match(r"Entries: (\d+); reproduced: (\d+).*?; found by default rules: (\d+); found with all rules: "
                     r"(\d+).*three years\): (\d+), found by default rules: (\d+), with all rules: (\d+)", line)
    entries, reproduced, default, every, recent, recent_default, recent_every = found.groups()
    return _prose(
        f"Public reports (tests/primer/reports.md): {entries} promotion surprises users reported in JAX's, "
        f"NumPy's and their projects' issue trackers, each minimized to a snippet that still reproduces "
        f"({reproduced} do); the default rules report {default} on the problem's line, every rule {every}. Of "
        f"the {recent} reported in the last three years: {recent_default} and {recent_every}.")


FIGURES: dict[str, Callable[[], str]] = {
    "primer-precision": primer_precision,
    "primer-triage": primer_triage,
    "held-out-triage": held_out_triage,
    "held-out-precision": held_out_precision,
    "bench-speed": bench_speed,
    "census-recall": census_recall,
    "census-summary": census_summary,
    "reports-summary": reports_summary,
}


def generated(text: str) -> str:
    """``text`` with every console block and marked part made again."""

    def figures(match: re.Match) -> str:
        name = match[1]
        if name not in FIGURES:
            raise DocsError(f"unknown generated part {name!r}; known: {', '.join(FIGURES)}")
        return f"<!-- generated: {name} -->\n{FIGURES[name]()}<!-- end generated: {name} -->"

    text = _CONSOLE.sub(lambda match: f"```console\n{console_block(match[1])}```", text)
    return _GENERATED.sub(figures, text)


def stale_documents() -> list[tuple[Path, str]]:
    """The documents whose generated parts differ from what they would be now, with that text."""
    out = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        wanted = rules_docs.rules_markdown() if path == rules_docs.RULES_MD else generated(text)
        if wanted != text:
            out.append((path, wanted))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="name the stale documents; rewrite nothing")
    args = parser.parse_args(argv)
    try:
        stale = stale_documents()
    except DocsError as error:
        print(f"update_docs: {error}", file=sys.stderr)
        return 2
    for path, text in stale:
        if not args.check:
            path.write_text(text, encoding="utf-8")
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(ROOT)}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())

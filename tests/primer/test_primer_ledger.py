"""The primer's bookkeeping, without downloads: the pinned projects, the triage ledger and the keys
the last primer run produced (tests/primer/produced.toml, rewritten by tests/primer/run.py).

Every produced key must have a verdict entry and every entry must still be produced: a rule change
that adds or removes findings on the pinned projects fails here until the primer has been rerun
and `run.py --ledger-update` has recorded the change (docs/primer.md).
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

import pytest

PRIMER = Path(__file__).resolve().parent
sys.path.insert(0, str(PRIMER))
sys.path.insert(0, str(PRIMER.parent / "benchmarks"))
from _corpus import WHEELS  # noqa: E402
from _keys import Key, keyed  # noqa: E402
from _ledger import (HELD_OUT_LEDGER, HELD_OUT_PRODUCED, LEDGER, UNTRIAGED, VERDICTS, LedgerError, Produced,  # noqa: E402
                     Verdict, ledgered, precision, read_ledger, read_produced, update, write_ledger, write_produced)
from _lint import SELECTED  # noqa: E402
from _projects import HELD_OUT, load_projects  # noqa: E402

from promolint.rules.registry import BY_CODE, MEASURED_OPT_IN  # noqa: E402


def test_projects_are_pinned_and_beyond_the_speed_corpus() -> None:
    projects = load_projects()
    assert len(projects) >= 15
    _assert_pinned(projects)


def test_held_out_projects_are_pinned_and_none_is_a_primer_project() -> None:
    held_out = load_projects(HELD_OUT)
    assert len(held_out) >= 5
    _assert_pinned(held_out)
    assert not {p.name for p in held_out} & {p.name for p in load_projects()}


def _assert_pinned(projects) -> None:
    names = [p.name for p in projects]
    assert len(set(names)) == len(names)
    assert not set(names) & set(WHEELS), "the primer's projects are not the speed benchmark's"
    for p in projects:
        assert re.fullmatch(r"[0-9a-f]{64}", p.sha256), p.name
        assert p.version in p.file and p.file.endswith((".whl", ".tar.gz")), p.name
        assert p.packages and all(not Path(d).is_absolute() and ".." not in Path(d).parts for d in p.packages)


def test_ledger_has_a_valid_verdict_and_reason_for_each_entry() -> None:
    ledger = read_ledger()
    assert ledger
    for key, verdict in ledger.items():
        assert verdict.verdict in (*VERDICTS, UNTRIAGED), key.label()
        assert key.rule in BY_CODE, key.label()


def test_every_produced_finding_has_a_ledger_entry_and_no_entry_is_stale() -> None:
    ledger, produced = read_ledger(), read_produced()
    projects = {p.name for p in load_projects()}
    assert {k.project for k in produced} <= projects
    missing = sorted(set(produced) - set(ledger))
    stale = sorted(set(ledger) - set(produced))
    assert not missing, "run `python tests/primer/run.py --ledger-update` and triage:\n" + "\n".join(
        k.label() for k in missing)  # fmt: skip
    assert not stale, "findings no longer produced; `run.py --ledger-update --prune` drops them:\n" + "\n".join(
        k.label() for k in stale)  # fmt: skip


def test_update_adds_new_keys_untriaged_and_reports_stale_ones(tmp_path: Path) -> None:
    kept, gone, new = (Key("p", "p/a.py", "PRM001", "x + 1.0"), Key("p", "p/a.py", "PRM007", "jnp.float64(1)"),
                       Key("p", "p/b.py", "PRM001", "x + 1.0", 2))  # fmt: skip
    ledger = {kept: Verdict("noise", "weak"), gone: Verdict("bug", "truncates")}
    entries, added, stale = update(ledger, [kept, new], prune=False)
    assert added == [new] and stale == [gone]
    assert entries[new] == Verdict(UNTRIAGED, "") and entries[gone] == ledger[gone]
    pruned, _, _ = update(ledger, [kept, new], prune=True)
    assert set(pruned) == {kept, new}
    # What the tools write, they read back, quotes and non-ASCII text included.
    odd = Key("p", "p/c.py", "PRM001", 'x["a\\"b"] + 1.0 # é')
    path = tmp_path / "ledger.toml"
    write_ledger({**pruned, odd: Verdict("wrong", 'says "x64 off"')}, path)
    assert read_ledger(path) == {**pruned, odd: Verdict("wrong", 'says "x64 off"')}
    write_produced({new: Produced(("default", "x64"), 3, "m")}, tmp_path / "produced.toml")
    assert read_produced(tmp_path / "produced.toml") == {new: Produced(("default", "x64"), 3, "m")}


def test_the_ledger_covers_strict_findings_only_of_the_contract_rule(tmp_path: Path) -> None:
    """PRM028's strict findings hold for the arrays its contract assumes, and are judged; PRM004's
    hold for every member, and are not ledgered."""
    assert ledgered("strict", "PRM028") and ledgered("x64", "PRM004") and not ledgered("strict", "PRM004")
    contract, strict = Key("p", "p/a.py", "PRM028", "x + (x < 0)"), Key("p", "p/a.py", "PRM004", "x + y")
    write_produced({contract: Produced(("strict",), 3, "m")}, tmp_path / "produced.toml")
    assert read_produced(tmp_path / "produced.toml") == {contract: Produced(("strict",), 3, "m")}
    write_produced({strict: Produced(("strict",), 3, "m")}, tmp_path / "produced.toml")
    with pytest.raises(LedgerError, match="not some the ledger covers"):
        read_produced(tmp_path / "produced.toml")


@pytest.mark.parametrize("entry, problem", [
    ('verdict = "maybe"\nreason = "r"', "verdict 'maybe'"),
    ('verdict = "bug"\nreason = ""', "one-line reason"),
    ('verdict = "bug"', "one-line reason"),
])  # fmt: skip
def test_a_bad_ledger_entry_is_named(tmp_path: Path, entry: str, problem: str) -> None:
    path = tmp_path / "ledger.toml"
    path.write_text(f'[[finding]]\nproject = "p"\nfile = "p/a.py"\nrule = "PRM001"\nexpr = "x"\n{entry}\n')
    with pytest.raises(LedgerError, match=re.escape(problem)):
        read_ledger(path)


def _finding(line: int, column: int, end_line: int, end_column: int, code: str = "PRM001") -> dict:
    return {"path": "m.py", "line": line, "column": column, "end_line": end_line, "end_column": end_column,
            "code": code, "message": "m"}  # fmt: skip


def test_keys_ignore_formatting_and_number_repeated_expressions_by_their_place_in_the_file() -> None:
    source = textwrap.dedent("""\
        a = jnp.arange(n) - 0.5
        b = (jnp.arange(n)
             -   0.5)  # the same expression again
        c = jnp.arange(n) - 0.5
    """)
    first, second, third = _finding(1, 5, 1, 24), _finding(2, 6, 3, 13), _finding(4, 5, 4, 24)
    keys = [k for k, _ in keyed("p", {"m.py": source}, [first, second, third])]
    assert [k.expr for k in keys] == ["jnp.arange(n) - 0.5"] * 3
    assert [k.occurrence for k in keys] == [1, 2, 3]
    # Which other findings fire does not renumber a key: the third stays the third.
    assert [k for k, _ in keyed("p", {"m.py": source}, [third])] == [keys[2]]
    # Lines moving (code added above) leave keys alone.
    moved = "import jax.numpy as jnp\n\n" + source
    assert [k for k, _ in keyed("p", {"m.py": moved}, [_finding(6, 5, 6, 24)])] == [keys[2]]


def _verdicts_per_rule(ledger_path: Path = LEDGER) -> dict[str, Counter]:
    """How many of each rule's ledger findings got each verdict."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for key, verdict in read_ledger(ledger_path).items():
        counts[key.rule][verdict.verdict] += 1
    return counts


@pytest.mark.parametrize("ledger_path", [LEDGER, HELD_OUT_LEDGER], ids=["primer", "held-out"])
def test_every_default_rule_is_precise_on_the_primer_and_the_held_out_projects(ledger_path: Path) -> None:
    """A rule is on by default only if at least 90% of its judged findings are bugs, on the primer
    and on the projects kept out of development; the others are opt-in, and the primer still
    measures them (_lint.SELECTED)."""
    counts = _verdicts_per_rule(ledger_path)
    for rule, counted in counts.items():
        value = precision(counted)
        if value is not None and not BY_CODE[rule].opt_in:
            assert value >= 0.9, f"{rule} is on by default at {value:.0%} precision: make it opt-in"
    assert set(MEASURED_OPT_IN) <= set(SELECTED) and all(BY_CODE[code].opt_in for code in MEASURED_OPT_IN)


def test_every_held_out_finding_is_judged_and_no_entry_is_stale() -> None:
    """The held-out projects' findings (`run.py --held-out`) are all judged, by running their code
    where it runs: a finding there is what a new user meets first."""
    ledger, produced = read_ledger(HELD_OUT_LEDGER), read_produced(HELD_OUT_PRODUCED)
    assert produced and {k.project for k in produced} <= {p.name for p in load_projects(HELD_OUT)}
    assert sorted(set(produced) ^ set(ledger)) == [], "run `run.py --held-out --ledger-update --prune` and judge"
    assert all(verdict.verdict in VERDICTS for verdict in ledger.values()), "every held-out finding is judged"


"""The triage ledger (ledger.toml) and the keys the primer produced (produced.toml).

ledger.toml holds a verdict for every finding of the default and x64 modes, and of the strict
mode for the rules whose strict findings rest on an assumption (``STRICT_LEDGERED``), keyed as in
``_keys.Key``; produced.toml is what the last primer run found, written by it.  Both are
written by the tools here (sorted, one ``[[finding]]`` table each); reasons live in ``reason``,
comments are not kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from _keys import Key

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
LEDGER = HERE / "ledger.toml"
PRODUCED = HERE / "produced.toml"
# The same for the held-out projects (_projects.HELD_OUT).
HELD_OUT_LEDGER = HERE / "held_out_ledger.toml"
HELD_OUT_PRODUCED = HERE / "held_out_produced.toml"
VERDICTS = ("bug", "noise", "wrong")  # what triage decides
UNTRIAGED = "untriaged"  # what --ledger-update writes for a key nobody has judged yet
LEDGER_MODES = ("default", "x64", "strict")  # the modes whose findings the ledger covers (``ledgered``)
# Rules whose strict-mode findings the ledger covers: they hold for the arrays an input contract
# assumes, not for every value the code may see (PRM004's hold for every member: the engine's
# exact claims, which the oracle checks), so whether they matter is measured.
STRICT_LEDGERED = frozenset({"PRM028"})
_KEY_FIELDS = ("project", "file", "rule", "expr")


class LedgerError(Exception):
    """A ledger or produced file that does not have the expected form."""


@dataclass(frozen=True)
class Verdict:
    verdict: str
    reason: str


@dataclass(frozen=True)
class Produced:
    modes: tuple[str, ...]
    line: int  # where the finding was, for the reader (the projects are pinned)
    message: str


def ledgered(mode: str, rule: str) -> bool:
    """Whether the ledger covers a finding of ``rule`` in ``mode``."""
    return mode in ("default", "x64") or mode == "strict" and rule in STRICT_LEDGERED


def _quote(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _key_lines(key: Key) -> list[str]:
    lines = [f"{name} = {_quote(getattr(key, name))}" for name in _KEY_FIELDS]
    return lines + ([f"occurrence = {key.occurrence}"] if key.occurrence > 1 else [])


def _read(path: Path) -> list[tuple[Key, dict]]:
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except FileNotFoundError:
        return []
    except tomllib.TOMLDecodeError as error:
        raise LedgerError(f"{path.name}: {error}") from None
    out = []
    seen: set[Key] = set()
    for number, entry in enumerate(table.get("finding", []), 1):
        missing = [name for name in _KEY_FIELDS if not isinstance(entry.get(name), str) or not entry[name]]
        occurrence = entry.get("occurrence", 1)
        if missing or not isinstance(occurrence, int) or occurrence < 1:
            raise LedgerError(f"{path.name}: finding {number} lacks {', '.join(missing) or 'a valid occurrence'}")
        key = Key(entry["project"], entry["file"], entry["rule"], entry["expr"], occurrence)
        if key in seen:
            raise LedgerError(f"{path.name}: finding {number} repeats {key.label()}")
        seen.add(key)
        out.append((key, entry))
    return out


def read_ledger(path: Path = LEDGER) -> dict[Key, Verdict]:
    """Every entry; a verdict outside VERDICTS and UNTRIAGED, or an empty reason for a verdict, is an error."""
    out = {}
    for key, entry in _read(path):
        verdict, reason = entry.get("verdict"), entry.get("reason", "")
        if verdict not in (*VERDICTS, UNTRIAGED):
            allowed = ", ".join((*VERDICTS, UNTRIAGED))
            raise LedgerError(f"{path.name}: {key.label()} has verdict {verdict!r}, not one of {allowed}")
        if verdict != UNTRIAGED and (not isinstance(reason, str) or not reason.strip() or "\n" in reason):
            raise LedgerError(f"{path.name}: {key.label()} needs a one-line reason for its verdict")
        out[key] = Verdict(verdict, reason)
    return out


def write_ledger(entries: Mapping[Key, Verdict], path: Path = LEDGER) -> None:
    blocks = ["# Triage of every finding the primer reports in the default and x64 modes, and of PRM028's in the\n"
              "# strict mode (docs/primer.md).\n"
              "# verdict: bug (a maintainer would want to know), noise (true, not worth acting on),\n"
              "# wrong (the claim about dtypes or behaviour is false), untriaged (nobody has judged it yet).\n"
              "# `python tests/primer/run.py --ledger-update` adds new keys and reports stale ones."]  # fmt: skip
    for key in sorted(entries):
        verdict = entries[key]
        blocks.append("\n".join(["[[finding]]", *_key_lines(key), f"verdict = {_quote(verdict.verdict)}",
                                 f"reason = {_quote(verdict.reason)}"]))  # fmt: skip
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


def read_produced(path: Path = PRODUCED) -> dict[Key, Produced]:
    out = {}
    for key, entry in _read(path):
        modes = entry.get("modes")
        if not modes or not all(isinstance(m, str) and ledgered(m, key.rule) for m in modes):
            raise LedgerError(f"{path.name}: {key.label()} has modes {modes!r}, not some the ledger covers")
        out[key] = Produced(tuple(modes), entry.get("line", 0), entry.get("message", ""))
    return out


def write_produced(produced: Mapping[Key, Produced], path: Path = PRODUCED) -> None:
    blocks = ["# Written by tests/primer/run.py: the findings the ledger covers (default and x64 modes, PRM028's\n"
              "# strict ones) on the pinned projects, keyed as in ledger.toml (line and message are for the\n"
              "# reader, not the key)."]
    for key in sorted(produced):
        info = produced[key]
        blocks.append("\n".join(["[[finding]]", *_key_lines(key), f"modes = {json.dumps(list(info.modes))}",
                                 f"line = {info.line}", f"message = {_quote(info.message)}"]))  # fmt: skip
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


def update(ledger: Mapping[Key, Verdict], produced: Iterable[Key],
           prune: bool) -> tuple[dict[Key, Verdict], list[Key], list[Key]]:
    """The ledger with an untriaged entry for every new key (and without stale ones when
    ``prune``); the keys added and the stale ones."""
    produced = set(produced)
    added = sorted(produced - set(ledger))
    stale = sorted(set(ledger) - produced)
    entries = dict(ledger)
    entries.update({key: Verdict(UNTRIAGED, "") for key in added})
    if prune:
        for key in stale:
            del entries[key]
    return entries, added, stale


def precision(counts: Mapping[str, int]) -> float | None:
    """bug / (bug + noise + wrong) over judged findings; None when none is judged."""
    judged = sum(counts.get(v, 0) for v in VERDICTS)
    return counts.get("bug", 0) / judged if judged else None

"""The fuzzer's known disagreement classes, read from KNOWN_LIMITATIONS.md (the one place they
are written down).

Each limitation is a ``## ID: title`` section with, in this order, bullet lines
``- modes: x64off, x64on`` and ``- class: `REGEX` `` (matched against a disagreement's class,
``Disagreement.key`` less its ``[mode] `` prefix), optionally ``- versions: ml_dtypes < 0.7``
(the installed versions it holds for: a later release may behave otherwise), then the minimized
program as a ```python block.  ``tests/fuzz/test_fuzz.py`` checks that every program still disagrees
as its class says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

DOCUMENT = Path(__file__).resolve().parent / "KNOWN_LIMITATIONS.md"


@dataclass(frozen=True)
class Limitation:
    id: str
    title: str
    modes: tuple[str, ...]
    pattern: re.Pattern
    program: str
    below: tuple[tuple[str, str], ...] = ()  # (distribution, version) it holds below

    def applies(self) -> bool:
        """Whether the installed versions are those the limitation holds for."""
        return all(_version(metadata.version(name)) < _version(bound) for name, bound in self.below)

    def matches(self, mode: str, key: str) -> bool:
        """Whether a disagreement class (``Disagreement.key``) is this limitation."""
        prefix = f"[{mode}] "
        return mode in self.modes and key.startswith(prefix) and bool(self.pattern.fullmatch(key[len(prefix) :]))


_SECTION = re.compile(r"^## (?P<id>[A-Z]+\d+): (?P<title>.+)$", re.MULTILINE)
_MODES = re.compile(r"^- modes: (?P<modes>.+)$", re.MULTILINE)
_CLASS = re.compile(r"^- class: `(?P<pattern>.+)`$", re.MULTILINE)
_VERSIONS = re.compile(r"^- versions: (?P<versions>.+)$", re.MULTILINE)
_BELOW = re.compile(r"\s*(?P<name>[\w.-]+)\s*<\s*(?P<version>[\d.]+)\s*")
_PROGRAM = re.compile(r"^```python\n(?P<program>.*?)^```$", re.MULTILINE | re.DOTALL)


@cache
def limitations() -> tuple[Limitation, ...]:
    text = DOCUMENT.read_text()
    sections = list(_SECTION.finditer(text))
    found = []
    for section, following in zip(sections, sections[1:] + [None]):
        body = text[section.end() : following.start() if following else len(text)]
        modes, pattern, program = _MODES.search(body), _CLASS.search(body), _PROGRAM.search(body)
        if not (modes and pattern and program):
            raise ValueError(f"{DOCUMENT.name}: {section['id']} needs `- modes:`, `- class:` and a python block")
        versions = _VERSIONS.search(body)
        below = tuple((m["name"], m["version"]) for m in map(_BELOW.fullmatch, versions["versions"].split(","))
                      if m) if versions else ()  # fmt: skip
        found.append(Limitation(section["id"], section["title"], tuple(m.strip() for m in modes["modes"].split(",")),
                                re.compile(pattern["pattern"]), program["program"], below))  # fmt: skip
    return tuple(found)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def classify_limitation(disagreement) -> str | None:
    """The id of the known limitation a disagreement belongs to, None if it is new."""
    return next((lim.id for lim in limitations() if lim.matches(disagreement.mode, disagreement.key)), None)

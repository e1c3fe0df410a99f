"""`# noqa` and `# promolint: disable=...` comments, read as ruff reads them: by `promolint check`
and by the mypy plugin alike."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field

from promolint.driver.config import known_codes

_CODE = r"[A-Z]+[0-9]+"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.IGNORECASE)
_FILE_DISABLE = re.compile(rf"#\s*promolint:\s*disable=(?P<codes>{_CODE}(?:\s*,\s*{_CODE})*)", re.IGNORECASE)
_DIRECTIVE_HINT = re.compile(rb"noqa|promolint\s*:", re.IGNORECASE)  # most files have neither: skip tokenizing


@dataclass
class Noqa:
    line: int
    column: int
    end_column: int
    codes: tuple[str, ...] | None  # None: a blanket noqa, which suppresses every code on its line
    used: set[str] = field(default_factory=set)

    def covers(self, code: str) -> bool:
        return self.codes is None or code in self.codes

    def unused_message(self, enabled: frozenset[str], external: tuple[str, ...] = ()) -> str | None:
        """What this directive suppresses in vain, judged like ruff's RUF100; None when it is all used.

        Only an enabled rule can be judged unused: a rule that did not run might have fired.
        Codes of ``external`` tools (codes or prefixes, ruff's ``external``) are theirs to judge."""
        if self.codes is None:
            return None if self.used else "unused blanket `noqa` directive"
        known = set(known_codes())
        ours = [c for c in self.codes if c in known or not c.startswith(external)]
        groups = {
            "unused": [c for c in ours if c in enabled and c not in self.used],
            "non-enabled": [c for c in ours if c in known and c not in enabled],
            "unknown": [c for c in ours if c not in known],
        }
        listed = "; ".join(f"{kind}: {', '.join(f'`{c}`' for c in codes)}" for kind, codes in groups.items() if codes)
        return f"unused `noqa` directive ({listed})" if listed else None


def directives(data: bytes) -> tuple[dict[int, list[Noqa]], frozenset[str]]:
    """The `# noqa` directives by line, and the codes `# promolint: disable=...` comment lines turn off."""
    noqas: dict[int, list[Noqa]] = {}
    disabled: set[str] = set()
    if not _DIRECTIVE_HINT.search(data):
        return noqas, frozenset()
    for line, column, comment, own_line in _comments(data):
        if own_line and (match := _FILE_DISABLE.match(comment)):
            disabled |= {c.strip().upper() for c in match.group("codes").split(",")}
        for match in _NOQA.finditer(comment):
            codes = match.group("codes")
            noqas.setdefault(line, []).append(Noqa(
                line, column + match.start(), column + match.end(),
                None if codes is None else tuple(dict.fromkeys(c.upper() for c in re.split(r"[\s,]+", codes))),
            ))  # fmt: skip
    return noqas, frozenset(disabled)


def _comments(data: bytes) -> Iterator[tuple[int, int, str, bool]]:
    """(line, 1-based column, text, whether it is alone on its line) of each comment: tokens, so never a
    `# noqa` inside a string."""
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.COMMENT:
                column = token.start[1]
                yield token.start[0], column + 1, token.string, not token.line[:column].strip()
    except (tokenize.TokenError, SyntaxError):
        return  # ast accepted what the tokenize module does not: keep the comments seen so far


"""Which Python a syntax error's construct needs, so that PRM000 can say "`type` statements need
Python 3.12" instead of "invalid syntax".

``ast`` reads the grammar of the Python that runs promolint (or, with a target version older than
that, of the target: ``feature_version``).  Code written for a later Python fails there with
CPython's generic messages; the constructs below are recognized from the failing line's text and
tokens, only where no code of the running grammar could look the same.  CPython names the version
itself where the target's grammar refuses a construct ("... only supported in Python 3.10 and
greater")."""

from __future__ import annotations

import io
import re
import sys
import tokenize
from dataclasses import dataclass

RUNNING = sys.version_info[:2]


@dataclass(frozen=True)
class NewerSyntax:
    construct: str  # plural, as the message's subject: "`type` statements"
    python: tuple[int, int]  # the first Python that reads it


# (pattern of the failing line, stripped; what it is; the Python that added it): a line these
# match fails on every Python before that one, whatever follows.
_LINE_PATTERNS = (
    (re.compile(r"(async\s+)?def\s+\w+\s*\[[^\]]*=|class\s+\w+\s*\[[^\]]*=|type\s+\w+\s*\[[^\]]*=.*="),
     "type parameter defaults", (3, 13)),
    (re.compile(r"type\s+[A-Za-z_]\w*\s*(\[.*\])?\s*="), "`type` statements", (3, 12)),
    (re.compile(r"(async\s+)?def\s+\w+\s*\["), "type parameter lists (`def f[T]`)", (3, 12)),
    (re.compile(r"class\s+\w+\s*\["), "type parameter lists (`class C[T]`)", (3, 12)),
    (re.compile(r"except\s*\*"), "`except*` clauses", (3, 11)),
)  # fmt: skip
# CPython's own messages where its f-string parser, before 3.12, refuses what 3.12 reads.
_FSTRING_MESSAGES = {
    "f-string expression part cannot include a backslash": "backslashes in f-string expressions",
    "f-string expression part cannot include '#'": "comments in f-string expressions",
}
_UNPARENTHESIZED_EXCEPT = "multiple exception types must be parenthesized"
_TARGET_REFUSES = re.compile(r"(.+?) (?:is|are) only supported in Python (\d+)\.(\d+) and greater")
# How CPython's refusals name a construct, where ours says more.
_CPYTHON_NAMES = {"Pattern matching": "`match` statements", "Exception groups": "`except*` clauses",
                  "Type statement": "`type` statements"}  # fmt: skip
_TEMPLATE_PREFIXES = frozenset({"t", "tr", "rt"})


def newer_syntax(text: str, error: SyntaxError) -> NewerSyntax | None:
    """The construct of a later Python than the grammar read that ``error`` stumbled on, or None
    when nothing shows that it is one."""
    refused = _TARGET_REFUSES.fullmatch(error.msg or "")
    if refused:
        subject = refused.group(1)
        return NewerSyntax(_CPYTHON_NAMES.get(subject, subject[0].lower() + subject[1:]),
                           (int(refused.group(2)), int(refused.group(3))))  # fmt: skip
    lines = text.splitlines()
    line = lines[error.lineno - 1] if error.lineno and 0 < error.lineno <= len(lines) else ""
    stripped = line.strip()
    for pattern, construct, python in _LINE_PATTERNS:
        if pattern.match(stripped):
            return NewerSyntax(construct, python)
    if error.msg in _FSTRING_MESSAGES:
        return NewerSyntax(_FSTRING_MESSAGES[error.msg], (3, 12))
    if (error.msg or "").startswith("f-string") and _nests_its_own_quotes(line):
        return NewerSyntax("f-strings nesting their own quotes", (3, 12))
    if error.msg == _UNPARENTHESIZED_EXCEPT and " as " not in stripped:
        return NewerSyntax("`except` clauses listing exceptions without parentheses", (3, 14))
    if _has_template_string(line):
        return NewerSyntax("template strings (`t\"...\"`)", (3, 14))
    return None


def _nests_its_own_quotes(line: str) -> bool:
    """Whether an f-string on ``line`` holds, in a replacement field, a whole string quoted as
    itself (``f"{d["a"]}"``): before 3.12 the inner quote ends the f-string."""
    for start in re.finditer(r"(?<![\w'\"])[rR]?[fF][rR]?(['\"])(?!\1\1)", line):
        quote, index, depth, inner = start.group(1), start.end(), 0, 0
        while index < len(line):
            char = line[index]
            if depth == 0 and char == quote:
                break  # the f-string's end, as 3.12 reads it
            if char == "{" and depth == 0 and line.startswith("{{", index):
                index += 1
            elif char in "{[(":
                depth += 1
            elif char in "}])":
                depth -= 1
            elif char == quote:
                inner += 1
            index += 1
        if index < len(line) and inner and inner % 2 == 0:
            return True
    return False


def _has_template_string(line: str) -> bool:
    """A ``t`` prefix directly before a string: a name touching a string is no earlier syntax."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    return any(a.type == tokenize.NAME and a.string.lower() in _TEMPLATE_PREFIXES and b.type == tokenize.STRING
               and a.end == b.start for a, b in zip(tokens, tokens[1:]))  # fmt: skip


def syntax_error_message(text: str, error: SyntaxError, target: tuple[int, int] | None) -> str:
    """PRM000's message for ``error``: which Python its construct needs, and why that is not the
    Python whose grammar was read (the running one's, or the older target's)."""
    newer = newer_syntax(text, error)
    if newer is None:
        return f"syntax error: {error.msg}"
    needs = f"syntax error: {newer.construct} need Python {_version(newer.python)}"
    if target is not None and target < newer.python:
        return f"{needs}; target-version is {_target_name(target)}"
    if RUNNING < newer.python:
        older = f", older than target-version {_target_name(target)}" if target is not None else ""
        return (f"{needs}; promolint runs on Python {_version(RUNNING)}{older}: run it under Python "
                f"{_version(newer.python)} or later")  # fmt: skip
    return f"syntax error: {error.msg}"  # the construct is readable here: the error is another


def _version(python: tuple[int, int]) -> str:
    return f"{python[0]}.{python[1]}"


def _target_name(python: tuple[int, int]) -> str:
    return f"py{python[0]}{python[1]}"

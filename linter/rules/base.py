"""What a rule is: a code, a name, ruff-style docs, examples that run as tests, and a check
over the operations the engine evaluated (never the syntax tree)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from promolint.engine.records import Operation
from promolint.engine.values import Array, Value


@dataclass(frozen=True)
class Example:
    """A snippet a rule must flag (invalid) or leave alone (valid), under the given modes."""

    code: str
    x64: str = "auto"
    promotion: str = "auto"


@dataclass(frozen=True)
class Edit:
    """Replace the syntax at ``node`` with the expression ``code``, in which ``{0}``, ``{1}``...
    stand for the syntax at ``args`` (the front end adds the parentheses either needs)."""

    node: object  # the front end's handle, as rules get it from Operation.syntax
    code: str
    args: tuple[object, ...] = ()


@dataclass(frozen=True)
class Fix:
    """Edits that make a finding go away; ``safe`` when the program behaves as before.

    ``imports`` are statements the new code needs (``import math``): added when missing, and
    the fix is dropped when their name means something else in the file.  ``note`` becomes a
    trailing comment on the line of the first edit."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool
    imports: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    node: object  # the front end's handle on the reported syntax
    fix: Fix | None = None


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    why: ClassVar[str]
    fix_safety: ClassVar[str] = "No automatic fix is offered."
    opt_in: ClassVar[bool] = False  # enabled only when named (its code, ALL) or switched on: not by a prefix
    invalid: ClassVar[tuple[Example, ...]]  # the first one is the doc's "Example"
    valid: ClassVar[tuple[Example, ...]]  # the first one is the doc's "Use instead"

    def check(self, operation: Operation) -> Iterator[Finding]:
        raise NotImplementedError

    def finding(self, operation: Operation, message: str, fix: Fix | None = None) -> Finding:
        return Finding(self.code, message, operation.node, fix)

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation in ruff's format."""
        example, use_instead = cls.invalid[0], cls.valid[0]
        return "\n".join([
            f"# {cls.name} ({cls.code})",
            "",
            "## What it does",
            textwrap.fill(cls.summary, 96),
            "",
            "## Why is this bad?",
            textwrap.dedent(cls.why).strip(),
            "",
            "## Example",
            "```python",
            _modes_comment(example) + textwrap.dedent(example.code).strip(),
            "```",
            "",
            "## Use instead",
            "```python",
            _modes_comment(use_instead) + textwrap.dedent(use_instead.code).strip(),
            "```",
            "",
            "## Fix safety",
            textwrap.dedent(cls.fix_safety).strip(),
            "",
        ])  # fmt: skip


def _modes_comment(example: Example) -> str:
    modes = [f"--x64 {example.x64}" if example.x64 != "auto" else "", f"--promotion {example.promotion}"
             if example.promotion != "auto" else ""]  # fmt: skip
    modes = [m for m in modes if m]
    return f"# promolint check {' '.join(modes)}\n" if modes else ""


def exact(value: Value) -> Array | None:
    """The value when its dtype and weak flag are known exactly: rules never guess."""
    return value if isinstance(value, Array) and value.exact else None


def describe_operand(value: Value, text: str = "") -> str:
    if isinstance(value, Array):
        what = value.describe()
        return f"`{text}` ({what})" if text else what
    return f"`{text}`" if text else "?"

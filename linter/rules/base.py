"""What a rule is: a code, a name, ruff-style docs, examples that run as tests, and a check
over the operations the engine evaluated (never the syntax tree)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import ClassVar

from promolint.engine.model import Module, Operation, spelled
from promolint.engine.values import Array, DTypeRef, Items, Value
from promolint.rules import registry


@dataclass(frozen=True)
class Example:
    """A snippet a rule must flag (invalid) or leave alone (valid), under the given modes.

    ``expected_replacement`` (as in Fixit) is the snippet once its fixes are applied, the unsafe
    ones included: the rule's tests apply them and compare."""

    code: str
    x64: str = "auto"
    promotion: str = "auto"
    expected_replacement: str | None = None


@dataclass(frozen=True)
class Edit:
    """Replace the syntax at ``node`` with the expression ``code``, in which ``{0}``, ``{1}``...
    stand for the syntax at ``args`` (the front end adds the parentheses either needs)."""

    node: object  # the front end's handle, as rules get it from Operation.syntax
    code: str
    args: tuple[object, ...] = ()


@dataclass(frozen=True)
class OtherMode:
    """What a fix found safe in one x64 mode must also show in the other, where the user has not
    pinned x64: ``keeps`` gets the same operation as an analysis with x64 set to ``x64`` sees it
    (None when it has none there) and says whether the fix keeps every dtype there too.
    ``alternative``: the fix to try instead where this one does not (a cast spelled ``int``,
    which follows x64, instead of ``jnp.int32``)."""

    x64: bool
    keeps: Callable[[Operation | None], bool]
    alternative: Fix | None = None


@dataclass(frozen=True)
class Fix:
    """Edits that make a finding go away; ``safe`` when the program behaves as before.

    ``imports`` are statements the new code needs (``import math``): added when missing, and
    the fix is dropped when their name means something else in the file.  ``note`` becomes a
    trailing comment on the line of the first edit.  ``other_mode``: a safe fix whose safety
    this analysis's x64 mode alone does not show; the linter asks it before it shows or applies
    the fix as safe, and makes the fix unsafe where it does not hold."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool
    imports: tuple[str, ...] = ()
    note: str = ""
    other_mode: OtherMode | None = field(default=None, compare=False)

    def unsafe_with_x64_switched(self) -> Fix:
        return replace(self, safe=False, other_mode=None,
                       title=f"{self.title} (unsafe: with x64 switched, it changes a dtype)")


@dataclass(frozen=True)
class Related:
    """Another place a finding concerns (where a leak widens data), with what happens there."""

    node: object  # the front end's handle
    message: str


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    node: object  # the front end's handle on the reported syntax
    fix: Fix | None = None
    related: tuple[Related, ...] = ()


class Rule:
    """One rule: its docs and examples here, its code, name and switches from its registry row
    (found by the module it is defined in: one rule a module)."""

    info: ClassVar[registry.RuleInfo]
    code: ClassVar[str]
    name: ClassVar[str]
    opt_in: ClassVar[bool]  # enabled only when named (its code, ALL) or switched on: not by a prefix
    summary: ClassVar[str]
    why: ClassVar[str]
    fix_safety: ClassVar[str] = "No automatic fix is offered."
    invalid: ClassVar[tuple[Example, ...]]  # the first one is the doc's "Example"
    valid: ClassVar[tuple[Example, ...]]  # the first one is the doc's "Use instead"

    def __init_subclass__(cls, abstract: bool = False, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if abstract:
            return
        info = registry.info_of_module(cls.__module__)
        if info is None:
            raise TypeError(f"{cls.__module__} defines a rule but has no row in promolint.rules.registry")
        cls.info, cls.code, cls.name, cls.opt_in = info, info.code, info.name, info.opt_in

    def check(self, operation: Operation) -> Iterator[Finding]:
        raise NotImplementedError

    def check_module(self, module: Module) -> Iterator[Finding]:
        """The findings of one analyzed module: ``check`` of each operation, unless the rule
        needs more of the module at once (where values go, calls of its own functions)."""
        for operation in module.operations:
            yield from self.check(operation)

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
            *_options(cls.info),
        ])  # fmt: skip


def _options(info: registry.RuleInfo) -> list[str]:
    """ruff's "Options" section: the settings that change where the rule reports."""
    options = []
    if info.opt_in:
        options.append(f"- opt-in: enabled by its code or `ALL`, e.g. `extend-select = [\"{info.code}\"]` in "
                       f"`[tool.promolint]` or `--extend-select {info.code}` (a prefix such as `PRM` does not)"
                       + (f"; {info.code} is off by default because its primer precision is below 90%"
                          if info.code in registry.MEASURED_OPT_IN else "") + ".")  # fmt: skip
    if not info.in_tests:
        options.append(
            "- `test-files` (`--test-files`): not reported in the test modules these globs match (by default "
            "pytest's and unittest's names, `conftest.py` and files under `tests/`, `test/` or `testing/`: "
            "`promolint config` prints them), where what it flags is what tests do on purpose; "
            "`test-files = []` reports it there too.")  # fmt: skip
    return ["## Options", *options, ""] if options else []


def _modes_comment(example: Example) -> str:
    modes = [f"--x64 {example.x64}" if example.x64 != "auto" else "", f"--promotion {example.promotion}"
             if example.promotion != "auto" else ""]  # fmt: skip
    modes = [m for m in modes if m]
    return f"# promolint check {' '.join(modes)}\n" if modes else ""


def exact(value: Value) -> Array | None:
    """The value when its dtype and weak flag are known exactly: rules never guess."""
    return value if isinstance(value, Array) and value.exact else None


# The builtin type a DTypeRef marked ``builtin`` was written as, by the dtype it stands for.
_BUILTIN_TYPES = {"bool": "bool", "int64": "int", "float64": "float", "complex128": "complex"}


def describe_operands(operation: Operation) -> str:
    """The operands' types as a message lists them: arrays, the items of a sequence operand
    (``jnp.stack([a, b])``) and dtypes or Python types given as operands
    (``jnp.result_type(x, int)``)."""
    described = [_described(v) for v in _flattened(_as_revealed(operation))]
    return ", ".join(d for d in described if d) or "its operands"


def _as_revealed(operation: Operation) -> tuple[Value, ...]:
    """The operands as ``reveal`` knows them: where what holds at every member of the variables
    is unknown, the symbolic value computed (``x > 0`` is a bool whatever ``x`` is)."""
    symbolic = operation.symbolic_operands
    if len(symbolic) != len(operation.operands):
        return operation.operands
    return tuple(s if not (isinstance(v, Array) and v.dtypes) and s is not None else v
                 for v, s in zip(operation.operands, symbolic))  # fmt: skip


def _flattened(values) -> Iterator[Value]:
    for value in values:
        if isinstance(value, Items):
            yield from _flattened(value.items)
        else:
            yield value


def _described(value: Value) -> str:
    if isinstance(value, DTypeRef):
        return f"Python type {_BUILTIN_TYPES.get(value.name, value.name)}" if value.builtin else f"dtype {value.name}"
    return spelled(value)

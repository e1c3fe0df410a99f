"""Each rule's documented examples run: invalid ones fire that rule, valid ones stay silent."""

from __future__ import annotations

import textwrap

import pytest

from promolint.driver.lint import fix_source, lint_source
from promolint.engine.walker.analysis import Settings
from promolint.rules import ALL_RULES, rule_by_code

CASES = [(rule, example, kind) for rule in ALL_RULES for kind in ("invalid", "valid")
         for example in getattr(rule, kind)]  # fmt: skip


@pytest.mark.parametrize(("rule", "example", "kind"), CASES,
                         ids=[f"{r.code}-{k}-{i}" for i, (r, _, k) in enumerate(CASES)])  # fmt: skip
def test_documented_example(rule, example, kind) -> None:
    source = textwrap.dedent(example.code).encode()
    codes = {d.code for d in lint_source(source, "example.py", Settings(example.x64, example.promotion),
                                         frozenset({rule.code}))}  # fmt: skip
    if kind == "invalid":
        assert rule.code in codes, f"{rule.code} did not fire on:\n{source.decode()}"
    else:
        assert rule.code not in codes, f"{rule.code} fired on valid example:\n{source.decode()}"


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_doc_has_ruff_sections(rule) -> None:
    doc = rule.doc()
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"):
        assert section in doc


REPLACEMENTS = [(rule, example) for rule in ALL_RULES for example in rule.invalid if example.expected_replacement]


@pytest.mark.parametrize(("rule", "example"), REPLACEMENTS,
                         ids=[f"{r.code}-{i}" for i, (r, _) in enumerate(REPLACEMENTS)])  # fmt: skip
def test_documented_fix_writes_its_expected_replacement(rule, example) -> None:
    source = textwrap.dedent(example.code).encode()
    fixed, applied, left = fix_source(source, "example.py", Settings(example.x64, example.promotion),
                                      frozenset({rule.code}), unsafe=True)  # fmt: skip
    assert applied and fixed.decode() == textwrap.dedent(example.expected_replacement)
    assert rule.code not in {d.code for d in left}


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_fix_availability_in_the_registry_is_what_the_examples_show(rule) -> None:
    """A rule the registry says can fix shows a fix in its examples; one that cannot shows none."""
    shown = any(example.expected_replacement for example in rule.invalid)
    assert shown == (rule.info.fix != "never")


@pytest.mark.parametrize("code", ["PRM000", "PRM100"])
def test_checker_codes_are_documented_and_their_examples_hold(code) -> None:
    rule = rule_by_code(code)
    codes = frozenset({"PRM000", "PRM006", "PRM100"})
    for kind, fires in (("invalid", True), ("valid", False)):
        for example in getattr(rule, kind):
            found = lint_source(textwrap.dedent(example.code).encode(), "example.py", Settings(), codes)
            assert (code in {d.code for d in found}) is fires, f"{code} {kind} example:\n{example.code}"

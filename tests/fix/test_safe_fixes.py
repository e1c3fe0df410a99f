"""No safe fix changes a dtype in any mode: every safe fix applied to the fixtures and to every
rule's invalid examples, and `promolint reveal` of every expression compared before and after,
with x64 off and on (the one mode the fix's settings force, when they force one), under standard
promotion, and under the promotion the fix was made in (strict, or the code's own).

The fixes are the ones the rules call safe, applied without `promolint check --fix`'s own check
that drops a fix changing an assigned name in the other x64 mode: a rule that calls such a fix
safe is wrong (its finding shows the fix as safe) even when that check catches it."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from promolint.driver.config import X64_PORTABILITY, known_codes
from promolint.engine import context
from promolint.engine.walker.analysis import Settings
from promolint.engine.walker.source import parse_bytes
from promolint.driver.lint import fix_source, lint_source
from promolint.rules import ALL_RULES
from safe_fixes import check_safe_fixes, correspondence

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODES = {"default": {}, "x64": {"x64": "on"}, "x32": {"x64": "off"}, "strict": {"promotion": "strict"}}
CODES = frozenset(known_codes()) - {X64_PORTABILITY}
EXAMPLES = [(rule, i, example) for rule in ALL_RULES for i, example in enumerate(rule.invalid)]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.py")))
def test_safe_fixes_of_a_fixture_keep_every_dtype(name, mode) -> None:
    outcome = check_safe_fixes((FIXTURES / name).read_bytes(), Settings(**MODES[mode]), CODES, net=False)
    assert outcome.error is None, outcome.error
    assert not outcome.changes, "\n".join(map(str, outcome.changes)) + "\n" + outcome.fixed.decode()


@pytest.mark.parametrize(("rule", "index", "example"), EXAMPLES, ids=[f"{r.code}-{i}" for r, i, _ in EXAMPLES])
def test_safe_fixes_of_a_rule_example_keep_every_dtype(rule, index, example) -> None:
    data = textwrap.dedent(example.code).encode()
    outcome = check_safe_fixes(data, Settings(example.x64, example.promotion), CODES, net=False)
    assert outcome.error is None, outcome.error
    assert not outcome.changes, "\n".join(map(str, outcome.changes)) + "\n" + outcome.fixed.decode()


def test_safe_fixes_are_applied_in_every_mode() -> None:
    """The comparisons above compare something: safe fixes apply to the fixtures in each mode."""
    for mode, settings in MODES.items():
        applied = sum(fix_source(p.read_bytes(), p.name, Settings(**settings), CODES)[1] for p in FIXTURES.glob("*.py"))
        assert applied >= 2, mode


def test_a_fix_that_changes_a_dtype_in_the_other_mode_is_caught(monkeypatch) -> None:
    """PRM007's narrowing holds only with x64 off: called safe where only the code sets x64 off,
    the comparison with x64 on shows the dtype it changes (and nothing where it was made)."""
    source = textwrap.dedent("""\
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", False)
        z = jnp.zeros(3, dtype=jnp.float64) + 1
    """).encode()
    assert not check_safe_fixes(source, Settings(), CODES, net=False).applied  # unsafe: not applied
    monkeypatch.setattr("promolint.rules.x64_truncation.X64_BY_USER", context.X64_BY_CODE)
    outcome = check_safe_fixes(source, Settings(), CODES, net=False)
    assert outcome.applied == 1
    changed = {(c.text, c.mode, c.before[0], c.after[0]) for c in outcome.changes}
    assert changed == {
        (text, f"x64 on, {promotion} promotion", "float64", "float32")
        for text in ("z", "jnp.zeros(3, dtype=jnp.float64)", "jnp.zeros(3, dtype=jnp.float64) + 1")
        for promotion in ("standard", "auto")
    }


def test_correspondence_follows_kept_code_into_edits_and_skips_added_imports() -> None:
    before = parse_bytes(b"import numpy as np\nx = b.sum() + np.uint8(1) * np.float64(2)\n")
    after = parse_bytes(b"import numpy as np\nimport jax.numpy as jnp\n"
                        b"x = b.astype(jnp.float32).sum() + jnp.asarray(np.uint8(1)) * np.float32(2)\n")  # fmt: skip
    matched, edited = correspondence(before, after)
    code = {before.code(node): node for node in ast.walk(before.tree) if hasattr(node, "lineno")}

    def at(text: str) -> tuple:
        s = before.span(code[text])
        return s.line, s.column, s.end_line, s.end_column

    assert edited == {at("b"), at("np.uint8(1)"), at("np.float64")}
    assert matched[at("b")] == (3, 5, 3, 6)  # kept inside the cast
    assert matched[at("np.uint8(1)")] == (3, 47, 3, 58)  # kept inside jnp.asarray(...)
    assert matched[at("np.uint8(1) * np.float64(2)")] == (3, 35, 3, 75)
    assert matched[at("x")] == (3, 1, 3, 2)


def test_the_fix_comment_goes_on_the_line_it_changed_in_multiline_literals() -> None:
    source = textwrap.dedent("""\
        import jax.numpy as jnp
        config = {
            "low": jnp.zeros(3, jnp.float64), "mid": 2,
            "high": jnp.ones(
                3, dtype=jnp.int64),
            "both": [jnp.zeros(3, jnp.float64),
                     jnp.ones(3, "float64")],  # keep
        }
        tolerances = dict(
            low=jnp.zeros(3, jnp.float64),
            high=1,
        )
    """)
    note = "  # promolint: was {0}, which JAX truncates to {1} with x64 off"
    f64, i64 = note.format("float64", "float32"), note.format("int64", "int32")
    fixed = fix_source(source.encode(), "m.py", Settings(x64="off"), CODES)[0].decode()
    assert fixed.splitlines() == [
        "import jax.numpy as jnp",
        "config = {",
        '    "low": jnp.zeros(3, jnp.float32), "mid": 2,' + f64,
        '    "high": jnp.ones(',
        "        3, dtype=jnp.int32)," + i64,
        '    "both": [jnp.zeros(3, jnp.float32),' + f64,
        '             jnp.ones(3, "float32")],  # keep' + f64,
        "}",
        "tolerances = dict(",
        "    low=jnp.zeros(3, jnp.float32)," + f64,
        "    high=1,",
        ")",
    ]


def test_a_strict_cast_is_spelled_to_follow_x64_where_only_that_keeps_the_dtype_with_x64_on() -> None:
    """`mask + 2 * counts` with int32 counts (x64 off) is int64 with x64 on: `jnp.int32` would then
    meet int64, which strict promotion refuses; `int` follows x64 as the promotion did."""
    source = textwrap.dedent("""\
        import jax.numpy as jnp
        mask = jnp.arange(3) > 1
        counts = jnp.arange(3)
        total = mask + 2 * counts
    """).encode()
    (finding,) = [d for d in lint_source(source, "m.py", Settings(promotion="strict"), CODES) if d.code == "PRM004"]
    assert finding.fix.safe and finding.fix.title.startswith("Cast to int explicitly")
    fixed = fix_source(source, "m.py", Settings(promotion="strict"), CODES)[0].decode()
    assert fixed.endswith("total = mask.astype(int) + 2 * counts\n")
    outcome = check_safe_fixes(source, Settings(promotion="strict"), CODES, net=False)
    assert outcome.applied == 1 and not outcome.changes
    # Pinned off, the explicit spelling is safe as it is.
    pinned = fix_source(source, "m.py", Settings("off", "strict"), CODES)[0].decode()
    assert pinned.endswith("total = mask.astype(jnp.int32) + 2 * counts\n")

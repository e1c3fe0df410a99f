"""`promolint check --fix`: every fix applied to the fixtures removes its finding and adds none, parses,
is idempotent and (when safe) keeps the inferred dtypes; through real JAX, fixed code computes the
dtypes the original did and the strict migration runs under strict promotion; the CLI's --fix,
--unsafe-fixes and --diff."""

from __future__ import annotations

import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.cli.main import main
from promolint.driver.config import X64_PORTABILITY, Config, known_codes
from promolint.driver.fixing import fix_paths
from promolint.driver.lint import fix_source, lint_source
from promolint.driver.reveal import reveal_records
from promolint.driver.runner import run_check
from promolint.engine.walker.analysis import Settings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODES = {"default": {}, "x64": {"x64": "on"}, "x32": {"x64": "off"}, "strict": {"promotion": "strict"}}
CODES = frozenset(known_codes()) - {X64_PORTABILITY}  # opt-in, and about modes rather than fixes


def fixed_copy(tmp_path: Path, mode: str, unsafe: bool = True) -> tuple[Path, int]:
    """The fixtures copied to ``tmp_path`` and fixed in ``mode``; the number of fixes applied."""
    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy)
    report = fix_paths([copy], Config(root=copy, **MODES[mode]), unsafe=unsafe, jobs=1)
    return copy, report.fixed


def findings(root: Path, mode: str) -> dict[str, list]:
    found: dict[str, list] = {}
    for d in run_check([root], Config(root=root, **MODES[mode]), jobs=1, cache=False).diagnostics:
        found.setdefault(Path(d.path).name, []).append(d)
    return found


def line_map(before: str, after: str) -> dict[int, int]:
    """1-based line of ``after`` -> the line of ``before`` it came from (fixes edit lines in place
    and add import lines)."""
    out = {}
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "replace") and i2 - i1 == j2 - j1:
            out.update({j1 + k + 1: i1 + k + 1 for k in range(j2 - j1)})
    return out


@pytest.mark.parametrize("mode", list(MODES))
def test_fixes_remove_their_findings_add_none_and_are_idempotent(tmp_path, mode) -> None:
    fixable = findings(FIXTURES, mode)
    assert any(d.fix for ds in fixable.values() for d in ds), "no fixable finding in this mode"
    copy, fixed = fixed_copy(tmp_path, mode)
    assert fixed > 0
    # The strict migration must not break standard mode either.
    for check_mode in {mode, "default"}:
        before = findings(FIXTURES, check_mode)
        after = findings(copy, check_mode)
        for path in sorted(FIXTURES.glob("*.py")):
            source, result = path.read_text(), (copy / path.name).read_text()
            ast.parse(result)
            lines = line_map(source, result)
            # In the mode fixed, fixable findings are gone; elsewhere findings may only disappear.
            kept = {(d.line, d.code) for d in before.get(path.name, []) if not (d.fix and check_mode == mode)}
            unexpected = [d for d in after.get(path.name, []) if (lines.get(d.line), d.code) not in kept]
            assert not unexpected, f"{mode} fixes, {check_mode} check: {unexpected}\n{result}"
    again = fix_paths([copy], Config(root=copy, **MODES[mode]), unsafe=True, jobs=1)
    assert again.fixed == 0 and not again.diffs


def target_dtypes(source: str, x64: str) -> dict[tuple[int, str], tuple]:
    records = reveal_records(source.encode(), Settings(x64=x64, promotion="standard"))
    return {(r["line"], r["text"]): (r["dtype"], r["weak"], r["error"]) for r in records if r["target"]}


@pytest.mark.parametrize("mode", list(MODES))
def test_safe_fixes_keep_every_dtype_in_every_mode_the_file_may_run_in(tmp_path, mode) -> None:
    """A safe fix keeps every inferred dtype in both x64 modes, unless the configuration pins one
    (then in that one): under `--x64 off` PRM007's narrowing is safe, elsewhere it is not."""
    copy, fixed = fixed_copy(tmp_path, mode, unsafe=False)
    assert fixed > 0
    forced = MODES[mode].get("x64")
    for path in sorted(FIXTURES.glob("*.py")):
        source, result = path.read_text(), (copy / path.name).read_text()
        lines = line_map(source, result)
        for x64 in (forced,) if forced else ("off", "on"):
            want = target_dtypes(source, x64)
            got = {(lines[line], text): value for (line, text), value in target_dtypes(result, x64).items()}
            changed = {key: (want[key], got[key]) for key in want if want[key] != got[key]}
            assert not changed, f"{path.name} ({mode} fixes, x64 {x64}): {changed}\n{result}"


def test_text_output_marks_fixable_findings(tmp_path, capsys) -> None:
    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy)
    status = main(["check", "--x64", "off", str(copy / "PRM007_x64_truncation.py"), str(copy / "PRM002_mixed_dispatch.py")])
    out = capsys.readouterr().out
    assert status == 1
    assert "PRM007_x64_truncation.py:6:5: PRM007 [*] float64 requested" in out
    assert "PRM002_mixed_dispatch.py:5:5: PRM002 this chain" in out  # unsafe: no marker by default
    assert "[*] 4 fixable with the `--fix` option (2 hidden fixes can be enabled with the `--unsafe-fixes` option)." in out
    # Where only the code sets x64 off, an importer may turn it on again: the same fix is unsafe.
    main(["check", str(copy / "PRM007_x64_truncation.py")])
    assert "PRM007_x64_truncation.py:20:9: PRM007 int64 requested" in capsys.readouterr().out
    main(["check", str(copy / "PRM002_mixed_dispatch.py"), "--unsafe-fixes"])
    assert "PRM002_mixed_dispatch.py:5:5: PRM002 [*] this chain" in capsys.readouterr().out


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, capsys) -> None:
    target = tmp_path / "m.py"
    source = "import jax.numpy as jnp\nz = jnp.zeros(3, dtype=jnp.float64)\n"
    target.write_text(source)
    status = main(["check", "--x64", "off", str(target), "--diff"])
    out, err = capsys.readouterr()
    assert status == 1 and target.read_text() == source
    assert out.splitlines() == [
        f"--- {target}",
        f"+++ {target}",
        "@@ -1,2 +1,2 @@",
        " import jax.numpy as jnp",
        "-z = jnp.zeros(3, dtype=jnp.float64)",
        "+z = jnp.zeros(3, dtype=jnp.float32)  # promolint: was float64, which JAX truncates to float32 with x64 off",
    ]
    assert "Would fix 1 finding." in err
    target.write_text("import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1000\n")  # a finding, no fix
    assert main(["check", str(target), "--diff"]) == 0 and capsys.readouterr().out == ""


def test_fix_writes_safe_fixes_and_unsafe_ones_only_when_asked(tmp_path, capsys) -> None:
    target = tmp_path / "m.py"
    unsafe_line = "a = np.uint8(1) + 1.0 + jnp.bfloat16(1)\n"
    target.write_text("import jax.numpy as jnp\nimport numpy as np\nz = jnp.float64(1)\n" + unsafe_line)
    status = main(["check", "--x64", "off", str(target), "--fix"])
    out = capsys.readouterr().out
    assert status == 1 and "z = jnp.float32(1)  # promolint: was float64" in target.read_text()
    assert unsafe_line in target.read_text()
    assert out.endswith("Found 2 findings (1 fixed, 1 remaining).\n"
                        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n")
    assert main(["check", "--x64", "off", str(target), "--fix", "--unsafe-fixes"]) == 0
    assert capsys.readouterr().out == "Found 1 finding (1 fixed, 0 remaining).\n"
    assert "a = jnp.asarray(np.uint8(1)) + 1.0 + jnp.bfloat16(1)\n" in target.read_text()


def test_fix_exit_status_is_zero_once_everything_is_fixed(tmp_path, capsys) -> None:
    target = tmp_path / "m.py"
    target.write_text("import jax.numpy as jnp\nz = jnp.ones(3).astype('f8')\n")
    assert main(["check", "--x64", "off", str(target), "--fix"]) == 0
    assert "Found 1 finding (1 fixed, 0 remaining)." in capsys.readouterr().out
    assert target.read_text().startswith("import jax.numpy as jnp\nz = jnp.ones(3).astype('f4')  # promolint:")
    assert main(["check", "--x64", "off", str(target), "--fix"]) == 0
    assert capsys.readouterr().out == "All checks passed!\n"


def fix(source: str, x64: str = "auto", promotion: str = "auto", unsafe: bool = True) -> str:
    data = textwrap.dedent(source).encode()
    fixed, _, _ = fix_source(data, "m.py", Settings(x64, promotion), CODES, unsafe)
    return fixed.decode()


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ('jnp.zeros(3, dtype="float64")', 'jnp.zeros(3, dtype="float32")'),
        ("jnp.zeros(3, 'f8')", "jnp.zeros(3, 'f4')"),
        ("jnp.zeros(3, '<i8')", "jnp.zeros(3, '<i4')"),
        ("jnp.zeros(3, dtype=jax.numpy.complex128)", "jnp.zeros(3, dtype=jax.numpy.complex64)"),
        ("jnp.array(1, dtype=np.float64)", "jnp.array(1, dtype=np.float32)"),
        ("jnp.ones(3).astype(jnp.double)", "jnp.ones(3).astype(jnp.float32)"),
        ("jax.lax.convert_element_type(jnp.ones(3), jnp.int64)", "jax.lax.convert_element_type(jnp.ones(3), jnp.int32)"),
    ],
)
def test_x64_truncation_keeps_the_spelling_style(written, fixed) -> None:
    head = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
    assert fix(head + f"z = {written}\n", x64="off").splitlines()[3].startswith(f"z = {fixed}  # promolint: was ")


def test_a_dtype_spelled_otherwise_is_reported_but_not_fixed() -> None:
    source = "import jax.numpy as jnp\nfrom jax.numpy import float64\nz = jnp.zeros(3, dtype=float64)\n"
    assert fix(source, x64="off") == source
    (diagnostic,) = lint_source(source.encode(), "m.py", Settings(x64="off"), CODES)
    assert diagnostic.code == "PRM007" and diagnostic.fix is None


def test_python_scalar_fix_adds_math_and_keeps_comments() -> None:
    source = '''\
        """Doc."""
        import jax.numpy as jnp
        import numpy as np

        x = jnp.ones(3, dtype=jnp.float32)
        y = x / np.sqrt(10)  # scale
        z = x * np.exp(0.5) + np.arcsin(1)
    '''
    assert fix(source, x64="on") == textwrap.dedent('''\
        """Doc."""
        import jax.numpy as jnp
        import numpy as np
        import math

        x = jnp.ones(3, dtype=jnp.float32)
        y = x / math.sqrt(10)  # scale
        z = x * math.exp(0.5) + math.asin(1)
    ''')


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("x * np.float64(c)", "x * float(c)"),
        ("x * np.float64(0.5)", "x * 0.5"),
        ("x * np.float64(2)", "x * float(2)"),
    ],
)
def test_numpy_64bit_scalar_types_become_python_scalars(written, fixed) -> None:
    head = "import jax.numpy as jnp\nimport numpy as np\nx = jnp.ones(3, jnp.float32)\ni = jnp.ones(3, jnp.int32)\n"
    # c is a Python float where f is called (an annotation would not say so: a caller may pass
    # a JAX tracer, which float() cannot convert).
    body = f"def f(c):\n    return {written}\ny = f(x.shape[0] / 2)\n"
    assert fix(head + body, x64="on") == head + body.replace(written, fixed)
    assert not lint_source(fix(head + body, x64="on").encode(), "m.py", Settings(x64="on"), CODES)


@pytest.mark.parametrize(
    "source",
    [
        # The argument is a NumPy value, not a Python scalar: math.sqrt of an array would fail.
        "import jax.numpy as jnp\nimport numpy as np\nx = jnp.ones(3, jnp.float32) / np.sqrt(np.ones(3)[0])\n",
        # A Python float beside an integer array is float64 under x64 as well: nothing is won.
        "import jax.numpy as jnp\nimport numpy as np\nx = jnp.ones(3, jnp.int32) * np.sqrt(2)\n",
        # `math` means something else here.
        "import jax.numpy as jnp\nimport numpy as np\nmath = 1\nx = jnp.ones(3, jnp.float32) / np.sqrt(10)\n",
    ],
)
def test_python_scalar_fix_only_where_it_keeps_the_value_and_the_dtype(source) -> None:
    assert lint_source(source.encode(), "m.py", Settings(x64="on"), CODES)  # the finding is there
    assert fix(source, x64="on") == source


def test_strict_migration_parenthesizes_and_labels_weak_changes_unsafe() -> None:
    source = """\
        import jax.numpy as jnp
        b = jnp.ones(3, jnp.bfloat16)
        h = jnp.ones(3, jnp.float16)
        i = jnp.ones(3, jnp.int8)
        y = b * 2 + h
        w = i + 1.0
        c = (b < h)
    """
    fixed = fix(source, promotion="strict", unsafe=False).splitlines()
    assert fixed[4:] == ["y = (b * 2).astype(jnp.float32) + h.astype(jnp.float32)", "w = i + 1.0",
                         "c = (b.astype(jnp.float32) < h.astype(jnp.float32))"]  # fmt: skip
    (weak,) = [d for d in lint_source(textwrap.dedent(source).encode(), "m.py", Settings(promotion="strict"), CODES)
               if d.line == 6]  # fmt: skip
    assert not weak.fix.safe and "the result becomes strong; standard mode's is weak" in weak.fix.title
    # The cast to the default float is spelled `float`, so that it follows x64 as the weak result did.
    assert fix(source, promotion="strict").splitlines()[5] == "w = i.astype(float) + 1.0"


CALLS = """\
import jax.numpy as jnp
b = jnp.ones(3, jnp.bfloat16)
h = jnp.ones(3, jnp.float16)
x = jnp.where(b > 0, b, h)
y = jnp.add(b, h)
z = b.dot(h)
"""


def test_strict_migration_casts_the_arguments_of_calls_and_the_receivers_of_methods() -> None:
    assert fix(CALLS, promotion="strict", unsafe=False).splitlines()[3:] == [
        "x = jnp.where(b > 0, b.astype(jnp.float32), h.astype(jnp.float32))",
        "y = jnp.add(b.astype(jnp.float32), h.astype(jnp.float32))",
        "z = b.astype(jnp.float32).dot(h.astype(jnp.float32))",
    ]


def test_mixed_dispatch_fix_is_safe_when_the_written_order_already_gave_the_common_dtype() -> None:
    source = "import jax.numpy as jnp\nimport numpy as np\nx = jnp.bfloat16(1) + np.uint8(1) + 1.0\n"
    (diagnostic,) = lint_source(source.encode(), "m.py", Settings(), CODES)
    assert diagnostic.code == "PRM002" and diagnostic.fix.safe
    assert fix(source, unsafe=False).endswith("x = jnp.bfloat16(1) + jnp.asarray(np.uint8(1)) + 1.0\n")


def test_fix_adds_the_jnp_import_when_missing_and_skips_noqa() -> None:
    source = "import jax\nimport numpy as np\nx = np.uint8(1) + 1.0 + jax.numpy.bfloat16(1)\n"
    assert fix(source).splitlines() == ["import jax", "import numpy as np", "import jax.numpy as jnp",
                                        "x = jnp.asarray(np.uint8(1)) + 1.0 + jax.numpy.bfloat16(1)"]  # fmt: skip
    suppressed = source.replace("(1)\n", "(1)  # noqa: PRM002\n")
    assert fix(suppressed) == suppressed


def test_note_goes_on_the_line_the_fix_changes() -> None:
    source = """\
        import jax.numpy as jnp
        if jnp.zeros(3, dtype=jnp.float64).sum() > 0:  # why
            z = jnp.ones(
                3, dtype=jnp.int64
            )
            w = jnp.ones(3,
                         dtype=jnp.int64 \\
                         )
    """
    note = "  # promolint: was {0}, which JAX truncates to {1} with x64 off"
    assert fix(source, x64="off").splitlines()[1:] == [
        "if jnp.zeros(3, dtype=jnp.float32).sum() > 0:  # why" + note.format("float64", "float32"),
        "    z = jnp.ones(",
        "        3, dtype=jnp.int32" + note.format("int64", "int32"),
        "    )",
        "    w = jnp.ones(3,",
        "                 dtype=jnp.int32 \\",  # a line that ends in a backslash takes no comment: the statement's end does
        "                 )" + note.format("int64", "int32"),
    ]


def test_passes_repeat_until_no_fix_applies() -> None:
    # Casting the inner sum (an unsafe fix: weak to strong) makes the outer one refuse in turn; the
    # inner sum is then float64 with x64 on, so the outer cast is spelled to follow x64 too.
    source = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8) + 1.0 + jnp.ones(3, jnp.bfloat16)\n"
    assert fix(source, promotion="strict").splitlines()[1] == (
        "x = jnp.ones(3, jnp.int8).astype(float) + 1.0 + jnp.ones(3, jnp.bfloat16).astype(float)"
    )
    assert not lint_source(fix(source, promotion="strict").encode(), "m.py", Settings(promotion="strict"), CODES)


# --- through the runtime --------------------------------------------------------------------
# Runs each top-level statement of a snippet with real JAX and prints the dtype and weak flag of
# every array or scalar it names, and the errors statements raised.  A standard run makes the
# code's own `with jax.numpy_dtype_promotion(...)` blocks standard too; a strict run is strict
# throughout.
RUNNER = r"""
import ast, contextlib, json, sys, warnings
import jax, numpy as np
jobs = json.load(sys.stdin)
jax.config.update("jax_enable_x64", jobs["x64"])
warnings.simplefilter("ignore")
switch = jax.numpy_dtype_promotion
out = []
for job in jobs["snippets"]:
    jax.numpy_dtype_promotion = switch if job["strict"] else (lambda mode: contextlib.nullcontext())
    names, errors = {}, []
    with switch("strict" if job["strict"] else "standard"):
        for statement in ast.parse(job["source"]).body:
            try:
                exec(compile(ast.Module([statement], []), "snippet", "exec"), names)
            except Exception as error:
                errors.append(f"line {statement.lineno}: {type(error).__name__}: {error}")
    dtypes = {name: [str(value.dtype), bool(getattr(value, "weak_type", False))] for name, value in names.items()
              if isinstance(value, (jax.Array, np.ndarray, np.generic))}
    out.append({"dtypes": dtypes, "errors": errors})
print(json.dumps(out))
"""


def run_with_jax(snippets: list[tuple[str, bool]], x64: bool = False) -> list[dict]:
    """Each (source, strict) snippet run with real JAX: its names' dtypes and its errors."""
    pytest.importorskip("jax")
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    jobs = json.dumps({"x64": x64, "snippets": [{"source": s, "strict": strict} for s, strict in snippets]})
    done = subprocess.run([sys.executable, "-c", RUNNER], input=jobs, capture_output=True, text=True, env=env,
                          timeout=300, check=True)  # fmt: skip
    return json.loads(done.stdout)


def fix_fixture(name: str, mode: str, unsafe: bool) -> str:
    data = (FIXTURES / name).read_bytes()
    settings = Settings(**{"x64": "auto", "promotion": "auto", **MODES[mode]})
    return fix_source(data, name, settings, CODES, unsafe)[0].decode()


def test_runtime_dtypes_survive_safe_fixes_and_the_strict_migration_runs_strict() -> None:
    strict_fixtures = ["PRM004_strict_promotion.py", "PRM002_mixed_dispatch.py", "realistic_optimizer.py"]
    names = strict_fixtures + ["calls", "PRM007_x64_truncation.py"]
    originals = [(FIXTURES / name).read_text() for name in strict_fixtures] + [CALLS]
    originals.append((FIXTURES / "PRM007_x64_truncation.py").read_text())
    safe = [fix_fixture(name, "strict", unsafe=False) for name in strict_fixtures]
    safe += [fix(CALLS, promotion="strict", unsafe=False), fix_fixture("PRM007_x64_truncation.py", "default", False)]
    migrated = [fix_fixture(name, "strict", unsafe=True) for name in strict_fixtures] + [safe[-2]]
    runs = run_with_jax([(s, False) for s in originals + safe] + [(s, True) for s in migrated])
    before, after, strict = runs[: len(originals)], runs[len(originals) : 2 * len(originals)], runs[2 * len(originals) :]
    for name, was, now in zip(names, before, after):
        assert now["dtypes"] == was["dtypes"], name
        assert now["errors"] == was["errors"], name
    for name, run in zip(names, strict):
        assert not run["errors"], f"{name} under strict promotion after the migration: {run['errors']}"
    # PRM004's own fixture: the unsafe fixes change weak flags, never dtypes.
    dtypes = {name: dtype for name, (dtype, _) in strict[0]["dtypes"].items()}
    assert dtypes == {name: dtype for name, (dtype, _) in before[0]["dtypes"].items()}


def test_runtime_python_scalar_fix_keeps_the_jax_dtype_under_x64() -> None:
    """PRM001's fix changes the dtype it fixes under x64 (its purpose; so it is unsafe) and
    nothing else, in either mode."""
    original = (FIXTURES / "PRM001_implicit_x64.py").read_text()
    assert fix_fixture("PRM001_implicit_x64.py", "x64", unsafe=False) == original
    fixed = fix_source(original.encode(), "PRM001_implicit_x64.py", Settings("on"), frozenset({"PRM001"}),
                       unsafe=True)[0].decode()  # fmt: skip
    assert "scaled = params / math.sqrt(n)" in fixed
    (was, now), (was32, now32) = run_with_jax([(original, False), (fixed, False)], x64=True), run_with_jax(
        [(original, False), (fixed, False)])  # fmt: skip
    changed = {"scaled"}
    assert was["dtypes"]["scaled"] == ["float64", False] and now["dtypes"]["scaled"] == ["float32", False]
    assert {k: v for k, v in now["dtypes"].items() if k not in changed} == {
        k: v for k, v in was["dtypes"].items() if k not in changed}  # fmt: skip
    assert now32["dtypes"] == was32["dtypes"]


def test_an_integer_put_before_an_attribute_gets_parentheses() -> None:
    from promolint.fix.edits import apply_fixes
    from promolint.engine.walker.source import parse_bytes
    from promolint.rules.base import Edit, Fix

    data = b"x = np.int64(3).real + np.int64(4)\n"
    source = parse_bytes(data)
    value = source.tree.body[0].value
    edits = (Edit(value.left.value, "3"), Edit(value.right, "4"))
    fixed, count = apply_fixes(data, source, [Fix("literal", edits, safe=True)])
    assert count == 1 and fixed == b"x = (3).real + 4\n"

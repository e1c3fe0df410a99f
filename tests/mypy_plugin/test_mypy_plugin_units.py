"""The plugin's parts: error codes, configuration and cache data, tags, mypy's suppression
switches, and the dtype a reported operation leaves on mypy's type."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mypy.errorcodes import error_codes
from mypy.options import Options
from mypy.plugin import ReportConfigContext

from promolint.engine.values import Array, Library
from promolint.rules import ALL_RULES
from promolint_mypy import errorcodes
from promolint_mypy.plugin import PromolintPlugin
from promolint_mypy.translate import decode, encode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mypy_harness as harness

OVERFLOW = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8)\ny = x + 1000\n"


def test_one_error_code_per_rule() -> None:
    for rule in ALL_RULES:
        code = errorcodes.error_code(rule)
        assert code.code == f"promolint-{rule.name}"
        assert error_codes[code.code] is code
        assert errorcodes.BY_RULE_CODE[rule.code] is code, f"add {rule.code} to promolint_mypy.errorcodes"
    assert set(errorcodes.BY_RULE_CODE) == {rule.code for rule in ALL_RULES}


def _plugin(tmp_path: Path, table: str | None) -> PromolintPlugin:
    if table is not None:
        (tmp_path / "pyproject.toml").write_text(f"[tool.mypy]\n\n[tool.promolint]\n{table}\n")
    options = Options()
    options.config_file = str(tmp_path / "pyproject.toml")
    return PromolintPlugin(options)


def test_report_config_data_follows_the_promolint_table(tmp_path: Path) -> None:
    user = ReportConfigContext("pkg.mod", str(tmp_path / "pkg" / "mod.py"), True)
    on = _plugin(tmp_path, 'x64 = "on"').report_config_data(user)
    off = _plugin(tmp_path, 'x64 = "off"').report_config_data(user)
    assert isinstance(on, str) and on != off
    assert on == _plugin(tmp_path, 'x64 = "on"').report_config_data(user)  # stable, so the cache holds
    assert json.loads(json.dumps(on)) == on  # mypy stores it as JSON
    library = ReportConfigContext("numpy", "/venv/lib/python3.11/site-packages/numpy/__init__.pyi", True)
    assert _plugin(tmp_path, 'x64 = "on"').report_config_data(library) is None
    jnp = ReportConfigContext("jax.numpy", "/venv/lib/python3.11/site-packages/jax/numpy/__init__.pyi", True)
    assert _plugin(tmp_path, 'x64 = "on"').report_config_data(jnp) == _plugin(tmp_path, "").report_config_data(jnp)


def test_config_is_found_above_mypys_config_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "on"\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mypy.ini").write_text("[mypy]\nplugins = promolint_mypy\n")
    options = Options()
    options.config_file = str(tmp_path / "sub" / "mypy.ini")
    plugin = PromolintPlugin(options)
    assert plugin._raw.table == {"x64": "on"} and plugin._raw.pyproject == str(tmp_path / "pyproject.toml")


@pytest.mark.parametrize("value", [
    Array(frozenset({"int8"}), Library.JAX, False),
    Array(frozenset({"float16", "float32"}), Library.NUMPY_ARRAY, None, intended64=True),
    Array(frozenset({"float64"}), Library.NUMPY_SCALAR, True),
])  # fmt: skip
def test_tags_round_trip(value: Array) -> None:
    assert decode(encode(value)) == value


def test_json_output_and_error_code_switches(tmp_path: Path) -> None:
    root = harness.prepare(tmp_path / "project")
    (root / "mod.py").write_text(OVERFLOW)
    result = harness.run_mypy_raw(root, ["mod.py"], ["-O", "json"])
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [(r["line"], r["code"], r["severity"]) for r in records] == [(3, "promolint-literal-overflow", "error")]
    # (A global disable_error_code changes every module's options, and so mypy's whole cache:
    # a per-module override shows the same switch and keeps the test fast.)
    (root / "other.py").write_text(OVERFLOW)
    harness.write_project(root, mypy_extra='[[tool.mypy.overrides]]\nmodule = "mod"\n'
                                           'disable_error_code = ["promolint-literal-overflow"]')  # fmt: skip
    assert {m.path for m in harness.run_mypy(root, ["mod.py", "other.py"])} == {"other.py"}


def test_promolint_configuration(tmp_path: Path) -> None:
    root = harness.prepare(tmp_path / "project", {"per-file-ignores": {"quiet.py": ["PRM006"]},
                                                  "extend-exclude": ["skipped.py"]})  # fmt: skip
    for name in ("loud.py", "quiet.py", "skipped.py"):
        (root / name).write_text(OVERFLOW)
    found = {(m.path, m.rule_code) for m in harness.run_mypy(root, ["loud.py", "quiet.py", "skipped.py"])}
    assert found == {("loud.py", "PRM006")}


def test_invalid_configuration_is_reported_once(tmp_path: Path) -> None:
    root = harness.prepare(tmp_path / "project", {"x64": "sometimes"})
    (root / "a.py").write_text(OVERFLOW)
    (root / "b.py").write_text(OVERFLOW)
    messages = harness.run_mypy(root, ["a.py", "b.py"])
    config = [m for m in messages if m.code == "promolint-config"]
    assert len(config) == 1 and "x64" in config[0].message
    assert {(m.path, m.rule_code) for m in messages if m.rule_code} == {("a.py", "PRM006"), ("b.py", "PRM006")}


_TAGS_SCRIPT = """
import json, sys
from mypy import build
from mypy.main import process_options
from mypy.types import get_proper_type
from promolint_mypy import tags
sources, options = process_options(["--config-file", "pyproject.toml", *sys.argv[1:]])
result = build.build(sources, options)
tree = result.files["mod"]
out = {}
for name, symbol in tree.names.items():
    typ = getattr(symbol.node, "type", None)
    if typ is not None:
        proper = get_proper_type(typ)
        out[name] = [getattr(getattr(proper, "type", None), "fullname", str(proper)), tags.read(proper)]
print(json.dumps(out))
"""


def test_reported_operations_keep_their_type_and_dtype(tmp_path: Path) -> None:
    """The dtype of an operation the plugin reports survives on mypy's type (what other modules,
    the cache and the daemon read): no retry of the reflected operator, no Any."""
    root = harness.prepare(tmp_path / "project")
    (root / "mod.py").write_text(
        "import jax.numpy as jnp\nimport numpy as np\n"
        "i8 = jnp.ones(3, jnp.int8)\n"
        "wrapped = i8 + 1000\n"  # reported by Array.__add__
        "reflected = 1000 + i8\n"  # reported by Array.__radd__
        "compared = i8 == 1000\n"  # reported by Array.__eq__
        "numpy_first = np.ones(3, np.int8) + i8\n"  # NumPy's stubs say ndarray
    )
    result = subprocess.run([sys.executable, "-c", _TAGS_SCRIPT, *harness.MYPY_OPTIONS, "mod.py"], check=False, cwd=root,
                            capture_output=True, text=True, env=harness._environment(), timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    types = json.loads(result.stdout.splitlines()[-1])
    array = "jax._src.basearray.Array"
    for name in ("wrapped", "reflected", "numpy_first"):
        fullname, tag = types[name]
        assert fullname == array, (name, fullname)
        assert decode(tag) is not None and decode(tag).dtypes == {"int8"} and decode(tag).library is Library.JAX
    fullname, tag = types["compared"]
    assert fullname == array and decode(tag).dtypes == {"bool"}


def test_installed_packages_are_left_alone() -> None:
    plugin = PromolintPlugin(Options())
    assert plugin.is_library(os.path.join(os.sep, "venv", "lib", "site-packages", "jax", "numpy", "__init__.pyi"))
    assert not plugin.is_library(str(harness.REPO / "fixtures" / "PRM001_implicit_x64.py"))


_BINDER_SCRIPT = """
import json, sys
from mypy import build
from mypy.main import process_options
from mypy.nodes import NameExpr
from mypy.types import get_proper_type
from promolint_mypy import tags
sources, options = process_options(["--config-file", "pyproject.toml", *sys.argv[1:]])
options.export_types = True
result = build.build(sources, options)
uses = {}
for node, typ in result.types.items():
    if isinstance(node, NameExpr) and node.name == "x":
        uses.setdefault(node.line, tags.read(get_proper_type(typ)))
print(json.dumps({"uses": uses, "errors": result.errors}))
"""


def test_stale_binder_tags_stay_silent(tmp_path: Path) -> None:
    """Why the plugin never reads a variable's dtype from mypy's current type: after a merge the
    binder still holds the pre-branch type, int8 tag included, where x may well be int32.  A
    plugin that trusted it would report these lines; this one is silent there."""
    root = harness.prepare(tmp_path / "project")
    source = harness.CASES / "stale_merges.py"
    (root / "mod.py").write_text(source.read_text())
    result = subprocess.run([sys.executable, "-c", _BINDER_SCRIPT, *harness.MYPY_OPTIONS, "mod.py"], check=False,
                            cwd=root,
                            capture_output=True, text=True, env=harness._environment(), timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    lines = source.read_text().splitlines()
    silent = [n for n, line in enumerate(lines, 1) if "x + 1000" in line and "silent" in line]
    stale = [n for n in silent if (tag := report["uses"].get(str(n))) and decode(tag).dtypes == {"int8"}]
    # maybe = x + 1000, first_pass, after, handled: mypy's type says int8 where x may be int32.
    assert len(stale) >= 4, f"mypy's binder no longer keeps stale tags here: {report['uses']}"
    reported = {int(line.split(":")[1]) for line in report["errors"] if "promolint-" in line}
    assert not reported & set(silent)

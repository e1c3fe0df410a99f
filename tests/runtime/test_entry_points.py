"""`promolint run`, the import hook and the pytest plugin: whole modules instrumented as they
are imported, with the same checks as @verify."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from promolint.runtime import ShimWarning, units, verifying

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXAMPLE_PKG = HERE / "example_pkg"


def _environment(*paths: Path) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "PROMOLINT_"))}
    environment["JAX_PLATFORMS"] = "cpu"
    environment["PYTHONPATH"] = os.pathsep.join([*map(str, paths), str(ROOT), environment.get("PYTHONPATH", "")])
    return environment


def test_promolint_run_reports_the_script_and_included_packages(tmp_path):
    script = tmp_path / "main.py"
    script.write_text(textwrap.dedent("""
        import sys
        import jax.numpy as jnp
        from example_pkg import rescale
        y = rescale(jnp.ones(3, jnp.float32)) + 1
        print(y.dtype, sys.argv[1:])
    """))
    report = tmp_path / "report.json"
    process = subprocess.run(
        [sys.executable, "-m", "promolint.runtime.run", "--mode", "report", "--report", str(report),
         "--include", "example_pkg", str(script), "--flag", "value"],
        env=_environment(EXAMPLE_PKG), cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    assert process.stdout == "float32 ['--flag', 'value']\n"  # the script's own argv
    assert "promolint runtime:" in process.stderr and "0 disagree" in process.stderr
    data = json.loads(report.read_text())
    files = {Path(site["path"]).name for site in data["sites"]}
    assert {"main.py", "ops.py"} <= files  # the script and the included package's module
    assert data["counts"]["agree"] > 10 and data["counts"]["disagree"] == 0


def test_promolint_run_raise_mode_stops_at_the_first_disagreement(tmp_path):
    process = subprocess.run(
        [sys.executable, "-m", "promolint.runtime.run", "--mode", "raise", str(HERE / "examples" / "planted_script.py")],
        env=_environment(), cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert process.returncode == 1
    assert "not reached" not in process.stdout
    assert "PromotionMismatch" in process.stderr and "planted_script.py:11" in process.stderr
    assert 'File "' + str(HERE / "examples" / "planted_script.py") in process.stderr  # the traceback starts in the script


def test_promolint_run_passes_the_script_exit_status_through(tmp_path):
    script = tmp_path / "exits.py"
    script.write_text("import sys\nsys.exit(3)\n")
    process = subprocess.run([sys.executable, "-m", "promolint.runtime.run", str(script)], env=_environment(),
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert process.returncode == 3


def test_import_hook_instruments_included_packages_only(tmp_path, monkeypatch):
    package = tmp_path / "hooked_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("import numpy as np\nVALUE = np.float16(1) + np.int8(1)\n")
    (tmp_path / "other_mod.py").write_text("import numpy as np\nVALUE = np.float16(1) + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with verifying(mode="report", include=["hooked_pkg"]) as session:
        import hooked_pkg  # noqa: F401
        import other_mod  # noqa: F401
    files = {Path(r.path).name for r in session.records.values()}
    assert files == {"__init__.py"}
    assert {r.text: r.outcome for r in session.records.values()}["np.float16(1) + np.int8(1)"] == "agree"
    for name in ("hooked_pkg", "other_mod"):
        sys.modules.pop(name)


def test_a_module_the_shim_cannot_instrument_still_runs(tmp_path, monkeypatch):
    (tmp_path / "fragile_mod.py").write_text("import numpy as np\nVALUE = np.float16(1) + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def broken(*args, **kwargs):
        raise RuntimeError("cannot instrument")

    monkeypatch.setattr(units.ModuleUnit, "__init__", broken)
    with verifying(mode="warn", include=["fragile_mod"]) as session, pytest.warns(ShimWarning, match="cannot instrument"):
        import fragile_mod
    assert fragile_mod.VALUE == 2.0 and session.shim_errors
    sys.modules.pop("fragile_mod")


def test_the_pytest_plugin_is_registered_by_the_installed_package():
    """pyproject.toml declares the plugin as a ``pytest11`` entry point named by its module."""
    from importlib.metadata import entry_points

    assert [e.value for e in entry_points(group="pytest11") if e.name == "promolint.runtime.pytest_plugin"] == [
        "promolint.runtime.pytest_plugin"
    ]


def test_the_pytest_plugin_loads_nothing_heavy_unless_asked():
    """Registered in every pytest run where promolint is installed: importing it must not load
    the shim, libcst or the engine."""
    code = ("import sys, promolint.runtime.pytest_plugin\n"
            "print(sorted(m for m in ('libcst', 'promolint.runtime.session', 'promolint.runtime.units', 'promolint.engine.calls', 'jax') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("mode", "option"), [("report", []), ("warn", ["-p", "promolint.runtime.pytest_plugin"])])
def test_pytest_plugin_checks_the_package_under_its_own_tests(mode, option, tmp_path):
    """With the entry point alone, and with an explicit ``-p`` too (not registered twice)."""
    report = tmp_path / "report.json"
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *option,
         "--promolint-verify=example_pkg", f"--promolint-mode={mode}", f"--promolint-report={report}"],
        env=_environment(EXAMPLE_PKG), cwd=EXAMPLE_PKG, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert process.returncode == 0, process.stdout + process.stderr
    assert "4 passed" in process.stdout
    assert "promolint runtime: " in process.stdout and " 0 disagree" in process.stdout
    data = json.loads(report.read_text())
    assert {Path(site["path"]).name for site in data["sites"]} == {"ops.py", "mix.py"}
    # Every site of the package's functions is typed from the arguments its tests pass.
    assert data["counts"]["agree"] >= 20 and data["counts"]["unknown"] == 0 and data["counts"]["disagree"] == 0


def test_pytest_plugin_predicts_from_the_code_alone(tmp_path):
    """``--promolint-predict=code``: the package's parameters are typed as `promolint check` types
    them (``x: jax.Array`` is a variable over JAX's dtypes), so what depends on them is predicted
    as a function of them, evaluated at each call's types; the module-level sites agree too, and
    the report says how many observed array sites had a prediction."""
    report = tmp_path / "report.json"
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--promolint-verify=example_pkg",
         "--promolint-mode=report", "--promolint-predict=code", f"--promolint-report={report}"],
        env=_environment(EXAMPLE_PKG), cwd=EXAMPLE_PKG, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert process.returncode == 0, process.stdout + process.stderr
    assert "predicted from the code:" in process.stdout
    data = json.loads(report.read_text())
    assert data["predict"] == "code" and data["counts"]["disagree"] == 0
    outcomes = {site["text"]: site["outcome"] for site in data["sites"]}
    assert outcomes["x * scale"] == "agree" and outcomes["jnp.arange(3, dtype=jnp.int8) + 1"] == "agree"
    # mix.py's values from ops.py, predicted as `promolint check example_pkg` reads them
    assert outcomes["OFFSETS * DEFAULT_SCALE"] == "agree"
    coverage = data["coverage"]
    assert 0 < coverage["predicted_sites"] <= coverage["array_sites"]


def _write_package(root: Path, name: str, files: dict[str, str]) -> None:
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("")
    for file, text in files.items():
        (root / file).write_text(textwrap.dedent(text))


@pytest.mark.parametrize(("package", "module", "reason"), [
    ("example_pkgs", "", "no module of example_pkgs was imported while the tests ran"),  # a misspelt name
    ("quiet_pkg", "LABEL = 'no arrays here'\n", "module(s) of quiet_pkg instrumented, but the tests evaluated none"),
])  # fmt: skip
def test_pytest_plugin_that_checks_nothing_says_so_and_fails(package, module, reason, tmp_path):
    if module:
        _write_package(tmp_path, package, {f"{package}/labels.py": module,
                                           "test_labels.py": f"from {package}.labels import LABEL\n\n"
                                                             "def test_label():\n    assert LABEL\n"})  # fmt: skip
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--promolint-verify={package}",
         *([] if module else [str(EXAMPLE_PKG / "tests")])],
        env=_environment(EXAMPLE_PKG, tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert process.returncode == 4, process.stdout + process.stderr  # the tests pass; the check did nothing
    assert " passed" in process.stdout and " failed" not in process.stdout
    assert "WARNING: --promolint-verify checked nothing: " in process.stdout and reason in process.stdout


def test_pytest_plugin_instruments_beside_jaxtypings_import_hook(tmp_path):
    """``--jaxtyping-packages`` rewrites the same modules (a beartype check on every function):
    both apply.  The shim evaluates the package's sites, and jaxtyping still refuses an int32
    array where ``Float[Array, "n"]`` is asked for."""
    pytest.importorskip("beartype")
    _write_package(tmp_path, "typed_pkg", {
        "typed_pkg/scaling.py": """
            import jax.numpy as jnp
            from jaxtyping import Array, Float

            def scale(x: Float[Array, "n"], k: float) -> Float[Array, "n"]:
                return x * k + jnp.ones(x.shape, jnp.float16)
        """,
        "test_scaling.py": """
            import jax.numpy as jnp
            import pytest
            from jaxtyping import TypeCheckError
            from typed_pkg.scaling import scale

            def test_scale():
                assert scale(jnp.ones(3, jnp.float32), 2.0).dtype == jnp.float32

            def test_jaxtyping_checks_the_arguments():
                with pytest.raises(TypeCheckError, match="parameter 'x'"):
                    scale(jnp.ones(3, jnp.int32), 2.0)
        """,
    })  # fmt: skip
    report = tmp_path / "report.json"
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--jaxtyping-packages=typed_pkg,beartype.beartype", "--promolint-verify=typed_pkg", "--promolint-mode=report",
         f"--promolint-report={report}"],
        env=_environment(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert process.returncode == 0, process.stdout + process.stderr
    assert "2 passed" in process.stdout and "checked nothing" not in process.stdout
    data = json.loads(report.read_text())
    assert {Path(site["path"]).name for site in data["sites"]} == {"scaling.py"}
    assert data["counts"]["evaluations"] >= 4 and data["counts"]["disagree"] == 0

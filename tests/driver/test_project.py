"""The project pre-scan (``promolint.driver.project``): PRM007 says x64 is off only where no module of
the project may have turned it on, and the CLI feeds the scan every file of the run."""

from __future__ import annotations

from pathlib import Path

from promolint.cli.main import main
from promolint.engine.project_facts import ProjectFacts
from promolint.driver.project import project_facts

TRUNCATED = "import jax.numpy as jnp\nz = jnp.zeros(3, dtype=jnp.float64)\n"


def x64(facts: ProjectFacts) -> ProjectFacts:
    """The facts on the x64 mode alone (the project pass also names the modules a file reads)."""
    return ProjectFacts(facts.x64_at_import, facts.x64_elsewhere)


def write(root: Path, files: dict[str, str]) -> list[tuple[Path, bytes]]:
    out = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        out.append((path, text.encode()))
    return out


def test_a_package_init_that_sets_x64_decides_its_modules(tmp_path) -> None:
    files = write(tmp_path, {"pkg/__init__.py": "import jax\njax.config.update('jax_enable_x64', True)\n",
                             "pkg/m.py": TRUNCATED, "other.py": TRUNCATED})  # fmt: skip
    facts = project_facts(files)
    assert x64(facts[str(tmp_path / "pkg/m.py")]) == ProjectFacts(x64_at_import=True)
    # A module outside the package may run without it: x64 may be on or off there.
    assert x64(facts[str(tmp_path / "other.py")]) == ProjectFacts(None, x64_elsewhere=True)


def test_an_imported_module_that_switches_x64_on_unless_on_counts_as_setting_it(tmp_path) -> None:
    files = write(tmp_path, {
        "lib/__init__.py": "",
        "lib/precision.py": "import jax\nif not jax.config.read('jax_enable_x64'):\n"
                            "    jax.config.update('jax_enable_x64', True)\n",
        "lib/model.py": "from lib import precision\n" + TRUNCATED,
    })  # fmt: skip
    assert x64(project_facts(files)[str(tmp_path / "lib/model.py")]) == ProjectFacts(x64_at_import=True)


def test_files_that_never_name_the_option_have_no_facts(tmp_path) -> None:
    assert project_facts(write(tmp_path, {"m.py": TRUNCATED})) == {}


def test_check_reports_truncation_only_where_x64_is_off_for_sure(tmp_path, capsys) -> None:
    write(tmp_path, {"pkg/__init__.py": "import jax\njax.config.update('jax_enable_x64', False)\n",
                     "pkg/m.py": TRUNCATED})  # fmt: skip
    assert main(["check", "--no-cache", str(tmp_path / "pkg")]) == 1
    # Set off by the code only: an importer may turn it on again, so the fix is unsafe.
    assert "m.py:2:5: PRM007 float64 requested" in capsys.readouterr().out
    # A conftest that turns it on in a hook: x64 may be on anywhere in the project.
    write(tmp_path, {"pkg/conftest.py": "import jax\ndef pytest_configure():\n"
                                        "    jax.config.update('jax_enable_x64', True)\n"})  # fmt: skip
    assert main(["check", "--no-cache", str(tmp_path / "pkg")]) == 0
    assert main(["check", "--no-cache", str(tmp_path / "pkg" / "m.py")]) == 0  # the file alone: nothing says off
    assert main(["check", "--no-cache", "--x64", "off", str(tmp_path / "pkg" / "m.py")]) == 1
    assert "m.py:2:5: PRM007 [*] float64 requested" in capsys.readouterr().out


def test_a_module_that_only_turns_x64_off_leaves_the_others_alone(tmp_path) -> None:
    files = write(tmp_path, {"scripts/run.py": "import jax\njax.config.update('jax_enable_x64', False)\n",
                             "lib.py": TRUNCATED})  # fmt: skip
    assert str(tmp_path / "lib.py") not in project_facts(files)  # off is JAX's default anyway


def _callers(tmp_path: Path, files: dict[str, str], module: str) -> tuple[tuple[str, ...], bool]:
    facts = project_facts(write(tmp_path, files), x64=False)
    found = next((f for path, f in facts.items() if path.endswith(module)), ProjectFacts())
    return found.callers, found.callers_complete


def test_a_modules_callers_are_the_modules_that_import_it_and_name_its_functions_farthest_first(tmp_path) -> None:
    """`app` reaches `core` through the package's re-export (two imports away) and names
    `step`: it runs first; `sibling` imports `pkg.other`, which runs the package's `__init__`
    but binds none of `core`'s names; `quiet` imports `pkg` and names no function of `core`,
    so the callers are not all that import it."""
    files = {"pkg/__init__.py": "from pkg.core import step\n",
             "pkg/core.py": "def step(x):\n    return x\n",
             "pkg/other.py": "X = 1\n",
             "app.py": "import pkg\n\ndef main():\n    return pkg.step(1)\n",
             "sibling.py": "from pkg.other import X\nstep = X\n",
             "quiet.py": "import pkg\n\nVALUE = 2\n"}  # fmt: skip
    assert _callers(tmp_path, files, "core.py") == (("app", "pkg"), False)
    assert _callers(tmp_path, {**files, "quiet.py": "VALUE = 2\n"}, "core.py") == (("app", "pkg"), True)


def test_a_module_that_reads_names_by_a_computed_name_is_a_caller_and_too_many_callers_are_none(tmp_path) -> None:
    files = {"pkg/__init__.py": "", "pkg/core.py": "def step(x):\n    return x\n",
             "dyn.py": "from pkg import core\n\ndef pick(name):\n    return getattr(core, name)\n",
             "literal.py": "from pkg import core\n\nf = getattr(core, 'other')\n"}  # fmt: skip
    assert _callers(tmp_path, files, "core.py") == (("dyn",), False)
    many = {f"user{i}.py": "from pkg.core import step\nstep(1)\n" for i in range(9)}
    assert _callers(tmp_path, {**files, **many}, "core.py") == ((), True)

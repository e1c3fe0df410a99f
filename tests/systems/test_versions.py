"""The facts per JAX version, chosen by the JAX installed in the linted environment (read from a
``jax-*.dist-info``, never imported) or by `jax-version`, with the pinned version's as the fallback.

The expected values were measured on Python 3.12.1 with jax[cpu] 0.11.0, 0.11.1, 0.11.2, 0.12.0
and 0.12.0.1 (the last in the environment ``tests/newest_versions.py`` makes, with numpy 2.5.5 and
ml_dtypes 0.7.0) and on the pinned 0.10.2::

    jnp.log2(jnp.asarray(2.0)).weak_type                            # True from 0.11.2 (before: False)
    jnp.hypot(jnp.asarray(2.0), jnp.ones(3, jnp.int32)).weak_type   # True from 0.12.0 (before: False)
    jnp.hypot(2.0, jnp.ones(3, jnp.float32)).weak_type              # False in all
    jnp.log10(jnp.asarray(2.0)).weak_type                           # False in all
    jnp.linalg.cholesky(jnp.eye(2, dtype=jnp.float16))  # TypeError from 0.11.1 ("cholesky does not
        # accept dtype float16"), NotImplementedError before; inv, solve, eigh alike
    jnp.ones(3, jnp.float6_e2m3fn) < jnp.ones(3, jnp.float6_e2m3fn)  # from 0.11.0: JaxRuntimeError,
        # INTERNAL: RET_CHECK failure (XLA's CPU compiler: "Invalid bitcast i6 to i8"), so the
        # engine claims no dtype; 0.10.2 cannot make the arrays on CPU (promolint claims bool)

and on jax[cpu] 0.12.1 (Python 3.12.1, numpy 2.5.5, ml_dtypes 0.7.0)::

    jax.scipy.special.betaln(2.0, 3.0).weak_type                    # False from 0.12.1 (before: True)
    jnp.kron(jnp.ones(2, bool), jnp.ones(2, bool)).dtype            # bool from 0.12.1 (before: TypeError,
        # "mul does not accept dtype bool")
    sorted(str(t) for t in jax._src.dtypes._jax_types)              # adds complex32, bcomplex32 and
        # float8_e5m3fnu in 0.12.1, which promolint does not model
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from promolint.cli.main import main
from promolint.engine.context import Context
from promolint.systems.jax_versions import JAX_FACTS, PINNED, facts_for, select

DRIFTED = textwrap.dedent("""\
    import jax.numpy as jnp
    log2 = jnp.log2(jnp.asarray(2.0))
    hypot = jnp.hypot(jnp.asarray(2.0), jnp.ones(3, jnp.int32))
    strong = jnp.hypot(2.0, jnp.ones(3, jnp.float32))
    log10 = jnp.log10(jnp.asarray(2.0))
    cholesky = jnp.linalg.cholesky(jnp.eye(2, dtype=jnp.float16))
    inv = jnp.linalg.inv(jnp.eye(2, dtype=jnp.float16))
    float6 = jnp.ones(3, jnp.float6_e2m3fn) < jnp.ones(3, jnp.float6_e2m3fn)
""")
JAX_0_12 = {"log2": "weak float32", "hypot": "weak float32", "strong": "float32", "log10": "float32",
            "cholesky": "TypeError", "inv": "TypeError", "float6": "unknown (jax)"}  # fmt: skip
JAX_0_10_2 = {"log2": "float32", "hypot": "float32", "strong": "float32", "log10": "float32",
              "cholesky": "NotImplementedError", "inv": "NotImplementedError", "float6": "bool"}  # fmt: skip


def fake_environment(root, jax_version: str | None):
    """A virtual environment's folders with JAX's metadata only (no code: nothing could import it)."""
    site_packages = root / "lib" / "python3.12" / "site-packages"
    site_packages.mkdir(parents=True)
    if jax_version:
        dist_info = site_packages / f"jax-{jax_version}.dist-info"
        dist_info.mkdir()
        (dist_info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: jax\nVersion: {jax_version}\n")
    return root


def revealed(path, environment: dict[str, str]) -> dict[str, str]:
    """``promolint reveal``'s line for each variable assigned at the top of ``path``."""
    run = subprocess.run([sys.executable, "-m", "promolint", "reveal", str(path)], capture_output=True, text=True,
                         env=environment, timeout=120)  # fmt: skip
    out = {}
    for line in run.stdout.splitlines():
        _, _, column, rest = line.split(":", 3)
        if column == "1" and ": " in rest:
            name, said = rest.strip().split(": ", 1)
            out[name] = said.split(":")[0].removesuffix(" [jax]")
    return out


def test_the_installed_jax_in_the_linted_environment_chooses_the_facts(tmp_path):
    venv = fake_environment(tmp_path / "venv", "0.12.0.1")
    selection = select(environment={"VIRTUAL_ENV": str(venv)})
    assert selection.facts.version == "0.12.0" and selection.version == "0.12.0.1"
    assert str(venv) in selection.origin


def test_without_jax_the_pinned_facts_stand_in(tmp_path):
    venv = fake_environment(tmp_path / "venv", None)
    selection = select(environment={"VIRTUAL_ENV": str(venv)})
    assert selection.facts is JAX_FACTS[0] and selection.version == PINNED and "pinned" in selection.origin


def test_the_setting_wins_over_the_environment(tmp_path):
    venv = fake_environment(tmp_path / "venv", "0.12.0.1")
    selection = select("0.10.2", environment={"VIRTUAL_ENV": str(venv)})
    assert selection.facts.version == PINNED and selection.origin == "jax-version"


@pytest.mark.parametrize(("version", "facts"), [
    ("0.9.0", PINNED), ("0.10.2", PINNED), ("0.11.0", "0.11.0"), ("0.11.1", "0.11.1"), ("0.11.2", "0.11.2"),
    ("0.12.0rc1", "0.12.0"), ("0.12.0.1", "0.12.0"), ("0.12.1", "0.12.1"), ("0.13", "0.12.1"),
])  # fmt: skip
def test_a_version_takes_the_facts_of_the_newest_measured_at_or_below_it(version, facts):
    assert facts_for(version).version == facts


NEWER = textwrap.dedent("""\
    import jax.numpy as jnp
    from jax.scipy.special import betaln
    beta = betaln(2.0, 3.0)
    kron = jnp.kron(jnp.ones(2, bool), jnp.ones(2, bool))
    new = jnp.ones(3, jnp.complex32) * 2
""")


@pytest.mark.parametrize(("version", "beta", "kron"), [
    ("0.12.0.1", "weak float32", "TypeError"), ("0.12.1", "float32", "bool"),
])  # fmt: skip
def test_reveal_follows_jax_0_12_1(tmp_path, version, beta, kron):
    """0.12.1's betaln is strong and its kron takes bools; its new dtypes get no claim."""
    source = tmp_path / "newer.py"
    source.write_text(NEWER)
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
                   "VIRTUAL_ENV": str(fake_environment(tmp_path / "venv", version))}  # fmt: skip
    said = revealed(source, environment)
    assert (said["beta"], said["kron"], said["new"]) == (beta, kron, "unknown (jax)")


def test_reveal_follows_the_jax_of_the_linted_environment(tmp_path):
    source = tmp_path / "drifted.py"
    source.write_text(DRIFTED)
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    newest = revealed(source, {**environment, "VIRTUAL_ENV": str(fake_environment(tmp_path / "new", "0.12.0.1"))})
    pinned = revealed(source, {**environment, "VIRTUAL_ENV": str(fake_environment(tmp_path / "old", "0.10.2"))})
    assert newest == JAX_0_12 and pinned == JAX_0_10_2


def test_the_context_carries_a_set_version():
    assert Context(jax_version="0.12.1").jax_facts.linalg_float16_error == "TypeError"
    assert Context(jax_version="0.10.2").jax_facts.linalg_float16_error == "NotImplementedError"


def test_config_names_the_facts_versions(tmp_path, capsys):
    import ml_dtypes
    import numpy as np

    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\njax-version = "0.12.0.1"\n')
    assert main(["config", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert 'jax-version = "0.12.0.1"  # pyproject.toml' in out.splitlines()
    facts = next(line for line in out.splitlines() if line.startswith("# facts: "))
    assert "jax 0.12.0 facts, for jax 0.12.0.1 (jax-version)" in facts
    assert f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}" in facts


@pytest.mark.parametrize("value", ['"latest"', '"0.12.x"', "12"])
def test_a_bad_jax_version_exits_2_in_one_line(tmp_path, capsys, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.promolint]\njax-version = {value}\n")
    assert main(["config", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "jax-version" in err and "is not a JAX version" in err and len(err.strip().splitlines()) == 1


def test_a_bad_jax_version_flag_exits_2(tmp_path, capsys):
    assert main(["config", str(tmp_path), "--jax-version", "newest"]) == 2
    assert "is not a JAX version" in capsys.readouterr().err


def test_the_setting_reaches_reveal(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\njax-version = "0.12.0.1"\n')
    (tmp_path / "drifted.py").write_text(DRIFTED)
    main(["reveal", str(tmp_path / "drifted.py")])
    lines = capsys.readouterr().out.splitlines()
    assert any(line.endswith(":2:1: log2: weak float32 [jax]") for line in lines)
    assert any(line.endswith(":6:1: cholesky: TypeError: array type float16 is unsupported in linalg.cholesky")
               for line in lines)  # fmt: skip


def test_results_cached_with_one_versions_facts_are_not_anothers(tmp_path):
    from dataclasses import replace

    from promolint.driver.config import Config
    from promolint.driver.runner import open_cache

    config = Config(root=tmp_path, jax_version="0.10.2")
    assert open_cache(config).path != open_cache(replace(config, jax_version="0.12.0")).path


def test_installed_versions_come_from_the_metadata_folders_names(tmp_path):
    from promolint.systems.installed import versions

    first, second = tmp_path / "first", tmp_path / "second"
    for folder, entries in ((first, ("ml_dtypes-0.7.0.dist-info", "jaxlib-0.12.0.1.dist-info")),
                            (second, ("ml-dtypes-0.6.0.dist-info", "numpy-2.4.6-py3.11.egg-info", "jax"))):  # fmt: skip
        for entry in entries:
            (folder / entry).mkdir(parents=True)
    found = versions([str(tmp_path / "missing"), str(first), str(second)], ("numpy", "ml_dtypes", "jax"))
    assert found == {"ml_dtypes": "0.7.0", "numpy": "2.4.6"}  # jaxlib is not jax, nor a bare `jax` folder


@pytest.mark.parametrize(("version", "log2", "hypot", "cholesky", "float6"), [
    ("0.11.0", "float32", "float32", "NotImplementedError", "unknown (jax)"),
    ("0.11.1", "float32", "float32", "TypeError", "unknown (jax)"),
    ("0.11.2", "weak float32", "float32", "TypeError", "unknown (jax)"),
])  # fmt: skip
def test_reveal_follows_each_measured_version(tmp_path, version, log2, hypot, cholesky, float6):
    source = tmp_path / "drifted.py"
    source.write_text(DRIFTED)
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
                   "VIRTUAL_ENV": str(fake_environment(tmp_path / "venv", version))}  # fmt: skip
    said = revealed(source, environment)
    assert (said["log2"], said["hypot"], said["cholesky"], said["float6"]) == (log2, hypot, cholesky, float6)

"""Every command and front end goes through the driver's per-file jobs (``promolint.driver.jobs``):
`check`, `check --fix`, `reveal`, the flake8 plugin, libcst's findings and codemod, Fixit and the
language server.  Each test stands a spy in for the job in-process and sees it called for the
file, with what the front end reports coming from it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from promolint.cli.main import main
from promolint.driver import jobs

SOURCE = "import jax.numpy as jnp\n\nx = jnp.ones(3, jnp.int8) + 1000\n"  # PRM006: 1000 does not fit int8


@pytest.fixture
def calls(monkeypatch) -> dict[str, list[str]]:
    """The paths each job was called for, from now on; the jobs themselves still run."""
    seen: dict[str, list[str]] = {"check_job": [], "fix_job": [], "reveal_job": []}
    for name, paths in seen.items():
        real = getattr(jobs, name)

        def spy(job, real=real, paths=paths):
            paths.append(Path(job.path).name)
            return real(job)

        monkeypatch.setattr(jobs, name, spy)
    return seen


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.promolint]\n")
    (tmp_path / "m.py").write_text(SOURCE)
    return tmp_path / "m.py"


def test_check_runs_the_check_job(tmp_path, capsys, calls) -> None:
    path = _project(tmp_path)
    assert main(["check", "--no-cache", "--jobs", "1", str(path)]) == 1
    assert calls["check_job"] == ["m.py"] and "PRM006" in capsys.readouterr().out


def test_fix_runs_the_fix_job_and_reads_the_cache_for_a_file_with_nothing_to_fix(tmp_path, capsys, calls) -> None:
    path = _project(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    main(["check", "--fix", "--jobs", "1", *cache, str(path)])
    assert calls["fix_job"] == ["m.py"] and "PRM006" in capsys.readouterr().out  # no fix for an overflow
    main(["check", "--fix", "--jobs", "1", *cache, str(path)])
    assert calls["fix_job"] == ["m.py"] and "PRM006" in capsys.readouterr().out  # the cache's answer


def test_reveal_runs_the_reveal_job(tmp_path, capsys, calls) -> None:
    path = _project(tmp_path)
    assert main(["reveal", "--jobs", "1", str(path)]) == 0
    assert calls["reveal_job"] == ["m.py"] and f"{path}:3:1: x: int8 [jax]" in capsys.readouterr().out


def test_the_flake8_plugin_runs_the_check_job(tmp_path, calls) -> None:
    from promolint.integrations.flake8 import Plugin

    path = _project(tmp_path)
    found = list(Plugin(ast.parse(SOURCE), str(path), SOURCE.splitlines(keepends=True)).run())
    assert calls["check_job"] == ["m.py"] and [message.split()[0] for _, _, message, _ in found] == ["PRM006"]


def test_libcst_findings_and_the_codemod_run_the_jobs(tmp_path, calls) -> None:
    import libcst
    from libcst.codemod import CodemodContext

    from promolint.integrations.cst import StrictCasts, findings

    path = _project(tmp_path)
    assert [f.code for f in findings(libcst.parse_module(SOURCE), path)] == ["PRM006"]
    StrictCasts(CodemodContext(filename=str(path))).transform_module(libcst.parse_module(SOURCE))
    assert calls["check_job"] == ["m.py"] and calls["fix_job"] == ["m.py"]


def test_fixit_rules_run_the_check_job(tmp_path, calls, monkeypatch) -> None:
    import unittest

    from fixit.testing import generate_lint_rule_test_cases

    from promolint.fixit import RULES

    monkeypatch.chdir(tmp_path)  # Fixit's harness lints <cwd>/valid.py: the default settings
    rule = next(rule for rule in RULES if rule.INVALID)  # a rule with an example that must report
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(case)
                               for case in generate_lint_rule_test_cases([rule()]))  # fmt: skip
    result = unittest.TestResult()
    suite.run(result)
    assert result.wasSuccessful() and result.testsRun and len(calls["check_job"]) >= 1


def test_the_language_server_runs_the_check_job(tmp_path, calls, monkeypatch) -> None:
    pytest.importorskip("pygls")
    from promolint.integrations.server import PromolintServer

    path = _project(tmp_path)
    server = PromolintServer()
    monkeypatch.setattr(server, "_encoding", lambda: "utf-16")  # what a client that names none gets
    analyzed = server._analyze(path.as_uri(), SOURCE, 1, path)
    assert calls["check_job"] == ["m.py"] and [d.code for d in analyzed.findings] == ["PRM006"]


def test_an_internal_error_is_recognised_by_its_mark_not_its_words(tmp_path, capsys, monkeypatch) -> None:
    """A finding whose message merely reads like an internal error is a finding (status 1); the
    job's marked diagnostic is one (status 2), whatever its message."""
    from promolint.core.diagnostics import Diagnostic

    path = _project(tmp_path)
    lookalike = Diagnostic(str(path), 1, 1, "PRM000", "promolint could not analyze this file: internal error X")
    monkeypatch.setattr(jobs, "check_job", lambda job: jobs.Checked([lookalike]))
    assert main(["check", "--no-cache", "--jobs", "1", str(path)]) == 1
    marked = Diagnostic(str(path), 1, 1, "PRM000", "anything", internal=True)
    monkeypatch.setattr(jobs, "check_job", lambda job: jobs.Checked([marked]))
    assert main(["check", "--no-cache", "--jobs", "1", str(path)]) == 2
    capsys.readouterr()


def test_reveal_in_workers_prints_every_file_in_the_order_one_process_does(tmp_path, capsys) -> None:
    for i in range(6):  # enough files for a pool of workers
        (tmp_path / f"m{i}.py").write_text(SOURCE.replace("1000", str(1000 + i)))
    assert main(["reveal", "--jobs", "1", str(tmp_path)]) == 0
    alone = capsys.readouterr().out
    assert main(["reveal", "--jobs", "2", str(tmp_path)]) == 0
    assert capsys.readouterr().out == alone
    files = [line.split(":")[0] for line in alone.splitlines()]
    assert sorted(set(files), key=files.index) == [str(tmp_path / f"m{i}.py") for i in range(6)]

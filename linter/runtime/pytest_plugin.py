"""pytest plugin: ``pytest --promolint-verify=PKG`` instruments PKG's modules while the test
suite runs, and checks every dtype promolint inferred in them.

``--promolint-mode``: warn (default; pytest lists the warnings), raise (the test that evaluates a
disagreeing expression fails with PromotionMismatch) or report; ``--promolint-report FILE``
writes the JSON report; ``--promolint-predict``: arguments (default: a function's parameters typed
from each call's arguments) or code (from the code alone, as ``promolint check`` sees it).  The
summary is printed at the end of the run.  In ``report`` mode a disagreement makes the run fail
(exit status 1) once the tests have passed.

A run that checks nothing, because no module of PKG was instrumented (none imported, imported
before the plugin, or by a loader the shim could not take over) or because the tests evaluated
none of their sites, says so in a warning and, where the tests passed, exits with status 4
(pytest's usage error: the option as given verifies nothing).  It works beside other import
hooks that rewrite the same modules (jaxtyping's ``--jaxtyping-packages``): the shim
instruments the source and hands it to their compilation.
"""

from __future__ import annotations

import pytest

from promolint.runtime import DEFAULT_REPORT, MODES, PREDICTIONS

_STATE: dict[str, object] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("promolint", "promolint run-time dtype checks")
    group.addoption("--promolint-verify", action="append", default=[], metavar="PKG",
                    help="instrument this package's modules and check their dtypes (repeatable)")  # fmt: skip
    group.addoption("--promolint-mode", choices=MODES, default="warn", help="warn, raise or report")
    group.addoption("--promolint-report", metavar="FILE", help=f"JSON report (report mode: default {DEFAULT_REPORT})")
    group.addoption("--promolint-predict", choices=PREDICTIONS, default="arguments",
                    help="type a function's parameters from each call's arguments (default), or predict from "
                    "the code alone, as `promolint check` does")  # fmt: skip


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:
    # Before conftest files and test modules import the package under test.
    _start(early_config.known_args_namespace)


def pytest_configure(config: pytest.Config) -> None:
    if "finder" not in _STATE:  # the plugin came too late for the early hook (registered by a conftest)
        _start(config.option)
    else:
        _STATE["finder"].keep_first()  # ahead of hooks installed after it (jaxtyping's)


def _start(options) -> None:
    packages = getattr(options, "promolint_verify", None)
    if not packages:
        return
    from promolint.runtime.hook import install
    from promolint.runtime.session import Session, set_default_session

    report = options.promolint_report or (DEFAULT_REPORT if options.promolint_mode == "report" else None)
    session = Session(options.promolint_mode, report, options.promolint_predict)
    set_default_session(session)
    _STATE.update(session=session, finder=install(packages))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shim = _STATE.get("session")
    if shim is None:
        return
    from promolint.runtime.session import set_default_session

    finder = _STATE["finder"]
    finder.remove()
    set_default_session(None)
    _STATE["written"] = shim.write_report()
    _STATE["nothing"] = _checked_nothing(finder, shim)
    if exitstatus == 0 and shim.mode == "report" and shim.mismatches:
        session.exitstatus = 1
    elif exitstatus == 0 and _STATE["nothing"]:
        session.exitstatus = pytest.ExitCode.USAGE_ERROR


def _checked_nothing(finder, shim) -> str:
    """Why the run checked nothing, or "" where it checked something."""
    import sys

    packages = ", ".join(finder.packages)
    if not finder.instrumented:
        imported = sorted(name for name in sys.modules if finder.wants(name))
        if not imported:
            return f"no module of {packages} was imported while the tests ran"
        loaders = sorted({type(getattr(sys.modules[name], "__loader__", None)).__name__ for name in imported})
        return (f"{', '.join(imported[:5])} imported without the shim (before the plugin started, or by "
                f"{', '.join(loaders)}): no module of {packages} was instrumented")  # fmt: skip
    if not shim.counts()["evaluations"]:
        return (f"{len(finder.instrumented)} module(s) of {packages} instrumented, but the tests evaluated none of "
                "their sites")  # fmt: skip
    return ""


def pytest_terminal_summary(terminalreporter) -> None:
    shim = _STATE.get("session")
    if shim is None:
        return
    terminalreporter.section("promolint runtime")
    for line in shim.summary().splitlines():
        terminalreporter.write_line(line)
    if _STATE.get("nothing"):
        terminalreporter.write_line(f"WARNING: --promolint-verify checked nothing: {_STATE['nothing']}", red=True,
                                    bold=True)  # fmt: skip
    if _STATE.get("written"):
        terminalreporter.write_line(f"report written to {_STATE['written']}")

"""``promolint run [options] script.py [args...]``: run a script with promolint checking, at run
time, every dtype it inferred (the script's own module, and the modules of ``--include``
packages as they are imported), like ``coverage run``.

Exit status: the script's own when it fails; otherwise, in ``raise`` and ``report`` modes, 1
when a disagreement was found; 0 else.  The summary goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback

from promolint.runtime import DEFAULT_REPORT, MODES, PREDICTIONS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=MODES, default="warn",
                        help="warn at each disagreement (default), raise at the first, or only report")  # fmt: skip
    parser.add_argument("--report", metavar="FILE",
                        help=f"write the JSON report here (report mode: default {DEFAULT_REPORT})")  # fmt: skip
    parser.add_argument("--predict", choices=PREDICTIONS, default="arguments",
                        help="type a function's parameters from each call's arguments (default), or predict "
                        "from the code alone, as `promolint check` does")  # fmt: skip
    parser.add_argument("--include", action="append", default=[], metavar="PKG",
                        help="also instrument this package's modules when imported (repeatable)")  # fmt: skip
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")


def run(args: argparse.Namespace) -> int:
    from promolint.runtime.hook import install, run_path
    from promolint.runtime.session import Session, set_default_session

    session = Session(args.mode, args.report or (DEFAULT_REPORT if args.mode == "report" else None), args.predict)
    set_default_session(session)
    finder = install(args.include) if args.include else None
    status = 0
    try:
        run_path(args.script, args.args)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if not isinstance(exit_.code, int) and exit_.code is not None:
            print(exit_.code, file=sys.stderr)
    except BaseException as error:  # noqa: BLE001 - the script's failure, reported as Python would
        traceback.print_exception(type(error), error, _from_script(error.__traceback__, args.script))
        status = 1
    finally:
        if finder is not None:
            finder.remove()
        set_default_session(None)
    written = session.write_report()
    print(session.summary(), file=sys.stderr)
    if written:
        print(f"promolint runtime: report written to {written}", file=sys.stderr)
    if status == 0 and args.mode != "warn" and session.mismatches:
        status = 1
    return status


def _from_script(tb, script: str):
    """The traceback from the script's first frame on: the shim's own frames are noise."""
    start = tb
    while start is not None and os.path.abspath(start.tb_frame.f_code.co_filename) != os.path.abspath(script):
        start = start.tb_next
    return start or tb


def main(argv: list[str] | None = None) -> int:
    summary, exit_status = (" ".join(part.replace("``", "").split()) for part in __doc__.split("\n\n")[:2])
    parser = argparse.ArgumentParser(prog="promolint run", description=summary, epilog=exit_status)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

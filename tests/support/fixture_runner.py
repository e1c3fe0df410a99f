"""Run one fixture for real, statement by statement, in the JAX mode the environment sets, and
print what each top-level statement did: the exception it raised (its class, and the fixture's
line it came from: the innermost frame of the fixture's own code), and how often it made JAX
compile each jitted function (from ``jax_log_compiles``).

Usage: ``python tests/support/fixture_runner.py FIXTURE.py`` (JAX_ENABLE_X64 and
JAX_NUMPY_DTYPE_PROMOTION set by the caller).  Prints JSON: a list of
``{"first": line, "last": line, "error": class or null, "line": line or null,
"compiles": {name: count}}``.
"""

from __future__ import annotations

import ast
import json
import logging
import re
import sys
import traceback
import warnings
from collections import Counter

_COMPILING = re.compile(r"Compiling jit\((?P<name>[^)]*)\)")


class _Compiles(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        match = _COMPILING.match(record.getMessage())
        if match:
            self.counts[match.group("name")] += 1


def main(path: str) -> None:
    warnings.simplefilter("ignore")
    import jax

    jax.config.update("jax_log_compiles", True)
    compiles = _Compiles()
    logging.getLogger("jax").addHandler(compiles)
    logging.getLogger("jax").setLevel(logging.WARNING)
    source = open(path).read()
    namespace: dict = {"__name__": "__fixture__"}
    report = []
    for statement in ast.parse(source).body:
        compiles.counts.clear()
        code = compile(ast.Module([statement], []), path, "exec")
        error = line = None
        try:
            exec(code, namespace)
        except Exception as exception:  # what the statement raised is the observation
            error = type(exception).__name__
            frames = [f for f in traceback.extract_tb(exception.__traceback__) if f.filename == path]
            line = frames[-1].lineno if frames else statement.lineno
        report.append({"first": statement.lineno, "last": statement.end_lineno, "error": error, "line": line,
                       "compiles": dict(compiles.counts)})  # fmt: skip
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1])

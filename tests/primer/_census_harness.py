"""Runs one project's census harness under the recorder (the scratch venv's python runs it):

    python _census_harness.py SPEC.json REPORT.json

SPEC holds ``package`` (the import name), ``setup`` (code run once, its names shared by every
case) and ``cases`` (name -> code).  Each case runs in a copy of the shared names, with ``jax``,
``jnp``, ``np``, ``lax``, ``f32`` and the package bound; a case may leave its outputs in
``result``, whose float64 leaves are counted.  The JAX mode comes from the environment
(JAX_ENABLE_X64, JAX_NUMPY_DTYPE_PROMOTION).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path

from _census_record import Recorder


def float64_leaves(result: object) -> int:
    import jax

    return sum(str(getattr(leaf, "dtype", "")) == "float64" for leaf in jax.tree_util.tree_leaves(result))


def main(argv: list[str]) -> int:
    spec_path, report_path = map(Path, argv)
    spec = json.loads(spec_path.read_text())
    import jax
    import jax.numpy as jnp
    import numpy as np

    found = importlib.util.find_spec(spec["package"])
    if found is None or found.origin is None:
        report_path.write_text(json.dumps({"records": [], "cases": [], "casts": 0,
                                           "import_error": f"no package {spec['package']} installed"}))  # fmt: skip
        return 0
    recorder = Recorder(Path(found.origin).parent)
    with recorder.case("import"):  # a promotion its import raises (at module level) is a census line too
        importlib.import_module(spec["package"])
    if spec["package"] not in sys.modules:
        report_path.write_text(json.dumps(recorder.report(), indent=1))
        return 0
    package = sys.modules[spec["package"]]
    shared = {"jax": jax, "jnp": jnp, "np": np, "lax": jax.lax, "f32": jnp.float32, spec["package"]: package}
    with recorder.case("setup"):
        exec(compile(spec.get("setup", ""), "<census setup>", "exec"), shared)
    for name, code in spec["cases"].items():
        namespace = dict(shared)
        with recorder.case(name) as outcome:
            exec(compile(code, f"<census case {name}>", "exec"), namespace)
            outcome.float64_outputs = float64_leaves(namespace.get("result"))
    report_path.write_text(json.dumps(recorder.report(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

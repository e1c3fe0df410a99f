"""The project pass: a value from another module of the run is as known as a local one.

A package is written to disk, run for real (jax 0.10.2, numpy 2.4.6) and revealed by the command
line: what the importing module's names hold when the package runs is what ``reveal`` claims,
with x64 off and on; ``check`` reports a 64-bit value made in one module where it widens data in
another, at the importing line; the cache re-checks a module when a module it reads changes;
third-party code (a module outside the run) stays unknown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from promolint.driver import runner
from promolint.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from workers import worker_environment  # noqa: E402

PACKAGE = {
    "pkg/__init__.py": "from .utils import scale, WEIGHTS\n",
    "pkg/utils.py": """\
import numpy as np
import jax.numpy as jnp
from .constants import EPS

WEIGHTS = np.ones(3)


def scale(x, n):
    return x / np.sqrt(n)


def keep(x):
    return x * 2 + EPS


class Table:
    def __init__(self):
        self.pe = np.arange(3) * -(np.log(10000.0) / 3)
""",
    "pkg/constants.py": "EPS = 1e-6\n",
    "pkg/model.py": """\
import jax.numpy as jnp
from pkg import scale, WEIGHTS
from .utils import keep, Table
from . import utils
import pkg.utils as u

x = jnp.ones(3, jnp.float32)
a = x * scale(x, 4)
b = keep(jnp.ones(3, jnp.bfloat16))
c = WEIGHTS
d = utils.keep(x)
e = x + u.WEIGHTS
f = x + Table().pe
""",
}
NAMES = ["a", "b", "c", "d", "e", "f"]

_RUN = """
import json, sys
sys.path.insert(0, sys.argv[1])
from promolint.runtime.observe import observe
import pkg.model as m
print(json.dumps({n: observe(getattr(m, n)) for n in json.loads(sys.argv[2])}))
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _describe(record: dict) -> str | None:
    if record.get("dtype") is None:
        return None
    return f"{'weak ' if record['weak'] else ''}{record['dtype']} [{record['library']}]"


def _revealed(capsys, root: Path, x64: str, names: list[str] = NAMES) -> dict[str, str | None]:
    assert main(["reveal", "--format", "json", "--x64", x64, str(root / "pkg")]) == 0
    records = json.loads(capsys.readouterr().out)
    return {r["text"]: _describe(r) for r in records
            if r["path"].endswith("model.py") and r["target"] and r["text"] in names}  # fmt: skip


def _ran(root: Path, x64: str, names: list[str]) -> dict[str, str | None]:
    """What running the package's model.py leaves in ``names``."""
    process = subprocess.run([sys.executable, "-c", _RUN, str(root), json.dumps(names)], cwd=ROOT,
                             capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    return {n: _describe(o) for n, o in json.loads(process.stdout.splitlines()[-1]).items()}


@pytest.mark.parametrize("x64", ["off", "on"])
def test_reveal_gives_what_running_the_package_gives(x64, tmp_path, capsys) -> None:
    write(tmp_path, PACKAGE)
    assert _revealed(capsys, tmp_path, x64) == _ran(tmp_path, x64, NAMES)


def test_a_module_alone_reads_nothing_of_the_others(tmp_path, capsys) -> None:
    """Modules outside the run are third-party code: unknown, never guessed."""
    write(tmp_path, PACKAGE)
    assert main(["reveal", "--format", "json", str(tmp_path / "pkg" / "model.py")]) == 0
    records = json.loads(capsys.readouterr().out)
    targets = {r["text"]: r["dtype"] for r in records if r["target"]}
    assert targets["x"] == "float32" and targets.get("c") is None and targets.get("e") is None


def test_check_reports_a_leak_from_another_module_where_it_widens(tmp_path, capsys) -> None:
    write(tmp_path, PACKAGE)
    assert main(["check", "--no-cache", "--x64", "on", "--select", "PRM001", str(tmp_path / "pkg")]) == 1
    out = capsys.readouterr().out
    # at the importing module's own expressions: `scale(x, 4)` and the attribute read
    assert "model.py:8:9: PRM001 `scale(x, 4)` gets its 64 bits from pkg.utils, where a value is a strong float64" in out
    assert "model.py:12:9: PRM001 `u.WEIGHTS` gets its 64 bits from pkg.utils" in out
    assert "model.py:13:9: PRM001 `Table().pe` gets its 64 bits from pkg.utils" in out  # set by a method there


def test_the_cache_checks_a_module_again_when_a_module_it_reads_changes(tmp_path, capsys) -> None:
    write(tmp_path, PACKAGE)
    arguments = ["check", "--x64", "on", "--select", "PRM001", "--cache-dir", str(tmp_path / "cache"),
                 str(tmp_path / "pkg")]  # fmt: skip
    assert main(arguments) == 1
    assert "model.py:8:9: PRM001" in capsys.readouterr().out
    # utils no longer makes float64: the importer's findings go with it, though model.py is unchanged
    write(tmp_path, {"pkg/utils.py": PACKAGE["pkg/utils.py"].replace("np.sqrt(n)", "np.sqrt(n).astype(np.float32)")
                     .replace("np.ones(3)", "np.ones(3, np.float32)")})  # fmt: skip
    main(arguments)
    assert "model.py:8:9" not in capsys.readouterr().out


def test_import_cycles_and_deep_chains_end(tmp_path, capsys) -> None:
    """Modules that import each other load once (the second sees the first half-initialized, as
    Python does); a chain of re-exports longer than the pass follows is unknown, not guessed."""
    write(tmp_path, {
        "cyc/__init__.py": "",
        "cyc/a.py": "import numpy as np\nfrom .b import B\nA = np.float32(1) + B\n",
        "cyc/b.py": "import numpy as np\nfrom .a import A\nB = np.float32(2)\nC = A\n",
        "cyc/d0.py": "from .d1 import V\nv = V\n",
        "cyc/d1.py": "from .d2 import V\n",
        "cyc/d2.py": "from .d3 import V\n",
        "cyc/d3.py": "from .d4 import V\n",
        "cyc/d4.py": "import numpy as np\nV = np.float32(1)\n",
        "cyc/d2user.py": "from .d3 import V\nv = V\n",
    })  # fmt: skip
    assert main(["reveal", "--format", "json", str(tmp_path / "cyc")]) == 0
    records = json.loads(capsys.readouterr().out)
    targets = {(Path(r["path"]).name, r["text"]): r["dtype"] for r in records if r["target"]}
    assert targets[("a.py", "A")] == "float32"
    assert targets[("d2user.py", "v")] == "float32"  # two imports away
    assert targets.get(("d0.py", "v")) is None  # four imports away: beyond the pass's reach


def test_rules_that_run_calls_again_read_only_this_module(tmp_path, capsys) -> None:
    """Strict promotion's fixes through calls evaluate a call again and read the operations its
    body runs: those of another module's body are places in another file, named by their module
    (mctx's tests call a helper of the package: reading them as this file's places raised
    IndexError or quoted this file's text at the other file's line)."""
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/helpers.py": "import jax.numpy as jnp\n\n\ndef mix(counts, values):\n    total = counts + 1\n"
                          "    return total * values\n",
        "pkg/test_mix.py": "import jax.numpy as jnp\nfrom pkg import helpers\n\n\n"
                           "def test():\n    return helpers.mix(jnp.array([0, 4]), jnp.array([1.0, 2.0]))\n",
    })  # fmt: skip
    main(["check", "--no-cache", "--promotion", "strict", "--select", "PRM", str(tmp_path / "pkg")])
    out = capsys.readouterr().out
    assert "test_mix.py:6:12: PRM004 This call raises TypePromotionError under strict promotion in pkg.helpers: " \
           "int32, float32 have no implicit promotion path" in out  # fmt: skip


# Beside the package, two top-level modules: `user` reads `leaf`, and neither reads the package.
BESIDE = {"leaf.py": "import numpy as np\nONE = np.float64(1)\n",
          "user.py": "import jax.numpy as jnp\nfrom leaf import ONE\nz = jnp.ones(3, jnp.float32) * ONE\n"}  # fmt: skip


def _write_aged(root: Path, files: dict[str, str], seconds: float) -> None:
    """Write ``files`` modified ``seconds`` ago: files modified just before a run are read again
    by the next (they may change again within one tick of the clock)."""
    write(root, files)
    past = time.time() - seconds
    for name in files:
        os.utime(root / name, (past, past))


def _aged_project(root: Path) -> list[str]:
    """The package and the modules beside it, and the arguments of a cached run over them."""
    _write_aged(root / "src", {**PACKAGE, **BESIDE}, 60)
    return ["check", "--x64", "on", "--select", "PRM001", "--format", "json", str(root / "src")]


def _reads(monkeypatch) -> list[str]:
    """The files runs read from now on, by path below src/."""
    read: list[str] = []
    original = runner._read

    def recording(paths, unreadable):
        for path, data in original(paths, unreadable):
            read.append(Path(path).as_posix().split("/src/")[1])
            yield path, data

    monkeypatch.setattr(runner, "_read", recording)
    return read


def _checked(capsys, arguments: list[str], cache: Path) -> str:
    main([*arguments, "--cache-dir", str(cache)])
    return capsys.readouterr().out


def _fresh(capsys, arguments: list[str]) -> str:
    main([*arguments, "--no-cache"])
    return capsys.readouterr().out


def test_a_touched_module_reads_and_checks_again_only_itself_and_the_modules_that_read_it(
        tmp_path, capsys, monkeypatch) -> None:  # fmt: skip
    arguments, cache = _aged_project(tmp_path), tmp_path / "cache"
    fresh = _fresh(capsys, arguments)
    assert _checked(capsys, arguments, cache) == fresh and "`u.WEIGHTS`" in fresh
    read = _reads(monkeypatch)
    assert _checked(capsys, arguments, cache) == fresh and read == []
    # utils is read by the package's __init__ and model, and not by the modules beside them
    utils = PACKAGE["pkg/utils.py"].replace("np.ones(3)", "np.ones(3, np.float32)")
    _write_aged(tmp_path / "src", {"pkg/utils.py": utils}, 30)
    fresh = _fresh(capsys, arguments)
    del read[:]
    assert _checked(capsys, arguments, cache) == fresh and "`u.WEIGHTS`" not in fresh
    assert sorted(read) == ["pkg/__init__.py", "pkg/model.py", "pkg/utils.py"]
    # Nothing imports user: it alone is read, whatever it now imports
    _write_aged(tmp_path / "src", {"user.py": BESIDE["user.py"] + "from pkg.constants import EPS\n"}, 20)
    fresh = _fresh(capsys, arguments)
    del read[:]
    assert _checked(capsys, arguments, cache) == fresh and read == ["user.py"]
    # leaf's value is no longer 64-bit: user's finding goes, read again from the cache's graph
    _write_aged(tmp_path / "src", {"leaf.py": "import numpy as np\nONE = np.float32(1)\n"}, 10)
    fresh = _fresh(capsys, arguments)
    del read[:]
    assert _checked(capsys, arguments, cache) == fresh and '/src/user.py"' not in fresh
    assert sorted(read) == ["leaf.py", "user.py"]


def test_a_module_removed_from_the_run_is_no_longer_read_by_the_unchanged_modules(tmp_path, capsys) -> None:
    arguments, cache = _aged_project(tmp_path), tmp_path / "cache"
    assert '/src/user.py"' in _checked(capsys, arguments, cache)
    (tmp_path / "src" / "leaf.py").unlink()
    fresh = _fresh(capsys, arguments)
    assert '/src/user.py"' not in fresh and _checked(capsys, arguments, cache) == fresh


def test_modules_that_read_a_touched_one_keep_the_x64_mode_the_project_sets(tmp_path, capsys, monkeypatch) -> None:
    """With the mode following the code, the package's ``__init__`` switches x64 on for every
    module of the package: those read again for their dependencies keep that fact."""
    arguments, cache = _aged_project(tmp_path), tmp_path / "cache"
    arguments[arguments.index("--x64") + 1] = "auto"
    _write_aged(tmp_path / "src", {"pkg/__init__.py": "import jax\njax.config.update('jax_enable_x64', True)\n"
                                                      + PACKAGE["pkg/__init__.py"]}, 60)  # fmt: skip
    fresh = _fresh(capsys, arguments)
    assert _checked(capsys, arguments, cache) == fresh and "`u.WEIGHTS`" in fresh
    read = _reads(monkeypatch)
    _write_aged(tmp_path / "src", {"pkg/constants.py": "EPS = 1e-3\n"}, 30)
    fresh = _fresh(capsys, arguments)
    del read[:]
    assert _checked(capsys, arguments, cache) == fresh and "`u.WEIGHTS`" in fresh
    assert sorted(read) == ["pkg/__init__.py", "pkg/constants.py", "pkg/model.py", "pkg/utils.py"]


def test_reveal_with_workers_gives_the_records_of_one(tmp_path, capsys) -> None:
    """`reveal --jobs N` (the primer's coverage over a whole project) reads the same project."""
    write(tmp_path, PACKAGE)
    runs = []
    for jobs in ("1", "2"):
        assert main(["reveal", "--format", "json", "--jobs", jobs, str(tmp_path / "pkg")]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1] and any(r["text"] == "a" and r["dtype"] for r in runs[0])


def test_a_package_made_around_the_run_changes_what_its_modules_read(tmp_path, capsys) -> None:
    """Without pkg/__init__.py the run's modules are `a.m` and `a.n`, and `from pkg.a.n import V`
    names no module of the run; with it, m reads n: the unchanged files are checked again."""
    _write_aged(tmp_path, {"pkg/a/__init__.py": "", "pkg/a/n.py": "import numpy as np\nV = np.float64(1)\n",
                           "pkg/a/m.py": "import jax.numpy as jnp\nfrom pkg.a.n import V\n"
                                         "z = jnp.ones(3, jnp.float32) * V\n"}, 60)  # fmt: skip
    arguments, cache = ["check", "--x64", "on", "--select", "PRM001", str(tmp_path / "pkg" / "a")], tmp_path / "cache"
    assert _checked(capsys, arguments, cache) == _fresh(capsys, arguments) and "m.py" not in _fresh(capsys, arguments)
    (tmp_path / "pkg" / "__init__.py").write_text("")  # outside the run
    fresh = _fresh(capsys, arguments)
    assert "m.py:3:32: PRM001" in fresh and _checked(capsys, arguments, cache) == fresh


REBOUND = {
    "pkg/__init__.py": "",
    "pkg/rebound.py": """\
import numpy as np

SCALE = np.float32(2)
HALF = SCALE / 2
SCALE = np.float64(2)
TABLE = {"w": np.ones(3, np.float32)}
TABLE["w"] = np.ones(3)
UNUSED = [np.float64(i) for i in range(3)]
""",
    "pkg/model.py": """\
import jax.numpy as jnp
from .rebound import HALF, TABLE, SCALE

x = jnp.ones(3, jnp.float32)
h = x * HALF
w = TABLE["w"]
s = SCALE
""",
}


@pytest.mark.parametrize("x64", ["off", "on"])
def test_names_read_of_a_module_have_the_values_its_whole_top_level_gives(x64, tmp_path, capsys) -> None:
    """Only the statements that bind the names read run (promolint.engine.walker.top_level): a name
    read before it is bound again, and a dict changed after it is made, still have the values
    running the module gives."""
    names = ["h", "w", "s"]
    write(tmp_path, REBOUND)
    ran = _ran(tmp_path, x64, names)
    assert _revealed(capsys, tmp_path, x64, names) == ran and ran["h"] is not None


def test_a_parameter_annotated_with_another_modules_class_holds_its_objects(tmp_path, capsys) -> None:
    """`s: states.State` (the class through its module) is an object of it, as `s: State` is:
    its fields hold what the class makes them with (pgx annotates `state: core.State`)."""
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/states.py": "from typing import NamedTuple\nimport jax\nimport jax.numpy as jnp\n\n"
                         "class State(NamedTuple):\n    board: jax.Array = jnp.int32([1, 0, -1])\n",
        "pkg/env.py": "import pkg.states as states\n\ndef first(s: states.State):\n    square = s.board[0]\n"
                      "    return square\n",
    })  # fmt: skip
    assert main(["reveal", "--format", "json", str(tmp_path / "pkg")]) == 0
    records = json.loads(capsys.readouterr().out)
    square = next(r for r in records if r["path"].endswith("env.py") and r["text"] == "square" and r["target"])
    assert (square["dtype"], square["library"]) == ("int32", "jax")


STARRED = {
    "pkg/__init__.py": "",
    "pkg/constants.py": """\
import jax.numpy as jnp
import numpy as np

SCALE = np.float64(2.0)
WEIGHTS = jnp.ones(3, jnp.bfloat16)
_PRIVATE = np.float64(1.0)
""",
    "pkg/listed.py": """\
import numpy as np

__all__ = ["HALF"]
HALF = np.float32(0.5)
TWO = np.float64(2.0)
""",
    "pkg/model.py": """\
from pkg.constants import *
from .listed import *

_PRIVATE = 1.0
TWO = 2
x = jnp.ones(3, jnp.float32)
a = x * SCALE
b = WEIGHTS + x
c = np.zeros(2) * HALF
d = x * _PRIVATE
e = x * TWO
""",
}


@pytest.mark.parametrize("x64", ["off", "on"])
def test_a_star_import_binds_what_the_module_exports(x64, tmp_path, capsys) -> None:
    """`from pkg.constants import *` (craftax's constants, numpyro's, filterpy's) binds the
    module's public names, its imported modules too (`jnp`), or its literal `__all__`; names
    with an underscore, or outside `__all__`, stay the importing module's own."""
    names = ["a", "b", "c", "d", "e"]
    write(tmp_path, STARRED)
    ran = _ran(tmp_path, x64, names)
    assert _revealed(capsys, tmp_path, x64, names) == ran and ran["a"] is not None

# --- the callers of a module feed its functions' parameters -----------------------------------
CALLED = {
    "pkg/__init__.py": "from pkg.base import Root\nfrom pkg.policies import policy, mixed, escaped\n",
    "pkg/api.py": "from pkg.policies import escaped\n",
    "pkg/base.py": """\
import dataclasses
import jax


@dataclasses.dataclass(frozen=True)
class Root:
    logits: jax.Array
    value: jax.Array
""",
    "pkg/policies.py": """\
import jax
import jax.numpy as jnp
from pkg import base


def _mask(logits, invalid):
    hidden = jnp.where(invalid, -jnp.inf, logits)
    return hidden


def policy(root: base.Root, invalid, scale):
    probs = jax.nn.softmax(root.logits)
    masked = _mask(probs, invalid)
    total = masked * scale + root.value
    return total


def mixed(x):
    doubled = x * 2
    return doubled


def escaped(x):
    halved = x / 2
    return halved
""",
    # Not a package: the test modules of mctx and optax sit in such folders.
    "pkg/tests/policies_test.py": """\
import jax.numpy as jnp
import pkg
import pkg.api as api


def test_policy():
    root = pkg.Root(logits=jnp.array([[1.0, 2.0]]), value=jnp.array([0.0]))
    return pkg.policy(root, jnp.array([[False, True]]), 2.0)


class PolicyTest:
    def test_scaled(self):
        root = pkg.Root(logits=jnp.ones((1, 2)), value=jnp.zeros(1))
        return pkg.policy(root, jnp.array([[False, False]]), 0.5)


def test_mixed():
    return pkg.mixed(jnp.ones(2, jnp.bfloat16)), pkg.mixed(jnp.ones(2, jnp.float32))


def test_escaped(name="escaped"):
    chosen = getattr(api, name)  # which function: the engine cannot tell
    return pkg.escaped(jnp.ones(2)), chosen(jnp.ones(2, jnp.bfloat16))
""",
}
CALLED_NAMES = ["hidden", "probs", "masked", "total", "doubled", "halved"]

# Runs every test of the test module, noting what the names hold when policies.py's functions return.
_RUN_CALLERS = """
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/pkg/tests")
from promolint.runtime.observe import observe
import policies_test
names, seen = json.loads(sys.argv[2]), {}

def profile(frame, event, arg):
    if event == "return" and frame.f_code.co_filename.endswith("policies.py"):
        for name in names:
            if name in frame.f_locals:
                seen.setdefault(name, []).append(observe(frame.f_locals[name]))

sys.setprofile(profile)
policies_test.test_policy(); policies_test.PolicyTest().test_scaled()
policies_test.test_mixed(); policies_test.test_escaped()
sys.setprofile(None)
print(json.dumps(seen))
"""


def _ran_callers(root: Path, x64: str) -> dict[str, set[str]]:
    process = subprocess.run([sys.executable, "-c", _RUN_CALLERS, str(root), json.dumps(CALLED_NAMES)], cwd=ROOT,
                             capture_output=True, text=True, timeout=300,
                             env=worker_environment(JAX_ENABLE_X64="1" if x64 == "on" else "0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    return {n: {_describe(o) for o in observed} for n, observed in json.loads(process.stdout.splitlines()[-1]).items()}


def _revealed_in(capsys, target: Path, x64: str, file: str, names: list[str]) -> dict[str, str | None]:
    assert main(["reveal", "--format", "json", "--x64", x64, str(target)]) == 0
    records = json.loads(capsys.readouterr().out)
    return {r["text"]: _describe(r) for r in records
            if r["path"].endswith(file) and r["target"] and r["text"] in names}  # fmt: skip


@pytest.mark.parametrize("x64", ["off", "on"])
def test_calls_in_the_modules_that_import_a_module_feed_its_functions_parameters(x64, tmp_path, capsys) -> None:
    """`policy(root: base.Root, ...)` is called only by a test module: the objects it passes
    (a dataclass made in the test, its fields read in policies.py) and its arrays are what the
    parameters hold; `_mask`, called by `policy`, follows; `mixed`'s callers disagree, so its
    parameter is the join of both; `escaped` is also reached by a computed `getattr` (of a module
    that binds only it) and called where the engine cannot tell which function runs: that call
    counts for every function the `getattr` may reach (taking only the direct call would claim float32: running shows bfloat16
    too)."""
    write(tmp_path, CALLED)
    revealed = _revealed_in(capsys, tmp_path / "pkg", x64, "policies.py", CALLED_NAMES)
    ran = _ran_callers(tmp_path, x64)
    for name in ("hidden", "probs", "masked", "total"):
        assert len(ran[name]) == 1 and revealed[name] == next(iter(ran[name])), (name, revealed[name], ran[name])
    dtypes = sorted(d.split(" ")[0] for d in ran["doubled"])
    assert len(dtypes) == 2 and revealed["doubled"] == f"{'|'.join(dtypes)} [jax]"
    dtypes = sorted(d.split(" ")[0] for d in ran["halved"])
    assert len(dtypes) == 2 and revealed["halved"] == f"{'|'.join(dtypes)} [jax]"


def test_a_module_without_its_callers_keeps_its_parameters_open(tmp_path, capsys) -> None:
    """Checked without the test module (not in the run), `policy`'s parameters are variables."""
    write(tmp_path, CALLED)
    (tmp_path / "pkg" / "tests" / "policies_test.py").unlink()
    revealed = _revealed_in(capsys, tmp_path / "pkg", "off", "policies.py", CALLED_NAMES)
    assert revealed["probs"] is None and revealed["doubled"] is None


def test_a_function_handed_on_to_a_module_that_never_names_it_is_not_typed_by_its_callers(tmp_path, capsys) -> None:
    """`hub` stores `escaped` in a dict; `user` (which imports `hub` and names no function of
    policies.py, so it is not among the callers the pass runs) calls it from there with a NumPy
    float64 array. The callers that name it pass float32 and bfloat16 JAX arrays: they are not all
    its callers, so its parameter stays a variable (running shows the float64 too)."""
    files = {**CALLED,
             "pkg/hub.py": "from pkg.policies import escaped\n\nREGISTRY = {'half': escaped}\n",
             "pkg/user.py": "import numpy as np\nfrom pkg import hub\n\n\ndef run(name='half'):\n"
                            "    return hub.REGISTRY[name](np.ones(2))\n"}  # fmt: skip
    write(tmp_path, files)
    revealed = _revealed_in(capsys, tmp_path / "pkg", "off", "policies.py", CALLED_NAMES)
    ran = _ran_callers(tmp_path, "off")
    assert revealed["halved"] is None and revealed["total"] == next(iter(ran["total"]))
    process = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1])\n"
                              "from promolint.runtime.observe import observe\nimport pkg.user\n"
                              "print(observe(pkg.user.run()))", str(tmp_path)], cwd=ROOT, capture_output=True,
                             text=True, timeout=300, env=worker_environment(JAX_ENABLE_X64="0"))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    assert "float64" in process.stdout and "float64" not in " ".join(ran["halved"])

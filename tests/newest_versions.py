"""The oracle and fuzz suites against the newest JAX, NumPy and ml_dtypes, beside the pinned ones.

``.ci/run`` tests against the versions pinned in pyproject's test extra; this script makes (or
reuses) a second environment with the newest releases (Python 3.12: the newest JAX and NumPy need
it), installs this checkout there without its pins, runs ``tests/oracle`` and ``tests/fuzz/test_fuzz.py``
and prints the versions and the figures.  Every difference it shows is a fact per version
(``promolint.systems.numpy_facts``, ``promolint.systems.jax_versions``) or a fix.

    python tests/newest_versions.py [--venv /tmp/promolint-newest] [--python python3.12] [--no-install]

Not collected by pytest (not a ``test_*.py``): it installs packages, which a test must not.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
NEWEST = ("jax", "numpy", "ml_dtypes")
# The test extra's tools the two suites need, unpinned.
TEST_TOOLS = ("pytest", "pytest-xdist", "hypothesis", "array-api-strict", "jaxtyping")  # jaxtyping: the corpus
SUITES = ("tests/oracle", "tests/fuzz/test_fuzz.py")
FIGURES = re.compile(r"(reveal oracle \[\w|fuzz \[\w|\d+ (passed|failed)|FAILED |ERROR )")


def runtime_dependencies() -> list[str]:
    """pyproject's runtime dependencies less the three this script takes at their newest."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [dep for dep in project["dependencies"] if re.split(r"[<>=!~;\[ ]", dep, maxsplit=1)[0] not in NEWEST]


def make_environment(venv: Path, python: str) -> Path:
    interpreter = venv / "bin" / "python"
    if not interpreter.exists():
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(interpreter), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "--upgrade", *NEWEST, *TEST_TOOLS, *runtime_dependencies()], check=True)
    subprocess.run([*pip, "--no-deps", "-e", str(ROOT)], check=True)
    return interpreter


def versions(interpreter: Path) -> str:
    code = "import importlib.metadata as m, sys; print(f'Python {sys.version.split()[0]}', " + ", ".join(
        f"'{name} ' + m.version('{name}')" for name in NEWEST) + ", sep=', ')"
    return subprocess.run([str(interpreter), "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def python312() -> str:
    """The first Python 3.12 that runs: on the PATH, else one pyenv installed (its shim on the PATH
    fails where 3.12 is not the selected version)."""
    pyenv = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")))
    candidates = [shutil.which("python3.12"), *pyenv]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "--version"], capture_output=True, check=False).returncode == 0:
            return candidate
    raise OSError("no Python 3.12 found: pass --python")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=Path("/tmp/promolint-newest"), help="the second environment")
    parser.add_argument("--python", default=None, help="its interpreter (default: the first Python 3.12 that runs)")
    parser.add_argument("--no-install", action="store_true", help="use the environment as it is")
    args = parser.parse_args(argv)
    try:
        interpreter = args.venv / "bin" / "python" if args.no_install else make_environment(
            args.venv, args.python or python312())
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"newest versions: no environment made: {error}", file=sys.stderr)
        return 2
    print(f"newest versions: {versions(interpreter)}", flush=True)
    # -rP: the suites print their figures (sites, agreements, claims) in passing tests' output too
    run = subprocess.run([str(interpreter), "-m", "pytest", *SUITES, "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                          "-rfEP"], cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    output = run.stdout + run.stderr
    (args.venv / "last_run.txt").write_text(output, encoding="utf-8")
    figures = [line[match.start():] for line in output.splitlines() for match in [FIGURES.search(line)] if match]
    print("\n".join(dict.fromkeys(figures)))  # a failing test's summary comes twice
    print(f"full output: {args.venv / 'last_run.txt'}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())

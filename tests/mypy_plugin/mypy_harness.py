"""Running mypy with the promolint plugin on small projects, fast.

A mypy run that checks jax from scratch takes half a minute.  The plugin leaves installed
packages alone and reports no configuration for them, so their cache entries do not depend on
``[tool.promolint]``: one seed cache (numpy, jax, jaxtyping, ...) is built once per machine,
mypy version and plugin entry module, under a lock, and copied into each project, whose own
modules are then the only ones mypy checks.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import mypy.version

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
GOLDEN = HERE / "golden"
CROSSMOD = HERE / "crossmod"
MYPY_VERSION = mypy.version.__version__
HAS_JAXTYPING = importlib.util.find_spec("jaxtyping") is not None
# The libraries every test project may import: the seed cache holds them.
SEED_IMPORTS = ["math", "numpy", "numpy.typing", "jax", "jax.numpy", "jax.lax", "jax.random", "jax.nn"]
if HAS_JAXTYPING:
    SEED_IMPORTS.append("jaxtyping")
# The options every run uses (they are part of mypy's cache key).
MYPY_OPTIONS = ["--show-column-numbers", "--show-error-codes", "--no-error-summary", "--hide-error-context",
                "--no-color-output", "--cache-fine-grained"]  # fmt: skip
_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|note|warning): "
                   r"(?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$")  # fmt: skip


@dataclass(frozen=True, order=True)
class Message:
    path: str
    line: int
    column: int
    severity: str
    message: str
    code: str | None

    @property
    def rule_code(self) -> str | None:
        """``PRM006`` for ``promolint-literal-overflow``."""
        from promolint.rules import ALL_RULES

        names = {f"promolint-{rule.name}": rule.code for rule in ALL_RULES}
        return names.get(self.code or "")


def _seed_key() -> str:
    digest = hashlib.sha1()
    digest.update(MYPY_VERSION.encode())
    digest.update(sys.version.encode())
    digest.update((REPO / "mypy_plugin" / "__init__.py").read_bytes())  # mypy's plugin snapshot
    digest.update(" ".join(SEED_IMPORTS + MYPY_OPTIONS).encode())
    for package in ("numpy", "jax", "jaxtyping"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin:
            digest.update(str(Path(spec.origin).parent.stat().st_mtime_ns).encode())
    return digest.hexdigest()[:12]


def write_project(root: Path, promolint: dict | None = None, mypy_extra: str = "") -> None:
    """pyproject.toml with the plugin enabled (and a [tool.promolint] table when given)."""
    lines = ["[tool.mypy]", 'plugins = ["promolint_mypy"]', f"cache_dir = {json.dumps(str(root / '.mypy_cache'))}"]
    if promolint is not None:
        lines.append("[tool.promolint]")
        lines += [f"{key} = {_toml(value)}" for key, value in promolint.items()]
    lines.append(mypy_extra)  # last: it may open tables of its own
    (root / "pyproject.toml").write_text("\n".join(lines) + "\n")


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def seed_cache() -> Path:
    """The shared library cache (built on first use; concurrent test workers wait)."""
    seed = Path(tempfile.gettempdir()) / f"promolint-mypy-seed-{_seed_key()}"
    lock = seed.with_suffix(".lock")
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            if not (seed / "ready").exists():
                shutil.rmtree(seed, ignore_errors=True)
                project = Path(tempfile.mkdtemp(prefix="promolint-seed-"))
                try:
                    write_project(project)
                    (project / "seed.py").write_text("".join(f"import {name}\n" for name in SEED_IMPORTS))
                    result = _mypy(project, ["seed.py"])
                    if "error" in result.stdout and "seed.py" in result.stdout:
                        raise RuntimeError(f"seeding mypy's cache failed:\n{result.stdout}\n{result.stderr}")
                    shutil.copytree(project / ".mypy_cache", seed)
                    (seed / "ready").write_text(MYPY_VERSION)
                finally:
                    shutil.rmtree(project, ignore_errors=True)
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    return seed


def prepare(root: Path, promolint: dict | None = None, mypy_extra: str = "") -> Path:
    """A project folder with the plugin configured and the seed cache copied in."""
    root.mkdir(parents=True, exist_ok=True)
    write_project(root, promolint, mypy_extra)
    if not (root / ".mypy_cache").exists():
        shutil.copytree(seed_cache(), root / ".mypy_cache", ignore=shutil.ignore_patterns("ready"))
    return root


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("MYPYPATH", None)
    env["PROMOLINT_MYPY_DEBUG"] = "1"  # a failure of the plugin fails the test, with its traceback
    return env


def _mypy(root: Path, arguments: list[str], extra: list[str] | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "mypy", *MYPY_OPTIONS, *(extra or []), *arguments]
    return subprocess.run(command, check=False, cwd=root, capture_output=True, text=True, env=_environment(), timeout=600)


def run_mypy(root: Path, arguments: list[str], extra: list[str] | None = None) -> list[Message]:
    """mypy's messages for ``arguments`` (paths relative to ``root``)."""
    result = _mypy(root, arguments, extra)
    if result.returncode not in (0, 1) or "INTERNAL ERROR" in result.stdout + result.stderr:
        raise AssertionError(f"mypy failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return parse(result.stdout)


def run_mypy_raw(root: Path, arguments: list[str], extra: list[str] | None = None) -> subprocess.CompletedProcess:
    return _mypy(root, arguments, extra)


def parse(output: str) -> list[Message]:
    messages = []
    for line in output.splitlines():
        match = _LINE.match(line)
        if match:
            messages.append(Message(match["path"].replace(os.sep, "/"), int(match["line"]), int(match["column"]),
                                    match["severity"], match["message"], match["code"]))  # fmt: skip
    return messages


def copy_cases(destination: Path, names: list[str]) -> None:
    for name in names:
        shutil.copy(CASES / name, destination / name)


def case_names() -> list[str]:
    """The case modules this environment can check (jaxtyping cases need jaxtyping)."""
    return sorted(p.name for p in CASES.glob("*.py") if HAS_JAXTYPING or "jaxtyping" not in p.name)


# --- golden files -------------------------------------------------------------------------
# Configurations the cases run under: [tool.promolint] tables.
CONFIGS: dict[str, dict] = {
    "auto": {},
    "x64-on": {"x64": "on", "extend-select": ["PRM001"]},  # opt-in, the rule x64 on is for
    "x64-off": {"x64": "off"},
    "strict": {"promotion": "strict"},
    "selected": {"select": ["PRM00"], "ignore": ["PRM006", "PRM007"]},
}
_HEADER = "# promolint mypy plugin golden output -- mypy {version}, config {config}: {table}\n"
_HEADER_RE = re.compile(r"^# promolint mypy plugin golden output -- mypy (?P<version>\S+),")
_COMMENT = "# MYPY: "


def golden_path(config: str, case: str) -> Path:
    return GOLDEN / config / case


def merge(source: str, messages: list[Message], config: str) -> str:
    """The source with mypy's messages as comments under the lines they concern (pydantic style)."""
    by_line: dict[int, list[Message]] = {}
    for message in messages:
        by_line.setdefault(message.line, []).append(message)
    out = [_HEADER.format(version=MYPY_VERSION, config=config, table=json.dumps(CONFIGS[config], sort_keys=True))]
    lines = source.splitlines()
    for number, line in enumerate(lines, 1):
        out.append(line + "\n")
        for message in sorted(by_line.pop(number, []), key=lambda m: (m.column, m.severity, m.message)):
            code = f"  [{message.code}]" if message.code else ""
            out.append(f"{_COMMENT}{message.severity}: {message.message}{code}\n")
    for number, rest in sorted(by_line.items()):  # beyond the last line (should not happen)
        out += [f"{_COMMENT}line {number}: {m.severity}: {m.message}\n" for m in rest]
    return "".join(out)


def golden_version(path: Path) -> str | None:
    if not path.exists():
        return None
    match = _HEADER_RE.match(path.read_text().splitlines()[0] if path.read_text() else "")
    return match["version"] if match else None


def same_minor(version: str) -> bool:
    return version.split(".")[:2] == MYPY_VERSION.split(".")[:2]


def golden_outputs(config: str, workdir: Path) -> dict[str, str]:
    """The merged golden text of every case under one configuration (one mypy run)."""
    root = prepare(workdir / config, CONFIGS[config])
    names = case_names()
    copy_cases(root, names)
    messages = run_mypy(root, names)
    outputs = {}
    for name in names:
        own = [m for m in messages if m.path == name]
        outputs[name] = merge((CASES / name).read_text(), own, config)
    return outputs

"""The mypy plugin and ``promolint check`` on the primer's projects: the findings each reports,
and every difference.

    python tests/primer/front_ends.py [--projects rlax mctx ...] [--mode default|x64|strict]

Both front ends run the engine's one analysis; the plugin seeds it with what mypy knows (the
declared types of parameters and names, values imported from other modules), so a difference
is a fact mypy adds or a bug.  Each project is copied into a temporary folder with the plugin
configured (the mypy test harness's seeded library cache makes the run check only the project's
own modules); every file the primer lints is checked by both.  Prints, per project, the findings
of each and the differences, located by file, line and code.
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import replace
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "mypy_plugin")]
import mypy_harness as harness  # noqa: E402
from _projects import DEFAULT_CACHE, fetch, load_projects, python_files  # noqa: E402

from promolint.driver.config import Config  # noqa: E402
from promolint.engine.walker.analysis import Settings  # noqa: E402
from promolint.engine.project_facts import ProjectFacts  # noqa: E402
from promolint.driver.project import project_facts  # noqa: E402
from promolint.driver.lint import lint_source  # noqa: E402
from promolint.rules import ALL_RULES  # noqa: E402

MODES = {"default": {}, "x64": {"x64": "on"}, "strict": {"promotion": "strict"}}
CODES = frozenset(rule.code for rule in ALL_RULES if not rule.opt_in)
SCOPE = Config()  # the default settings: rules scoped out of test modules stay out, as in the plugin
DEFAULT_PROJECTS = ["rlax", "mctx", "dm-pix", "evosax"]


def compare(name: str, mode: str, cache: Path) -> tuple[set, set, set]:
    """(both, only check, only the plugin): (file, line, code) findings of one project."""
    project = next(p for p in load_projects() if p.name == name)
    root = fetch(project, cache)
    files = python_files(root, project)
    with tempfile.TemporaryDirectory() as folder:
        work = harness.prepare(Path(folder) / "project", MODES[mode])
        relative = [str(path.relative_to(root)) for path in files]
        for path, rel in zip(files, relative):
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, work / rel)
        # package bases: the project's root (mujoco-mjx ships `mujoco/mjx` in a namespace package)
        messages = harness.run_mypy(work, ["--ignore-missing-imports", "--follow-imports=silent",
                                           "--explicit-package-bases", *relative])  # fmt: skip
    plugin = {(m.path, m.line, m.rule_code) for m in messages if m.rule_code in CODES}
    settings = Settings(x64=MODES[mode].get("x64", "auto"), promotion=MODES[mode].get("promotion", "auto"))
    read = [(path, path.read_bytes()) for path in files]
    facts = project_facts(read, settings.x64 == "auto")  # the files are one run, as `promolint check PACKAGES`
    check = {(rel, d.line, d.code) for (path, data), rel in zip(read, relative)
             for d in lint_source(data, rel, replace(settings, facts=facts.get(str(path), ProjectFacts())),
                                  CODES & SCOPE.enabled_codes(Path(rel)))}  # fmt: skip
    return check & plugin, check - plugin, plugin - check


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", nargs="+", default=DEFAULT_PROJECTS, help="names, space- or comma-separated")
    parser.add_argument("--mode", choices=list(MODES), default="x64")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    names = [name for value in args.projects for name in value.split(",") if name]
    unknown = sorted(set(names) - {p.name for p in load_projects()})
    if unknown:
        parser.error(f"not primer projects (tests/primer/projects.toml): {', '.join(unknown)}")
    differing = 0
    for name in names:
        both, only_check, only_plugin = compare(name, args.mode, args.cache)
        print(f"{name} ({args.mode}): {len(both)} findings from both, {len(only_check)} from check only, "
              f"{len(only_plugin)} from the plugin only")  # fmt: skip
        for side, keys in (("check only", only_check), ("plugin only", only_plugin)):
            for path, line, code in sorted(keys):
                print(f"  {side}: {path}:{line}: {code}")
        differing += len(only_check) + len(only_plugin)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())

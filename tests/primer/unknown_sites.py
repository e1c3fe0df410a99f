"""Which kinds of expression leave the primer's NumPy/JAX value sites of unknown dtype.

Usage: ``python tests/primer/unknown_sites.py [--promolint CMD] [--project NAME[,NAME]] [--top N]
[--examples K]``.

Runs ``promolint reveal --format json`` (``CMD``: ``python -m promolint`` of this interpreter by
default; ``promolint`` to measure another install) on each unpacked project's packages, prints each
project's static coverage (``promolint.driver.reveal.coverage``), then counts the sites that are not
known by the kind of their expression: the call of a NumPy/JAX function (resolved through the
file's imports), a method call ``.xxx()``, an attribute ``.xxx``, a subscript, an operator...
The largest kinds are where a catalog row or an engine fact would raise coverage most.
"""

from __future__ import annotations

import argparse
import ast
import json
import shlex
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _projects import DEFAULT_CACHE, load_projects, python_files  # noqa: E402
from missing_calls import ROOTS, _dotted, _imports  # noqa: E402

from promolint.driver.reveal import COVERAGE_LIBRARIES, coverage  # noqa: E402

_CHUNK = 40  # files per reveal invocation: its JSON stays a few megabytes


def reveal(promolint: list[str], root: Path, files: list[Path]) -> list[dict]:
    records: list[dict] = []
    for start in range(0, len(files), _CHUNK):
        chunk = [str(p.relative_to(root)) for p in files[start : start + _CHUNK]]
        done = subprocess.run([*promolint, "reveal", "--format", "json", *chunk], cwd=root, capture_output=True,
                              text=True)  # fmt: skip
        if done.returncode not in (0, 1):  # 1: a file did not parse
            raise SystemExit(f"reveal failed in {root}: {done.stderr[-2000:]}")
        records += json.loads(done.stdout)
    return records


def _qualified(node: ast.expr, imports: dict[str, str]) -> str | None:
    """``jnp.linalg.norm`` as ``jax.numpy.linalg.norm`` when its head is a NumPy/JAX import."""
    parts = _dotted(node)
    if not parts or parts[0] not in imports:
        return None
    name = ".".join([imports[parts[0]], *parts[1:]])
    return name if name.split(".")[0] in ROOTS else None


def kind(text: str, imports: dict[str, str]) -> str:
    """What an expression is, at the grain a catalog row or an engine fact would cover."""
    try:
        node = ast.parse(f"({text})", mode="eval").body
    except SyntaxError:
        return "unparsed"
    if isinstance(node, ast.Call):
        func = node.func
        name = _qualified(func, imports)
        if name:
            return f"call {name}"
        if isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Subscript) and isinstance(func.value.value, ast.Attribute) \
                    and func.value.value.attr == "at":  # fmt: skip
                return f"method .at[].{func.attr}()"
            return f"method .{func.attr}()"
        return "call of a local name" if isinstance(func, ast.Name) else "call of another expression"
    if isinstance(node, ast.Attribute):
        name = _qualified(node, imports)
        return f"module attribute {name}" if name else f"attribute .{node.attr}"
    if isinstance(node, ast.BinOp):
        return f"operator {type(node.op).__name__}"
    if isinstance(node, ast.UnaryOp):
        return f"unary {type(node.op).__name__}"
    if isinstance(node, ast.Subscript):
        return "subscript of .at" if isinstance(node.value, ast.Attribute) and node.value.attr == "at" else "subscript"
    return type(node).__name__.lower()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--promolint", default=f"{shlex.quote(sys.executable)} -m promolint")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--project", help="comma-separated names (default: every unpacked project)")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--examples", type=int, default=0, help="this many example texts per kind")
    args = parser.parse_args()
    wanted = set(args.project.split(",")) if args.project else None
    promolint = shlex.split(args.promolint)
    kinds: Counter = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    total_known = total_sites = 0
    for project in load_projects():
        root = args.cache / "src" / f"{project.name}-{project.version}"
        if (wanted and project.name not in wanted) or not root.is_dir():
            continue
        records = reveal(promolint, root, python_files(root, project))
        known, sites = coverage(records)
        total_known, total_sites = total_known + known, total_sites + sites
        print(f"{project.name:<18} {known / max(sites, 1):6.1%} ({known}/{sites})")
        imports: dict[str, dict[str, str]] = {}
        for r in records:
            if r["target"] or r["library"] not in COVERAGE_LIBRARIES or r["dtype"] is not None:
                continue
            if r["path"] not in imports:
                imports[r["path"]] = _imports(ast.parse((root / r["path"]).read_bytes()))
            what = kind(r["text"], imports[r["path"]])
            kinds[what] += 1
            if len(examples[what]) < args.examples:
                examples[what].append(f"{project.name}/{r['path']}:{r['line']}: {r['text'][:100]}")
    print(f"{'all':<18} {total_known / max(total_sites, 1):6.1%} ({total_known}/{total_sites})\n")
    unknown = sum(kinds.values())
    print(f"{'count':>6} {'share':>6}  kind of unknown site")
    for what, count in kinds.most_common(args.top):
        print(f"{count:>6} {count / max(unknown, 1):6.1%}  {what}")
        for example in examples[what]:
            print(f"{'':>16}{example}")


if __name__ == "__main__":
    main()

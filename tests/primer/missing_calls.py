"""Which NumPy/JAX functions the primer's projects call that the engine does not know.

Usage: ``python tests/primer/missing_calls.py [--source DIR] [--top N]``.

Walks every ``.py`` file under the unpacked primer projects (``.primer_cache/src`` by default:
``tests/primer/run.py`` unpacks them there) with Python's ``ast``, resolves each call's target through the module's
imports (``import jax.numpy as jnp``, ``from jax import lax``, ``from jax.nn import relu``...)
to a qualified name under ``numpy`` or ``jax``, and counts the names the engine handles nowhere:
not a catalog entry, not a dtype (``np.float32(x)``), not one of the flow's higher-order, control
or mode functions.  Method calls (``x.astype``) and calls of other objects are out of scope.
Prints the most frequent missing names and the share of NumPy/JAX call sites they make up.
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from pathlib import Path

from promolint.engine import calls
from promolint.engine.catalog import ALIASES, CATALOG
from promolint.engine.flow import control, higher_order, modes, objects
from promolint.engine.values import DTypeRef

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / ".primer_cache" / "src"
ROOTS = ("numpy", "jax")

# Names the flow handles before the catalog (``promolint.engine.flow``).
HANDLED_ELSEWHERE = frozenset({
    *higher_order.TRANSPARENT, *higher_order._GRADIENTS, *higher_order._TREE_MAPS, *higher_order._TREE_LEAVES,
    higher_order._PARTIAL, *control.CONTROL, *modes.CONFIG_UPDATES, *modes.CONFIG_READS, *modes.SWITCHES,
    "jax.device_put", *objects.FIELD_FUNCTIONS,
})  # fmt: skip


def handled(qualname: str) -> bool:
    return (qualname in CATALOG or qualname in ALIASES or qualname in HANDLED_ELSEWHERE
            or isinstance(calls.resolve_reference(qualname), DTypeRef))  # fmt: skip


def _imports(tree: ast.Module) -> dict[str, str]:
    """Local name -> qualified name of every import in the file (any scope: a name imported in a
    function is almost always the module-level alias again)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    names[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def call_targets(source: str) -> list[str]:
    """The qualified NumPy/JAX names a module's calls resolve to."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    names = _imports(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        parts = _dotted(node.func)
        if not parts or parts[0] not in names:
            continue
        qualname = ".".join([names[parts[0]], *parts[1:]])
        if qualname.split(".")[0] in ROOTS:
            found.append(qualname)
    return found


def measure(source: Path) -> tuple[Counter, Counter]:
    """(every NumPy/JAX call target, the missing ones), counted over the projects' files."""
    every: Counter = Counter()
    for path in sorted(source.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        every.update(call_targets(text))
    missing = Counter({name: count for name, count in every.items() if not handled(name)})
    return every, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="the unpacked projects")
    parser.add_argument("--top", type=int, default=80)
    args = parser.parse_args()
    if not args.source.is_dir():
        raise SystemExit(f"no projects at {args.source}: run tests/primer/run.py once to unpack them")
    every, missing = measure(args.source)
    total, absent = sum(every.values()), sum(missing.values())
    print(f"{'count':>6}  missing qualified name")
    for name, count in missing.most_common(args.top):
        print(f"{count:>6}  {name}")
    print(f"\n{total} NumPy/JAX call sites, {len(every)} names; missing: {absent} sites "
          f"({absent / max(total, 1):.1%}), {len(missing)} names")  # fmt: skip


if __name__ == "__main__":
    main()

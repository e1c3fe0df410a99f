"""How fast `promolint server` answers an edit of a ~1,000-line file, against ``ast.parse`` of the
same text measured in the same run.

    python tests/benchmarks/lsp_latency.py [--edits 30] [--no-download]

For each file: the parse floor (``ast.parse``), the analysis the server runs on every change
(``lint_with_fixes``: parse, analysis, rules, noqa), and end to end through a real server over
stdio: the time from sending an incremental ``didChange`` to receiving the ``publishDiagnostics``
of that version (each edit waits for the previous one's diagnostics), and the first hover after
an edit (it computes the reveal records of the new text), and the code actions an editor asks for
at the cursor after each edit (no ``only``: the light bulb), from a client that resolves them
lazily as VS Code does, and the resolve of "fix all" on the last version.  Files: a synthetic 1,000-line file
made of the README example's statements, and the optax files of 800 to 1,300 lines (optax 0.2.8,
downloaded into the gitignored benchmark cache; skipped with --no-download).
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(HERE.parent / "support")]
from _corpus import fetch  # noqa: E402
from lsp_session import LspSession  # noqa: E402

from promolint.engine.walker.analysis import Settings  # noqa: E402
from promolint.driver.lint import lint_with_fixes  # noqa: E402

CODES = frozenset(f"PRM00{i}" for i in range(10))


def synthetic(lines: int = 1000) -> str:
    """The README example's statements, repeated (each copy in a function of its own, and at
    module level) up to ``lines`` lines."""
    example = (ROOT / "fixtures" / "readme_example.py").read_text().splitlines()
    body = [line for line in example[5:] if line.strip()]
    out = ["import jax", "import jax.numpy as jnp", "import numpy as np", ""]
    copy = 0
    while len(out) < lines:
        out += [f"def step_{copy}(params, tokens, n: int):"] + [f"    {line}" for line in body] + [""] + body + [""]
        copy += 1
    return "\n".join(out[:lines]) + "\n"


def median_ms(action, repeat: int) -> float:
    action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


RESOLVING_CLIENT = {"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}}


def end_to_end(text: str, edits: int) -> tuple[list[float], list[float], list[float], float]:
    """Milliseconds from each didChange to its diagnostics, from each first hover to its answer,
    from each light-bulb code action request to its answer, and of one "fix all" resolve."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[tool.promolint]\n")
        session = LspSession(root)
        session.initialize(RESOLVING_CLIENT)
        uri = (root / "bench.py").as_uri()
        session.open(uri, text)
        lines = text.splitlines()
        target = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].strip())  # an edit mid-file
        column = len(lines[target])
        changes, hovers, actions, fix_all = [], [], [], None
        for version in range(2, edits + 2):
            # Type a space at the end of the line, then delete it: the text alternates, every version analyzed.
            edit = ({"range": {"start": {"line": target, "character": column},
                               "end": {"line": target, "character": column}}, "text": " "}
                    if version % 2 == 0 else
                    {"range": {"start": {"line": target, "character": column},
                               "end": {"line": target, "character": column + 1}}, "text": ""})  # fmt: skip
            sent = time.perf_counter()
            session.change(uri, version, [edit])
            arrived, _ = session.wait_for("textDocument/publishDiagnostics", lambda p: p.get("version") == version)
            changes.append((arrived - sent) * 1000)
            start = time.perf_counter()
            session.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": target, "character": 4}})  # fmt: skip
            hovers.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            where = {"start": {"line": target, "character": 0}, "end": {"line": target, "character": 0}}
            offered = session.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": where,
                                                                  "context": {"diagnostics": []}})  # fmt: skip
            actions.append((time.perf_counter() - start) * 1000)
            fix_all = next((a for a in offered if a["kind"].startswith("source.fixAll")), fix_all)
        resolve = float("nan")
        if fix_all is not None and fix_all["data"]["version"] == edits + 1:
            start = time.perf_counter()
            session.request("codeAction/resolve", fix_all)
            resolve = (time.perf_counter() - start) * 1000
        session.close()
    return changes, hovers, actions, resolve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--no-download", action="store_true", help="only the synthetic file")
    args = parser.parse_args()
    files = [("synthetic (README example x N)", synthetic())]
    if not args.no_download:
        optax = fetch(names=["optax"]) / "optax"
        for path in sorted(optax.rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if 800 <= len(text.splitlines()) <= 1300:
                files.append((str(path.relative_to(optax)), text))
    print(f"{'file':<44} {'lines':>5} {'ast.parse':>9} {'analysis':>8} {'change':>7} {'p90':>6} {'hover':>6}"
          f" {'action':>6} {'fix-all':>7} {'change/parse':>12}")  # fmt: skip
    for name, text in files:
        data = text.encode()
        parse = median_ms(lambda: ast.parse(data), args.repeat)
        analysis = median_ms(lambda: lint_with_fixes(data, "bench.py", Settings(), CODES), args.repeat)
        changes, hovers, actions, resolve = end_to_end(text, args.edits)
        change, p90 = statistics.median(changes), statistics.quantiles(changes, n=10)[-1]
        print(f"{name[-44:]:<44} {len(text.splitlines()):>5} {parse:>7.1f}ms {analysis:>6.1f}ms {change:>5.1f}ms"
              f" {p90:>4.1f}ms {statistics.median(hovers):>4.1f}ms {statistics.median(actions):>4.1f}ms"
              f" {resolve:>5.0f}ms {change / parse:>11.1f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run the reveal-oracle corpus for real, in ONE JAX mode, and print what every site held.

Usage: ``python tests/oracle/run_corpus.py MODE [--output FILE] [--only SNIPPET_ID ...]``,
MODE one of ``x64off``, ``x64on``, ``strict``.  The script sets JAX's environment for the mode
itself, before anything imports JAX, so it must run in its own process (the oracle test starts
one per mode).

Each snippet of ``corpus/*.py`` (snippets are separated by a line ``# ---``) is prefixed with
the imports of ``corpus/_preamble.py`` and the preamble definitions it uses, instrumented at
every expression in a value position of its own lines (every site reveal can report, and the
ones it misses), and executed in a fresh namespace.  The output maps each snippet to the
observations of its sites (keyed ``line:col:end_line:end_col`` in the combined source), the
errors that escaped and where they surfaced.  The engine is not consulted here: the oracle
test runs ``reveal`` on the same combined sources and compares.

Directives, as comment lines inside a snippet:
  ``# oracle: modes=x64off,strict``  run the snippet in these modes only;
  ``# oracle: follow-code``  the snippet switches modes itself (``with jax.enable_x64(...)``):
      analyse it with ``--x64 auto --promotion auto`` and run it only where the process starts
      in the same state (x64off).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import re
import sys
import time
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
PREAMBLE = CORPUS / "_preamble.py"  # imports, then one independent definition a line
SEPARATOR = "# ---"

# mode -> (environment, reveal settings (x64, promotion))
MODES: dict[str, tuple[dict[str, str], tuple[str, str]]] = {
    "x64off": ({"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "standard"}, ("off", "standard")),
    "x64on": ({"JAX_ENABLE_X64": "1", "JAX_NUMPY_DTYPE_PROMOTION": "standard"}, ("on", "standard")),
    "strict": ({"JAX_ENABLE_X64": "0", "JAX_NUMPY_DTYPE_PROMOTION": "strict"}, ("off", "strict")),
}
FOLLOW_CODE_MODE = "x64off"  # the state 'auto' analysis starts from


@dataclass
class Snippet:
    id: str  # file.py:line of the snippet's first line in its corpus file
    text: str
    modes: tuple[str, ...] = tuple(MODES)
    follow_code: bool = False
    offset: int = 0  # lines of preamble before the snippet in the combined source
    source: str = field(default="", repr=False)  # the preamble lines it needs, then the snippet

    def settings(self, mode: str) -> tuple[str, str]:
        return ("auto", "auto") if self.follow_code else MODES[mode][1]

    def line_in_file(self, line: int) -> str:
        """A combined-source line as ``file.py:N`` of the corpus file."""
        name, first = self.id.rsplit(":", 1)
        return f"{name}:{int(first) + line - self.offset - 1}"


def preamble() -> list[tuple[str | None, str]]:
    """The preamble's statements as (name defined or None for imports, line)."""
    statements = []
    for line in PREAMBLE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name = None if line.startswith(("import ", "from ")) else line.split("=")[0].strip()
        statements.append((name, line))
    return statements


def _preamble_for(text: str, statements: list[tuple[str | None, str]]) -> str:
    """The imports and the preamble definitions ``text`` refers to.  The definitions are
    independent of each other, so a snippet sees exactly what the full preamble would give it;
    analysing a dozen lines instead of sixty keeps the three-mode run fast."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    return "".join(f"{line}\n" for name, line in statements if name is None or name in words)


def load_corpus() -> list[Snippet]:
    statements = preamble()
    snippets: list[Snippet] = []
    for path in sorted(CORPUS.glob("*.py")):
        if path.name.startswith("_"):
            continue
        lines = path.read_text().splitlines()
        chunks: list[tuple[int, list[str]]] = [(1, [])]
        for number, line in enumerate(lines, start=1):
            if line.strip() == SEPARATOR:
                chunks.append((number + 1, []))
            else:
                chunks[-1][1].append(line)
        for first, body in chunks:
            if not any(line.strip() and not line.lstrip().startswith("#") for line in body):
                continue
            text = "\n".join(body) + "\n"
            modes, follow = tuple(MODES), False
            for line in body:
                if not line.strip().startswith("# oracle:"):
                    continue
                directive = line.strip()[len("# oracle:"):].strip()
                if directive.startswith("modes="):
                    modes = tuple(m.strip() for m in directive[len("modes="):].split(",") if m.strip())
                    assert set(modes) <= set(MODES), f"{path.name}:{first}: unknown mode in {directive!r}"
                elif directive == "follow-code":
                    follow, modes = True, (FOLLOW_CODE_MODE,)
                else:
                    raise ValueError(f"{path.name}:{first}: unknown directive {directive!r}")
            head = _preamble_for(text, statements)
            snippets.append(Snippet(f"{path.name}:{first}", text, modes, follow, head.count("\n"), head + text))
    return snippets


def span_key(record: dict) -> str:
    return f"{record['line']}:{record['column']}:{record['end_line']}:{record['end_column']}"


def reveal_snippet(snippet: Snippet, modes: list[str]) -> dict[str, list[dict]]:
    """reveal's records for the snippet's own lines (not the preamble's), per mode."""
    from promolint.engine.walker.analysis import Settings
    from promolint.driver.reveal import reveal_records_many

    settings = [Settings(*snippet.settings(mode)) for mode in modes]
    records = reveal_records_many(snippet.source.encode(), settings)
    if not isinstance(records, list):
        raise SyntaxError(f"{snippet.id}: {records.message}")
    return {mode: [r for r in one if r["line"] > snippet.offset] for mode, one in zip(modes, records)}


# --- running ------------------------------------------------------------------------------
def _restore_config(jax, saved: dict[str, object]) -> None:
    for name, value in saved.items():
        if getattr(jax.config, name) != value:
            jax.config.update(name, value)


def instrumented(snippet: Snippet, cache: Path | None) -> tuple[str, dict[int, tuple[int, int, int, int]]]:
    """The snippet instrumented at every value position of its own lines: a superset of the
    sites reveal reports, so a value reveal never mentions counts as unknown rather than going
    unseen.  The result does not depend on the mode; ``cache`` keeps it between runs."""
    from promolint.runtime.instrument import instrument

    path = None
    if cache is not None:
        digest = hashlib.sha256(f"{snippet.offset}\0{snippet.source}".encode()).hexdigest()[:32]
        path = cache / f"{digest}.json"
        if path.exists():
            stored = json.loads(path.read_text())
            return stored["code"], {int(k): tuple(v) for k, v in stored["ids"].items()}
    code, ids = instrument(snippet.source, lambda span: span[0] > snippet.offset)
    if path is not None:
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"code": code, "ids": ids}))
        temporary.replace(path)
    return code, ids


def run_snippet(snippet: Snippet, mode: str, cache: Path | None = None) -> dict:
    from promolint.runtime.instrument import Recorder

    code, ids = instrumented(snippet, cache)
    recorder = Recorder(spans=ids)
    # A module of its own, registered while it runs: @dataclass reads its class's module.
    module = types.ModuleType("__corpus__")
    namespace = module.__dict__
    namespace.update({"__builtins__": __builtins__, **recorder.namespace()})
    sys.modules["__corpus__"] = module
    started = time.perf_counter()
    import jax

    saved = {name: getattr(jax.config, name) for name in ("jax_enable_x64", "jax_numpy_dtype_promotion")}
    error = None
    try:
        compiled = compile(code, snippet.id, "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compiled, namespace)
    except Exception as exc:  # noqa: BLE001 - every exception is an observation
        error = failure(recorder, ids, exc, snippet.id)
    finally:
        _restore_config(jax, saved)
        del sys.modules["__corpus__"]
    return outcome(recorder, ids, error, started)


def failure(recorder, ids: dict[int, tuple[int, int, int, int]], exc: Exception, filename: str) -> dict:
    """The exception that ended a run: what it was, the site it surfaced from, and the innermost
    line of ``filename`` it passed (where a statement that is no expression, an augmented
    assignment, raised)."""
    from promolint.runtime.instrument import describe_error

    raising = recorder.failed(exc)
    lines = [tb.tb_lineno for tb in _traceback(exc.__traceback__) if tb.tb_frame.f_code.co_filename == filename]
    return {**describe_error(exc), "site": _key(ids[raising]) if raising is not None else None,
            "line": lines[-1] if lines else None}  # fmt: skip


def outcome(recorder, ids: dict[int, tuple[int, int, int, int]], error: dict | None, started: float) -> dict:
    """A run's observations, keyed by span: what each site held, the errors, the sites abandoned."""
    return {
        "sites": {_key(ids[site]): seen for site, seen in recorder.observations.items()},
        "errors": {_key(ids[site]): info for site, info in recorder.errors.items()},
        "abandoned": sorted(_key(ids[site]) for site in recorder.abandoned),
        "error": error,
        "seconds": round(time.perf_counter() - started, 4),
    }


def _traceback(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def _key(span: tuple[int, int, int, int]) -> str:
    return ":".join(map(str, span))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=sorted(MODES))
    parser.add_argument("--output", "-o", help="write the JSON here instead of stdout")
    parser.add_argument("--only", nargs="*", help="snippet ids (file.py:line) to run")
    parser.add_argument("--cache", help="a folder to keep instrumented snippets in between runs")
    args = parser.parse_args(argv)
    environment, _ = MODES[args.mode]
    if "jax" in sys.modules:
        raise SystemExit("run_corpus must set JAX's mode before JAX is imported: run it in a fresh process")
    os.environ.update(environment)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    warnings.simplefilter("ignore")  # warnings are observations of nothing here, never errors

    import jax  # noqa: F401 - after the environment is set

    cache = Path(args.cache) if args.cache else None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    results = {}
    started = time.perf_counter()
    for snippet in load_corpus():
        if args.mode not in snippet.modes or (args.only and snippet.id not in args.only):
            continue
        results[snippet.id] = run_snippet(snippet, args.mode, cache)
    payload = json.dumps({"mode": args.mode, "seconds": round(time.perf_counter() - started, 2),
                          "snippets": results})  # fmt: skip
    if args.output:
        Path(args.output).write_text(payload)
    else:
        print(payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``promolint reveal`` against the programs run for real: the inference engine's oracle.

Every snippet of ``corpus/`` runs under NumPy and JAX in three modes (x64 off, x64 on, strict
promotion), one subprocess per mode (``run_corpus.py``), instrumented at every expression in a
value position (every site reveal can report, and those it does not).  Wherever reveal claims a
dtype, the run-time dtype, weak flag and library must be the claimed ones (one of them, for a
candidate set); wherever either side says an operation raises, the other must say the same
exception class at the same site (a statement's error at its target).  Sites where the run saw a
value or an exception and reveal has no claim are unknown: under 5% of them.
``test_corpus_covers_catalog_operators_and_flow`` keeps the corpus complete.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
import pytest
from run_corpus import MODES, Snippet, load_corpus, reveal_snippet, span_key
from workers import ModeWorkers, worker_environment

HERE = Path(__file__).resolve().parent
MAX_UNKNOWN_RATE = 0.05


@pytest.fixture(scope="module")
def corpus() -> list[Snippet]:
    return load_corpus()


@pytest.fixture(scope="module")
def revealed(corpus) -> dict[str, dict[str, list[dict]]]:
    """reveal's records of every snippet in every mode it runs in (parsed once per snippet)."""
    return {s.id: reveal_snippet(s, list(s.modes)) for s in corpus}


@pytest.fixture(scope="module")
def runtime(request):
    """Start the three corpus runs at once; each test waits for its own mode's.  Under xdist a
    worker starts only the modes it is given, when it is given them.

    Compiling the corpus's few thousand tiny XLA programs is most of a run, so the runs share
    JAX's persistent compilation cache, kept in pytest's cache directory between sessions with
    the instrumented snippets (libcst's positions are the rest of the cost)."""
    workers = ModeWorkers(worker_environment(), timeout=900, prefix="promolint-oracle-")
    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("promolint-oracle") if cache is not None else workers.folder
    compiled, instrumented = root / "jax-compilation", root / "instrumented"
    workers.environment.update({
        "JAX_COMPILATION_CACHE_DIR": str(compiled),
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
        "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
    })  # fmt: skip

    def start(mode: str) -> None:
        workers.start(mode, [str(HERE / "run_corpus.py"), mode, "--cache", str(instrumented)])

    if "PYTEST_XDIST_WORKER" not in os.environ:
        for mode in MODES:
            start(mode)

    def result(mode: str) -> dict:
        if not workers.started(mode):
            start(mode)
        return workers.result(mode)

    yield result
    workers.close()


# --- comparing ------------------------------------------------------------------------------
@dataclass
class Tally:
    observed: int = 0  # sites the run saw a dtype at, or that raised
    agreed: int = 0
    unknown: int = 0
    candidates: int = 0  # claims of several dtypes (after a join) that held
    symbolic: int = 0  # "the dtype of x" claims, checked against x's own values at each evaluation
    mismatches: list[str] = field(default_factory=list)
    unknown_kinds: Counter = field(default_factory=Counter)


def _claim(record: dict) -> str:
    if record.get("error"):
        return record["error"]
    if record["dtype"] is None:
        return "unknown"
    return f"{'weak ' if record['weak'] else ''}{record['dtype']} [{record['library']}]"


# A Python scalar's dtype, as NumPy and the engine make it.
_PYTHON_DTYPES = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}


def _kept(record: dict, own: dict) -> dict:
    """What a record "the dtype of x" says a value is, where x was ``own``: x's dtype, with the
    record's weak flag and library where it gives them (``np.asarray(x)``: a strong NumPy array)."""
    if own.get("error") or own["dtype"] is None:
        return own
    library = record["library"] or own["library"]
    python = own["library"] == "python" and library != "python"
    return {**own, "dtype": _PYTHON_DTYPES[own["dtype"]] if python else own["dtype"], "library": library,
            "weak": own["weak"] if record["weak"] is None else record["weak"]}  # fmt: skip


def _seen(observation: dict) -> str:
    if observation.get("error"):
        return observation["error"]
    if observation["dtype"] is None:
        return "a value without a dtype"
    return f"{'weak ' if observation['weak'] else ''}{observation['dtype']} [{observation['library']}]"


def _same_error(claim: str | None, raised: dict) -> bool:
    """reveal's error class names the exception's class or a base of it, but never ValueError
    for JAX's TypePromotionError (its subclass) that reveal is expected to name."""
    classes = raised.get("classes") or [raised["error"]]
    if claim is None or claim not in classes:
        return False
    return not ("TypePromotionError" in classes and claim != "TypePromotionError")


def _agrees(record: dict, observation: dict) -> bool:
    if observation["dtype"] is None:
        return False
    return (
        observation["dtype"] in record["dtype"].split("|")
        and record["library"] in (None, observation["library"])  # None: any library
        and (record["weak"] is None or record["weak"] == observation["weak"])
    )


def compare(snippet: Snippet, records: list[dict], run: dict, tally: Tally) -> None:
    lines = snippet.source.splitlines()

    def where(at) -> str:
        line = at["line"] if isinstance(at, dict) else at if isinstance(at, int) else int(at.split(":")[0])
        return f"{snippet.line_in_file(line)} `{lines[line - 1].strip()}`"

    values = {}
    for record in records:
        if not record["target"]:
            values.setdefault(span_key(record), record)
    reads = _variable_reads(values)
    for key, record in values.items():
        seen = run["sites"].get(key, [])
        raised = run["errors"].get(key)
        claim = _claim(record)
        if record.get("variable") and not raised:
            # "The dtype of x": each evaluation has the dtype that x itself had in that
            # evaluation (x's first read in its function says which), and its weak flag and
            # library unless the record names others.
            own = run["sites"].get(reads.get(record["variable_key"], ""), [])
            if seen and len(own) == len(seen):
                tally.observed += 1
                tally.symbolic += 1
                if all(_seen(o) == _seen(_kept(record, x)) for o, x in zip(seen, own)):
                    tally.agreed += 1
                else:
                    tally.mismatches.append(f"{where(record)}: `{record['text']}` gave {', '.join(map(_seen, seen))} "
                                            f"where {record['variable']} was {', '.join(map(_seen, own))}; reveal: "
                                            f"the dtype of {record['variable']}")  # fmt: skip
            continue
        if raised and raised["innermost"]:
            tally.observed += 1
            if _same_error(record.get("error"), raised):
                tally.agreed += 1
            elif record["dtype"] is None and not record.get("error") and seen:
                # It gave values in other evaluations (a function called twice, a loop): a
                # single claim cannot say "this dtype, or an exception", so unknown is honest.
                tally.unknown += 1
                tally.unknown_kinds["(raised once) " + _kind_of(record["text"])] += 1
            elif record["dtype"] is None and not record.get("error"):
                tally.unknown += 1
                tally.mismatches.append(f"{where(record)}: `{record['text']}` raises {raised['error']} "
                                        f"({raised['message'][:120]}); reveal: unknown")  # fmt: skip
            else:
                tally.mismatches.append(f"{where(record)}: `{record['text']}` raises {raised['error']} "
                                        f"({raised['message'][:120]}); reveal: {claim}")  # fmt: skip
            continue
        if raised:  # an inner site raised and the exception passed through this one
            if record["dtype"] is not None:
                tally.mismatches.append(f"{where(record)}: `{record['text']}` never produced a value "
                                        f"(an inner site raised {raised['error']}); reveal: {claim}")  # fmt: skip
            continue
        if record.get("error"):
            if seen:
                tally.observed += 1
                tally.mismatches.append(f"{where(record)}: `{record['text']}` gave "
                                        f"{', '.join(map(_seen, seen))}; reveal: {claim}")  # fmt: skip
            continue
        typed = [o for o in seen if o["dtype"] is not None]
        if record["dtype"] is None:
            if typed:
                tally.observed += 1
                tally.unknown += 1
                tally.unknown_kinds[_kind_of(record["text"])] += 1
            continue
        if not seen:
            continue  # never evaluated (a branch not taken, code after an error)
        tally.observed += 1
        wrong = [o for o in seen if not _agrees(record, o)]
        if wrong:
            tally.mismatches.append(f"{where(record)}: `{record['text']}` gave "
                                    f"{', '.join(map(_seen, seen))}; reveal: {claim}")  # fmt: skip
        else:
            tally.agreed += 1
            tally.candidates += "|" in record["dtype"]
    for key, seen in run["sites"].items():  # values reveal did not report at all
        if key not in values and any(o["dtype"] is not None for o in seen):
            tally.observed += 1
            tally.unknown += 1
            tally.unknown_kinds["(no record) " + _kind_of(_text_at(lines, key))] += 1
    error = run["error"]
    if error and (error["site"] is None or error["site"] not in values):
        # Raised by a statement rather than an expression (``x += 1.5`` on an int array): reveal
        # reports it at the statement's target.
        targets = [r for r in records if r["target"] and r["line"] == error["line"]]
        tally.observed += 1
        if any(_same_error(r.get("error"), error) for r in targets):
            tally.agreed += 1
        else:
            claims = ", ".join(f"`{r['text']}`: {_claim(r)}" for r in targets) or "nothing"
            tally.mismatches.append(f"{where(error['line'] or snippet.offset + 1)}: raises {error['error']} "
                                    f"({error['message'][:120]}); reveal on that line: {claims}")  # fmt: skip


def _variable_reads(values: dict[str, dict]) -> dict[str, str]:
    """For each variable, the site of its first read (the name itself, revealed as the variable)."""
    reads: dict[str, str] = {}
    for key, record in sorted(values.items(), key=lambda kv: (kv[1]["line"], kv[1]["column"])):
        if record.get("variable") and record["text"] == record["variable"]:
            reads.setdefault(record["variable_key"], key)
    return reads


def _text_at(lines: list[str], key: str) -> str:
    line, column, end_line, end_column = map(int, key.split(":"))
    if line != end_line:
        return lines[line - 1][column - 1 :]
    return lines[line - 1][column - 1 : end_column - 1]


def _kind_of(text: str) -> str:
    """A short label for an unknown site, to summarise what the engine misses."""
    head = text.split("(")[0].strip()
    return head if len(head) <= 40 else head[:40]


@pytest.mark.parametrize("mode", list(MODES))
def test_reveal_agrees_with_runtime(mode, corpus, runtime, revealed, request):
    snippets = [s for s in corpus if mode in s.modes]
    outcome = runtime(mode)
    tally = Tally()
    missing = [s.id for s in snippets if s.id not in outcome["snippets"]]
    assert not missing, f"the {mode} run skipped snippets: {missing[:10]}"
    for snippet in snippets:
        compare(snippet, revealed[snippet.id][mode], outcome["snippets"][snippet.id], tally)
    rate = tally.unknown / max(tally.observed, 1)
    summary = (f"reveal oracle [{mode}]: {len(snippets)} snippets, {tally.observed} sites observed, "
               f"{tally.agreed} agree ({tally.agreed / max(tally.observed, 1):.1%}), "
               f"{len(tally.mismatches)} disagree, {tally.unknown} unknown ({rate:.2%}), "
               f"{tally.candidates} candidate-set claims, {tally.symbolic} dtype-of-a-variable claims; "
               f"run {outcome['seconds']}s")  # fmt: skip
    _report(request, summary, tally)
    assert not tally.mismatches, f"{summary}\n" + "\n".join(tally.mismatches)
    assert rate < MAX_UNKNOWN_RATE, f"{summary}\nunknown sites by kind: {tally.unknown_kinds.most_common(20)}"


def _report(request, summary: str, tally: Tally) -> None:
    request.node.user_properties.append(("summary", summary))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    lines = [summary]
    if tally.unknown_kinds:
        lines.append(f"  unknown most often at: {tally.unknown_kinds.most_common(8)}")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.ensure_newline()
            for line in lines:
                reporter.write_line(line)
    else:
        print("\n".join(lines))


# --- what the corpus covers -----------------------------------------------------------------
_FLOW = {
    "assignment": lambda n: isinstance(n, cst.Assign),
    "tuple unpacking": lambda n: isinstance(n, cst.Assign) and isinstance(n.targets[0].target, (cst.Tuple, cst.List)),
    "augmented assignment": lambda n: isinstance(n, cst.AugAssign),
    "if/else": lambda n: isinstance(n, cst.If) and n.orelse is not None,
    "for loop": lambda n: isinstance(n, cst.For),
    "while loop": lambda n: isinstance(n, cst.While),
    "with block": lambda n: isinstance(n, cst.With),
    "annotated function": lambda n: isinstance(n, cst.FunctionDef) and any(p.annotation for p in n.params.params),
    "unannotated function": lambda n: isinstance(n, cst.FunctionDef) and not any(p.annotation for p in n.params.params),
    "jit-decorated function": lambda n: isinstance(n, cst.FunctionDef) and any(
        "jit" in cst.Module([]).code_for_node(d.decorator) for d in n.decorators),
    "lambda": lambda n: isinstance(n, cst.Lambda),
    "comprehension": lambda n: isinstance(n, (cst.ListComp, cst.GeneratorExp)),
    "conditional expression": lambda n: isinstance(n, cst.IfExp),
    "walrus": lambda n: isinstance(n, cst.NamedExpr),
}


def _library_mix(operands) -> str:
    from promolint.engine.values import Array

    libraries = sorted({v.library.value for v in operands if isinstance(v, Array)})
    return "+".join(libraries)


def test_corpus_covers_catalog_operators_and_flow(corpus):
    """Every catalog function and array method is called, every operator meets Python, NumPy
    and JAX operands, and every flow construct the front end models appears."""
    from promolint.engine.catalog import CATALOG, METHODS
    from promolint.engine.operations import ARITHMETIC, COMPARISONS
    from promolint.engine.walker.analysis import Analysis, Settings
    from promolint.engine.walker.source import parse_bytes

    called, methods, operators, flow = set(), set(), set(), set()
    for snippet in corpus:
        module = parse_bytes(snippet.source.encode())
        analysis = Analysis(module, Settings(*snippet.settings(snippet.modes[0]))).run()
        for operation in analysis.operations.values():
            if operation.kind == "call":
                (called if "." in operation.op else methods).add(operation.op)
            elif operation.kind in ("binop", "compare"):
                operators.add((operation.op, _library_mix(operation.operands)))
        for node in _walk(cst.parse_module(snippet.text)):
            flow |= {name for name, test in _FLOW.items() if test(node)}
    missing = sorted(set(CATALOG) - called)
    assert not missing, f"catalog entries no snippet calls: {missing}"
    assert not sorted(set(METHODS) - methods), f"methods no snippet calls: {sorted(set(METHODS) - methods)}"
    mixes = ("jax", "numpy-array", "python")
    uncovered = [f"{op} {mix}" for op in sorted(ARITHMETIC | COMPARISONS) for mix in mixes
                 if not any(o == op and mix in m for o, m in operators)
                 and (op, mix) != ("@", "python")]  # a scalar cannot be matrix-multiplied  # fmt: skip
    assert not uncovered, f"operators never applied to these libraries: {uncovered}"
    assert not set(_FLOW) - flow, f"flow constructs missing: {sorted(set(_FLOW) - flow)}"


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)

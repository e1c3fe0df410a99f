"""Differential testing of the engine: generated programs run for real, in ONE JAX mode, against
``promolint reveal`` at every site.

    python tests/fuzz/differential.py MODE [--seeds START:STOP] [--programs FILE]
                                      [--minimize none|new|all] [--compare-runners N] [--output FILE]

The process sets JAX's mode before importing it, so each mode runs in its own process, like
the oracle's ``run_corpus.py``; programs run the oracle's way (``runner.py``: instrumented at
every value position, in a fresh namespace).  For each program it compares, the oracle's way:

* where reveal claims a dtype, the run-time dtype, weak flag and library must be the claimed
  ones (a candidate set holds when the value has one of its dtypes);
* where reveal claims a refusal (TypePromotionError, OverflowError, TypeError), the site must
  raise it; where a site raises a promotion error, reveal must claim it there;
* a site reveal leaves unknown, that produced a dtype, counts as unknown.

Each exception is judged once, at the innermost site it surfaced from; exceptions that are
no promotion question (a ValueError about shapes) end the program without a verdict.
A disagreement at a site whose operands already disagreed is *propagated*: counted, not
classified.  Every other disagreement gets a class (the operation and the run-time types of
its operands, what ran, what reveal said), is checked against KNOWN_LIMITATIONS.md, and the
first program of each class is minimized by dropping statements while the class persists.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT / "tests" / "oracle"), str(HERE)]

from generator import generate, render  # noqa: E402
from known_limitations import classify_limitation  # noqa: E402
from run_corpus import MODES, span_key  # noqa: E402
from runner import run_program  # noqa: E402
from test_reveal_oracle import _agrees, _same_error  # noqa: E402

PROMOTION_ERRORS = frozenset({"TypePromotionError", "OverflowError", "TypeError"})


@dataclass
class Tally:
    programs: int = 0
    sites: int = 0  # sites with a run-time dtype or a promotion error
    claimed: int = 0  # ... of which reveal claimed a dtype or an error
    agreed: int = 0
    unknown: int = 0
    disagreed: int = 0
    propagated: int = 0  # disagreements downstream of another
    raised: int = 0  # programs stopped by an exception

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Disagreement:
    mode: str
    kind: str  # value, refused-but-ran, raised, statement-raised
    line: int
    text: str  # the site's source
    runtime: str
    predicted: str
    signature: str  # the operation and its operands' run-time types
    propagated: bool = False

    @property
    def key(self) -> str:
        """The class: what disagreed, independent of names and positions."""
        return f"[{self.mode}] {self.kind}: {self.signature} -> runtime {self.runtime}; reveal {self.predicted}"


@dataclass
class Checked:
    tally: Tally
    disagreements: list[Disagreement] = field(default_factory=list)


# --- describing ---------------------------------------------------------------------------
def describe(observation: dict, missing: str = "unknown") -> str:
    """``weak float32 [jax]``; an error's class name; ``missing`` for a value without a dtype
    (reveal's unknown, or a run-time value such as a list)."""
    if observation.get("error"):
        return observation["error"]
    if observation.get("dtype") is None:
        return missing
    weak = "weak " if observation.get("weak") else ""
    return f"{weak}{observation['dtype']} [{observation['library']}]"


def _describe_all(observations: list[dict]) -> str:
    return " / ".join(dict.fromkeys(describe(o, "no dtype") for o in observations))


# --- checking one program -----------------------------------------------------------------
def check_program(text: str, mode: str, label: str = "fuzz") -> Checked:
    from promolint.engine.walker.analysis import Settings
    from promolint.driver.reveal import reveal_records

    records = reveal_records(text.encode(), Settings(*MODES[mode][1]))
    if not isinstance(records, list):
        raise SyntaxError(f"{label}: {records.message}")
    return compare(text, mode, records, run_program(text, f"<{label}>"))


def compare(text: str, mode: str, records: list[dict], run: dict) -> Checked:
    tally = Tally(programs=1, raised=int(run["error"] is not None))
    out = Checked(tally)
    values: dict[str, dict] = {}
    for record in records:
        if not record["target"]:
            values.setdefault(span_key(record), record)
    found: list[tuple[str, str, dict, str]] = []  # key, kind, record, what ran

    def disagree(key: str, kind: str, record: dict, runtime: str) -> None:
        tally.disagreed += 1
        found.append((key, kind, record, runtime))

    for key in sorted(values, key=_position):
        record = values[key]
        seen, raised = run["sites"].get(key, []), run["errors"].get(key)
        if raised and raised["innermost"]:
            if not (PROMOTION_ERRORS & set(raised["classes"]) or record.get("error")):
                continue  # no promotion question: the program just stops here
            tally.sites += 1
            if _same_error(record.get("error"), raised):
                tally.claimed += 1
                tally.agreed += 1
            elif record["dtype"] is None and not record.get("error"):
                tally.unknown += 1
            else:
                tally.claimed += 1
                disagree(key, "raised", record, raised["error"])
            continue
        if raised:
            continue  # an inner site raised: this one never produced a value
        typed = [o for o in seen if o["dtype"] is not None]
        if record.get("error"):
            if seen:
                tally.sites += 1
                tally.claimed += 1
                disagree(key, "refused-but-ran", record, _describe_all(seen))
            continue
        if record["dtype"] is None:
            if typed:
                tally.sites += 1
                tally.unknown += 1
            continue
        if not seen:
            continue  # never evaluated
        tally.sites += 1
        tally.claimed += 1
        if all(_agrees(record, o) for o in seen):
            tally.agreed += 1
        else:
            disagree(key, "value", record, _describe_all(seen))
    for key, seen in run["sites"].items():  # values reveal did not report at all
        if key not in values and any(o["dtype"] is not None for o in seen):
            tally.sites += 1
            tally.unknown += 1
    error = run["error"]
    if error and (error["site"] is None or error["site"] not in values):
        # Raised by a statement, not an expression (``x += 1.5`` on an integer NumPy array):
        # reveal reports it at the statement's target.
        targets = [r for r in records if r["target"] and r["line"] == error["line"]]
        claims = [r for r in targets if r.get("error") or r["dtype"] is not None]
        if PROMOTION_ERRORS & set(error["classes"]) or any(r.get("error") for r in claims):
            tally.sites += 1
            if not claims:
                tally.unknown += 1  # reveal knows nothing of the target: no claim to hold
            elif any(_same_error(r.get("error"), error) for r in claims):
                tally.claimed += 1
                tally.agreed += 1
            else:
                tally.claimed += 1
                disagree(f"{error['line']}:0:{error['line']}:0", "statement-raised", claims[0], error["error"])
    if found:  # judged once all are known: an operand may come later in the source than its operation
        syntax = _Syntax(text, run)
        bad = {key for key, *_ in found}
        for key, kind, record, runtime in found:
            disagreement = Disagreement(mode, kind, int(key.split(":")[0]), record["text"], runtime,
                                        describe(record), syntax.signature(key, run), syntax.propagated(key, bad))  # fmt: skip
            tally.propagated += disagreement.propagated
            out.disagreements.append(disagreement)
    return out


def _position(key: str) -> tuple[int, ...]:
    return tuple(int(part) for part in key.split(":"))


_OPERATORS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.USub: "-",
    ast.UAdd: "+", ast.Invert: "~", ast.Not: "not ",
}  # fmt: skip
_MODULES = ("np", "jnp", "jax", "math", "ml_dtypes")


class _Syntax:
    """The program's syntax by span (``ast`` spans are reveal's: both leave parentheses out),
    to name a site's operation and find its operands."""

    def __init__(self, text: str, run: dict):
        self.text = text
        self.typed = {key for key, seen in run["sites"].items() if any(o["dtype"] is not None for o in seen)}
        self._nodes: dict[str, ast.expr] | None = None

    def nodes(self) -> dict[str, ast.expr]:
        if self._nodes is None:
            self._nodes = {}
            for node in ast.walk(ast.parse(self.text)):
                if isinstance(node, ast.expr):
                    self._nodes.setdefault(_span_key(node), node)
        return self._nodes

    def line(self, number: int) -> str:
        lines = self.text.splitlines()
        return lines[number - 1].strip() if 0 < number <= len(lines) else ""

    def operands(self, node: ast.expr | None) -> list[ast.expr]:
        """The operand expressions of an operation (a method call's receiver, then arguments)."""
        if isinstance(node, ast.BinOp):
            return [node.left, node.right]
        if isinstance(node, ast.Compare):
            return [node.left, *node.comparators]
        if isinstance(node, ast.UnaryOp):
            return [node.operand]
        if isinstance(node, ast.Call):
            receiver = [node.func.value] if isinstance(node.func, ast.Attribute) and not _is_module(node.func.value) else []
            return receiver + [a.value if isinstance(a, ast.keyword) else a for a in [*node.args, *node.keywords]]
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            return [node.value]
        return []

    def propagated(self, key: str, bad: set[str]) -> bool:
        """Whether an operand already disagreed; a name's value comes from elsewhere (an
        assignment, a call's argument), so any other disagreement may explain it."""
        node = self.nodes().get(key)
        if node is None or isinstance(node, ast.Name):
            return bool(bad - {key})
        stack = self.operands(node)
        while stack:
            operand = stack.pop()
            key = _span_key(operand)
            if key in bad:
                return True
            if key not in self.typed:  # a list, a dtype (`b.dtype`): what it holds or is made of counts
                stack.extend(child for child in ast.iter_child_nodes(operand) if isinstance(child, ast.expr))
        return False

    def signature(self, key: str, run: dict) -> str:
        """The operation at ``key`` with its operands' run-time types: ``int8 [jax] + weak float
        [python]``, ``jnp.sum(uint8 [numpy-array])``, ``int8 [numpy-array].astype(jnp.bfloat16)``."""
        node = self.nodes().get(key)

        def operand(expression: ast.expr) -> str:
            if isinstance(expression, (ast.List, ast.Tuple)):
                return "[" + ", ".join(operand(e) for e in expression.elts) + "]"
            typed = [o for o in run["sites"].get(_span_key(expression), []) if o["dtype"] is not None]
            if not typed:
                return _normalize(ast.unparse(expression))
            described = describe(typed[0])
            if typed[0]["library"] == "python" and typed[0]["dtype"] == "int":
                described += _magnitude(ast.unparse(expression))
            return described

        if isinstance(node, ast.BinOp):
            return f"{operand(node.left)} {_OPERATORS[type(node.op)]} {operand(node.right)}"
        if isinstance(node, ast.Compare):
            return " ".join([operand(node.left)] + [f"{_OPERATORS[type(op)]} {operand(right)}"
                                                    for op, right in zip(node.ops, node.comparators)])  # fmt: skip
        if isinstance(node, ast.UnaryOp):
            return f"{_OPERATORS[type(node.op)]}{operand(node.operand)}"
        if isinstance(node, ast.Call):
            arguments = ", ".join([operand(a) for a in node.args] + [f"{k.arg}={operand(k.value)}" for k in node.keywords])
            if isinstance(node.func, ast.Attribute) and not _is_module(node.func.value):
                return f"{operand(node.func.value)}.{node.func.attr}({arguments})"
            return f"{_callee(ast.unparse(node.func))}({arguments})"
        if isinstance(node, ast.Subscript):
            return f"{operand(node.value)}[{ast.unparse(node.slice)}]"
        if isinstance(node, ast.Attribute):
            return f"{operand(node.value)}.{node.attr}"
        if isinstance(node, ast.Name):
            return f"name bound by {self._binding(node.id, int(key.split(':')[0]))}"
        if node is None:
            return self._statement(int(key.split(":")[0]), operand)
        return type(node).__name__

    def _statement(self, line: int, operand) -> str:
        """A statement that raised: an augmented assignment by its operator and value."""
        for statement in ast.walk(ast.parse(self.text)):
            if isinstance(statement, ast.AugAssign) and statement.lineno == line:
                return f"augmented assignment {_OPERATORS[type(statement.op)]}= {operand(statement.value)}"
        return f"statement `{_normalize(self.line(line))}`"

    def _binding(self, name: str, line: int) -> str:
        """How ``name`` was last bound before ``line``: an augmented assignment, a call, ..."""
        for number in range(line - 1, 0, -1):
            match = re.match(rf"{name}\s*(?:([-+*/%&|^@<>]+)=|=)", self.line(number))
            if match:
                return f"`{name} {match.group(1)}= ...`" if match.group(1) else "an assignment"
        return "a parameter"


def _span_key(node: ast.expr) -> str:
    return f"{node.lineno}:{node.col_offset + 1}:{node.end_lineno}:{node.end_col_offset + 1}"


def _is_module(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return _is_module(node.value)
    return isinstance(node, ast.Name) and node.id in _MODULES


def _callee(text: str) -> str:
    """Local functions by role, not name (f1, f2 are the same class)."""
    return "local function" if re.fullmatch(r"f\d+", text) else "jitted lambda" if text.startswith("jax.jit(") else text


def _magnitude(text: str) -> str:
    """A Python int operand's size decides overflow: the literal, when it is one."""
    return f" = {text}" if re.fullmatch(r"\(?-?[\d*]+\)?", text) else ""


def _normalize(text: str) -> str:
    """Source text with variable names erased (v1, v2 are the same class)."""
    return re.sub(r"\bv\d+\b", "v", " ".join(text.split()))


# --- minimizing ---------------------------------------------------------------------------
def minimize_program(statements: list[str], mode: str, key: str) -> list[str]:
    """Drop statements, one at a time from the last, while a disagreement of class ``key``
    persists (a greedy delta-debugging pass, repeated until nothing more can go)."""
    current = list(statements)
    changed = True
    while changed and len(current) > 1:
        changed = False
        for index in reversed(range(len(current))):
            trial = current[:index] + current[index + 1 :]
            if trial and _still_disagrees(trial, mode, key):
                current = trial
                changed = True
    return current


def _still_disagrees(statements: list[str], mode: str, key: str) -> bool:
    try:
        checked = check_program(render(statements), mode, "minimize")
    except SyntaxError:
        return False
    return any(d.key == key and not d.propagated for d in checked.disagreements)


# --- the worker ---------------------------------------------------------------------------
def run_programs(mode: str, programs: list[tuple[str, list[str]]], minimize: str = "none") -> dict:
    """Check every (label, statements) program; return the tally, the classes of disagreement
    (known limitation or not, the first program showing it, and with ``minimize`` "new" or
    "all", that program minimized) and the classes each program showed."""
    tally = Tally()
    classes: dict[str, dict] = {}
    shown: dict[str, list[str]] = {}
    for label, statements in programs:
        checked = check_program(render(statements), mode, label)
        tally.add(checked.tally)
        for found in checked.disagreements:
            if found.propagated:
                continue
            shown.setdefault(label, []).append(found.key)
            entry = classes.get(found.key)
            if entry is None:
                entry = classes[found.key] = {"disagreement": asdict(found), "limitation": classify_limitation(found),
                                              "count": 0, "program": label, "statements": statements}  # fmt: skip
            entry["count"] += 1
    for key, entry in classes.items():
        if minimize == "all" or minimize == "new" and not entry["limitation"]:
            entry["minimized"] = render(minimize_program(entry["statements"], mode, key))
    return {"tally": asdict(tally), "classes": classes, "shown": shown}


def compare_runners(programs: list[tuple[str, list[str]]]) -> list[str]:
    """Programs on which ``runner.run_program`` and the oracle's ``run_snippet`` disagree."""
    from run_corpus import Snippet, run_snippet

    differ = []
    for label, statements in programs:
        text = render(statements)
        fast, oracle = run_program(text, "<p>"), run_snippet(Snippet("<p>:1", text, source=text), "")
        fast.pop("seconds"), oracle.pop("seconds")
        if fast != oracle:
            differ.append(label)
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=sorted(MODES))
    parser.add_argument("--seeds", default="", help="START:STOP: generated programs of these seeds")
    parser.add_argument("--programs", help="a JSON file of {label: program text} to check too")
    parser.add_argument("--minimize", choices=("none", "new", "all"), default="none",
                        help="minimize the first program of each class: of none, of those not in KNOWN_LIMITATIONS.md, of all")  # fmt: skip
    parser.add_argument("--compare-runners", type=int, default=0, metavar="N",
                        help="also run the first N programs with the oracle's own runner and list those that differ")  # fmt: skip
    parser.add_argument("--output", "-o", help="write the JSON here instead of stdout")
    args = parser.parse_args(argv)
    if "jax" in sys.modules:
        raise SystemExit("the fuzz worker must set JAX's mode before JAX is imported")
    os.environ.update(MODES[args.mode][0])
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    warnings.simplefilter("ignore")  # overflow and x64 warnings are observations of nothing here

    import jax  # noqa: F401 - after the environment is set

    programs: list[tuple[str, list[str]]] = []
    if args.seeds:
        start, stop = map(int, args.seeds.split(":"))
        programs += [(f"seed {seed}", generate(seed).statements) for seed in range(start, stop)]
    if args.programs:
        programs += [(label, split_statements(text)) for label, text in json.loads(Path(args.programs).read_text()).items()]
    started = time.perf_counter()
    result = run_programs(args.mode, programs, args.minimize)
    if args.compare_runners:
        result["runners_differ"] = compare_runners(programs[: args.compare_runners])
    result.update(mode=args.mode, seconds=round(time.perf_counter() - started, 2))
    payload = json.dumps(result)
    if args.output:
        Path(args.output).write_text(payload)
    else:
        print(payload)
    return 0


def split_statements(text: str) -> list[str]:
    """A program's top-level statements (a ``def`` with its body), less the imports render() adds."""
    from generator import HEADER

    body = text[len(HEADER) :] if text.startswith(HEADER) else text
    lines = body.splitlines()
    return ["\n".join(lines[node.lineno - 1 : node.end_lineno]) for node in ast.parse(body).body]


if __name__ == "__main__":
    sys.exit(main())

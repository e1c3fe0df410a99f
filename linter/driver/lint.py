"""One file's findings: analyze it once, run every enabled rule over its operations, honour its
`# noqa` comments; and its fixes.  What `promolint check` runs in each worker, and what the other
front ends (editors, plugins) call for one buffer.  Notebooks are linted as the module of their
code cells, their findings placed in the cells."""

from __future__ import annotations

from dataclasses import replace

from promolint.driver.config import PARSE_ERROR, UNUSED_NOQA, X64_PORTABILITY
from promolint.core.diagnostics import Diagnostic, FixSummary, RelatedLocation
from promolint.engine.records import Module
from promolint.engine.walker.analysis import Analysis, Settings, analyze
from promolint.engine.walker.source import ParseFailure, Source, parse_bytes, parse_text
from promolint.engine.walker.syntax import attach_syntax
from promolint.driver.noqa import directives
from promolint.driver.notebook import Notebook, NotebookError, is_notebook
from promolint.rules import ALL_RULES, rule_by_code
from promolint.rules.base import Finding, Fix

_MAX_FIX_PASSES = 5  # a fix can expose another (a cast makes the next operator of a chain refuse)


def lint_file(data: bytes, path: str, settings: Settings, codes: frozenset[str],
              external: tuple[str, ...] = ()) -> list[Diagnostic]:  # fmt: skip
    """A Python file's or a notebook's (by ``path``'s suffix) diagnostics."""
    if not is_notebook(path):
        return lint_source(data, path, settings, codes, external)
    try:
        notebook = Notebook(data)
    except NotebookError as error:
        return [Diagnostic(path, 1, 1, PARSE_ERROR, str(error))] if PARSE_ERROR in codes else []
    if not notebook.is_python:
        return []
    return in_cells(notebook, lint_source(notebook.python, path, settings, codes, external)
                    + _broken_cells(notebook, path, settings, codes))  # fmt: skip


def _broken_cells(notebook: Notebook, path: str, settings: Settings, codes: frozenset[str]) -> list[Diagnostic]:
    """A syntax error for each cell that does not parse (the notebook's module holds the other
    cells' code, analysed without it), where its module line puts it."""
    if PARSE_ERROR not in codes:
        return []
    found = []
    for start, code in notebook.broken:
        failure = parse_text(code, settings.python)
        if isinstance(failure, ParseFailure):
            found.append(Diagnostic(path, start + failure.line - 1, failure.column, PARSE_ERROR, failure.message))
    return found


def in_cells(notebook: Notebook, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` of a notebook's module placed in its cells."""
    placed = []
    for d in diagnostics:
        cell, line = notebook.locate(d.line)
        end_cell, end_line = notebook.locate(d.end_line) if d.end_line else (cell, 0)
        if end_cell != cell:  # a span never crosses cells (statements do not); clamp to be sure
            end_line, end_column = line, d.column
        else:
            end_column = d.end_column
        related = tuple(_in_cell(notebook, r) for r in d.related)
        placed.append(replace(d, cell=cell, line=line, end_line=end_line, end_column=end_column,
                              file_line=notebook.file_line(cell, line), related=related))  # fmt: skip
    return sorted(placed)


def _in_cell(notebook: Notebook, related: RelatedLocation) -> RelatedLocation:
    cell, line = notebook.locate(related.line)
    end_cell, end_line = notebook.locate(related.end_line)
    end_line, end_column = (end_line, related.end_column) if end_cell == cell else (line, related.column)
    return replace(related, cell=cell, line=line, end_line=end_line, end_column=end_column,
                   file_line=notebook.file_line(cell, line))  # fmt: skip


def lint_source(data: bytes, path: str, settings: Settings, codes: frozenset[str], external: tuple[str, ...] = (),
                describe_unsafe_fixes: bool = False) -> list[Diagnostic]:  # fmt: skip
    source = parse_bytes(data, settings.python)
    if isinstance(source, ParseFailure):
        if PARSE_ERROR not in codes:
            return []
        return [Diagnostic(path, source.line, source.column, PARSE_ERROR, source.message)]
    return sorted(_lint_source(source, data, path, settings, codes, external, describe_unsafe_fixes))


def _lint_source(source: Source, data: bytes, path: str, settings: Settings, codes: frozenset[str],
                 external: tuple[str, ...] = (), describe_unsafe_fixes: bool = False,
                 ) -> dict[Diagnostic, Fix | None]:  # fmt: skip
    """The diagnostics of a parsed file, each with the fix its rule offers."""
    analysis = analyze(source, settings)
    try:
        return diagnose(analysis, data, path, codes, external, describe_unsafe_fixes)
    finally:
        analysis.release()


def diagnose(analysis: Analysis, data: bytes, path: str, codes: frozenset[str], external: tuple[str, ...] = (),
             describe_unsafe_fixes: bool = False) -> dict[Diagnostic, Fix | None]:  # fmt: skip
    """The diagnostics of an analyzed file (``data`` its bytes, for its comments), each with the
    fix its rule offers: the rules enabled in ``codes`` over its operations, `# noqa` honoured
    (``external``: other tools' codes a `# noqa` may name); unsafe fixes titled with what they
    change with ``describe_unsafe_fixes`` (``_weighed``)."""
    source = analysis.source
    flow = analysis.flow
    attach_syntax(source, analysis.operations, [*flow.invocations.values(), *flow.loop_calls])
    rules = [rule for rule in ALL_RULES if rule.code in codes]
    module = Module(list(analysis.operations.values()), list(flow.invocations.values()), flow.returns,
                    flow.uses_jax(), flow.loop_calls)
    findings = [finding for rule in rules for finding in rule.check_module(module)]
    if X64_PORTABILITY in codes:
        findings += _x64_portability(source, analysis)
    findings = _weighed(analysis, data, _confirmed_in_other_modes(analysis, findings), describe_unsafe_fixes)
    diagnostics: dict[Diagnostic, Fix | None] = {}
    for failed in analysis.failures:  # the rest of the file was analyzed: its findings stand
        span = source.span(failed)
        diagnostics[Diagnostic(path, span.line, span.column, PARSE_ERROR, "promolint could not analyze this "
                               "statement: it is nested too deeply; the rest of the file was analyzed",
                               span.end_line, span.end_column)] = None  # fmt: skip
    if not findings and UNUSED_NOQA not in codes:
        return diagnostics
    noqas, disabled = directives(data)
    enabled = codes - disabled
    for finding in (f for f in findings if f.code in enabled):
        span = source.span(finding.node)
        covering = [noqa for noqa in noqas.get(span.line, ()) if noqa.covers(finding.code)]
        for noqa in covering:  # each one counts as used, not only the first
            noqa.used.add(finding.code)
        if not covering:
            summary = FixSummary(finding.fix.title, finding.fix.safe) if finding.fix else None
            related = tuple(_related(source, r.node, r.message) for r in finding.related)
            diagnostics.setdefault(Diagnostic(path, span.line, span.column, finding.code, finding.message,
                                              span.end_line, span.end_column, summary, related=related),
                                   finding.fix)  # fmt: skip
    if UNUSED_NOQA in enabled:
        for noqa in (noqa for line in noqas.values() for noqa in line):
            if message := noqa.unused_message(enabled, external):
                diagnostics.setdefault(Diagnostic(path, noqa.line, noqa.column, UNUSED_NOQA, message,
                                                  noqa.line, noqa.end_column), None)  # fmt: skip
    return diagnostics


def _related(source: Source, node: object, message: str) -> RelatedLocation:
    span = source.span(node)
    return RelatedLocation(span.line, span.column, span.end_line, span.end_column, message)


def _x64_portability(source: Source, analysis: Analysis) -> list:
    """PRM010's findings: the file analyzed with x64 off and on (reusing ``analysis`` when it
    forces one of them), each operation compared with itself."""
    def forced(x64: str) -> Analysis:
        if analysis.settings.x64 == x64:
            return analysis
        return analyze(source, replace(analysis.settings, x64=x64), analysis.flow.seeds)

    x32, x64 = forced("off"), forced("on")
    rule = rule_by_code(X64_PORTABILITY)
    try:
        return [finding for key, operation in x32.operations.items() if (other := x64.operations.get(key)) is not None
                for finding in rule.check_pair(operation, other)]  # fmt: skip
    finally:
        for other in {x32, x64} - {analysis}:
            other.release()


def _confirmed_in_other_modes(analysis: Analysis, findings: list[Finding]) -> list[Finding]:
    """``findings``, each safe fix that must hold in the other x64 mode too (``Fix.other_mode``)
    made unsafe where the analysis in that mode shows it changing a dtype: a fix is safe only
    if it keeps every dtype in every mode the file may run in.  The other mode is analyzed only
    when some fix asks."""
    others: dict[bool, Analysis] = {}

    def operation_there(x64: bool, node: object):
        if x64 not in others:
            other = others[x64] = analyze(analysis.source, replace(analysis.settings, x64="on" if x64 else "off"),
                                          analysis.flow.seeds)  # fmt: skip
            attach_syntax(analysis.source, other.operations, other.flow.invocations.values())
        flow = others[x64].flow
        return flow.operations.get(id(node)) or flow.invocations.get(id(node))

    confirmed = []
    try:
        for finding in findings:
            fix = finding.fix
            if fix is not None and fix.safe and fix.other_mode is not None:
                first = fix
                while (check := fix.other_mode) is not None and not check.keeps(
                        operation_there(check.x64, finding.node)):  # fmt: skip
                    fix = check.alternative or first.unsafe_with_x64_switched()
                finding = replace(finding, fix=replace(fix, other_mode=None))
            confirmed.append(finding)
    finally:
        for other in others.values():
            other.release()
    return confirmed


def fix_modes(settings: Settings, data: bytes) -> list[Settings]:
    """The modes a fix must keep every dtype in, under standard promotion (what a strict
    migration keeps): the x64 mode the user forces, else both; and where the code may set x64
    itself, the modes it sets, followed from the forced mode (or from the project's): a mode
    forced on the command line chooses what is reported, not what the code runs in."""
    x64s = (settings.x64,) if settings.x64 != "auto" else ("off", "on")
    modes = [replace(settings, x64=x64, promotion="standard") for x64 in x64s]
    if _may_set_x64(data):
        facts = settings.facts if settings.x64 == "auto" else replace(settings.facts,
                                                                      x64_at_import=settings.x64 == "on")  # fmt: skip
        modes.append(replace(settings, x64="auto", promotion="standard", facts=facts))
    return modes


def _may_set_x64(data: bytes) -> bool:
    """Whether the code may switch x64 (``jax_enable_x64``, ``enable_x64()``, ``disable_x64()``,
    ``JAX_ENABLE_X64``): only then do its own modes differ from the forced ones."""
    return b"able_x64" in data or b"JAX_ENABLE_X64" in data


def _mode_label(settings: Settings) -> str:
    return f"with x64 {settings.x64}" if settings.x64 != "auto" else "where the code sets x64"


# An unsafe fix's consequences cost an analysis of the fixed file in every mode: a file with
# more unsafe fixes keeps its rules' titles for the rest.
_MAX_DESCRIBED_FIXES = 8


def _weighed(analysis: Analysis, data: bytes, findings: list[Finding], describe: bool) -> list[Finding]:
    """``findings``, their fixes weighed against what they change (``reveal`` of the file fixed,
    compared with the original's in ``fix_modes``).  A safe fix made where the user forces x64
    must keep every dtype in the modes the code sets itself too, else it is unsafe; with
    ``describe``, an unsafe fix's title says what it changes, from the dtypes inferred before
    and after.  Each fix weighed costs analyses of the fixed file: a front end that shows no
    unsafe fix's title (``check``'s report, ``--fix``) leaves ``describe`` off."""
    code_modes = analysis.settings.x64 != "auto" and _may_set_x64(data)
    fixes = [f.fix for f in findings
             if f.fix is not None and (f.fix.safe and code_modes or not f.fix.safe and describe)]  # fmt: skip
    weighed = weigh_fixes(analysis.source, data, analysis.settings, fixes)
    return [replace(f, fix=weighed[id(f.fix)]) if f.fix is not None and id(f.fix) in weighed else f for f in findings]


def weigh_fixes(source: Source, data: bytes, settings: Settings, fixes: list[Fix]) -> dict[int, Fix]:
    """The fixes of ``fixes`` that their consequences change, by ``id`` of the fix: a safe one
    that changes a dtype in a mode the code sets itself (where the user forces x64) becomes
    unsafe, saying why; an unsafe one's title says what it changes (the first
    ``_MAX_DESCRIBED_FIXES`` of them)."""
    if not fixes:
        return {}
    from promolint.fix.edits import apply_fixes, changes  # loads libcst: only fixes need it
    from promolint.driver.reveal import reveal_records_many

    modes = fix_modes(settings, data)
    code_modes = [i for i, mode in enumerate(modes) if mode.x64 == "auto"] if settings.x64 != "auto" else []
    was = reveal_records_many(data, modes)
    described = 0
    weighed: dict[int, Fix] = {}
    for fix in fixes:
        if not fix.safe and described == _MAX_DESCRIBED_FIXES:
            continue
        fixed, count = apply_fixes(data, source, [fix])
        now = reveal_records_many(fixed, modes) if count else None
        after = parse_bytes(fixed, settings.python)
        if now is None or isinstance(now, ParseFailure) or isinstance(after, ParseFailure):
            continue
        found = changes(source, after, was, now)
        if found is None:
            continue
        if fix.safe:
            found = [c for c in found if c.mode in code_modes]
            if found:
                weighed[id(fix)] = replace(fix, safe=False, title=f"{fix.title} (unsafe: it makes "
                                           f"{_consequence(found, modes)})")  # fmt: skip
        else:
            described += 1
            if found:
                weighed[id(fix)] = replace(fix, title=f"{fix.title}; it makes {_consequence(found, modes)}")
    return weighed


def _consequence(found: list, modes: list[Settings]) -> str:
    """The value a fix changes that says most, mode by mode: an expression before a name, a
    dtype before a weak flag alone, the outermost expression of the first statement it changes
    (what the edited expression's new value becomes there): "`(i8 + 1.5) * f16` float32 with
    x64 off, float64 with x64 on; it was float16"."""
    first = min(found, key=lambda c: (c.target, c.before[0] == (c.after or (None,))[0], c.span[0], -c.span[2],
                                      c.span[1], -c.span[3]))  # fmt: skip
    per_mode = {c.mode: (c.before, c.after) for c in found if (c.span, c.target) == (first.span, first.target)}
    text = " ".join(first.text.split())
    text = text if len(text) <= 40 else text[:37] + "..."
    befores = {before for before, _ in per_mode.values()}
    if len({after for _, after in per_mode.values()}) == 1 and len(befores) == 1 and len(per_mode) == len(modes):
        ((before, after),) = set(per_mode.values())
        return f"`{text}` {_spelled(after)} instead of {_spelled(before)}"
    if len(befores) == 1:
        afters = ", ".join(f"{_spelled(after)} {_mode_label(modes[m])}" for m, (_, after) in sorted(per_mode.items()))
        return f"`{text}` {afters}; it was {_spelled(befores.pop())}"
    return f"`{text}` " + ", ".join(f"{_spelled(after)} {_mode_label(modes[m])} where it was {_spelled(before)}"
                                    for m, (before, after) in sorted(per_mode.items()))  # fmt: skip


def _spelled(value: tuple | None) -> str:
    """A value as ``reveal`` records it (dtype, weak, library, error), in words."""
    if value is None:
        return "gone"
    dtype, weak, library, error = value
    if error:
        return f"a {error}"
    if dtype is None:
        return "unknown"
    if library == "python":
        return f"a Python {dtype}"
    return f"{'weak ' if weak else 'weak or strong ' if weak is None else ''}{dtype}"


def fix_file(data: bytes, path: str, settings: Settings, codes: frozenset[str], unsafe: bool = False,
             external: tuple[str, ...] = ()) -> tuple[bytes, int, list[Diagnostic]]:  # fmt: skip
    """``fix_source`` for a Python file or a notebook (by ``path``'s suffix): a notebook's fixes
    are written into its cells; outputs, metadata and formatting stay as they were."""
    if not is_notebook(path):
        return fix_source(data, path, settings, codes, unsafe, external)
    try:
        notebook = Notebook(data)
    except NotebookError:
        return data, 0, lint_file(data, path, settings, codes, external)
    if not notebook.is_python:
        return data, 0, []
    fixed, count, diagnostics = fix_source(notebook.python, path, settings, codes, unsafe, external)
    if not count:
        return data, 0, in_cells(notebook, diagnostics + _broken_cells(notebook, path, settings, codes))
    try:
        written = notebook.with_python(fixed)
    except NotebookError as error:
        unfixed = [*lint_source(notebook.python, path, settings, codes, external),
                   *_broken_cells(notebook, path, settings, codes)]
        return data, 0, [Diagnostic(path, 1, 1, PARSE_ERROR, str(error)), *in_cells(notebook, unfixed)]
    rewritten = Notebook(written)
    return written, count, in_cells(rewritten, diagnostics + _broken_cells(rewritten, path, settings, codes))


def fix_source(data: bytes, path: str, settings: Settings, codes: frozenset[str], unsafe: bool = False,
               external: tuple[str, ...] = ()) -> tuple[bytes, int, list[Diagnostic]]:  # fmt: skip
    """``data`` with the fixes of its diagnostics applied (the unsafe ones too with ``unsafe``),
    analyzed again after each pass until no fix applies; the number of fixes applied and the
    diagnostics left."""
    from promolint.fix.edits import apply_fixes  # loads libcst: only fixes need it

    source = parse_bytes(data, settings.python)
    if isinstance(source, ParseFailure):
        return data, 0, lint_source(data, path, settings, codes, external)
    applied = 0
    for _ in range(_MAX_FIX_PASSES):
        diagnostics = _lint_source(source, data, path, settings, codes, external)
        fixes = [fix for fix in diagnostics.values() if fix is not None and (fix.safe or unsafe)]
        if fixes and not unsafe:
            fixes = _keeping_dtypes(data, source, fixes, settings)
        fixed, count = apply_fixes(data, source, fixes) if fixes else (data, 0)
        reparsed = parse_bytes(fixed) if count else None
        if reparsed is None or isinstance(reparsed, ParseFailure):  # nothing to do, or a fix gone wrong
            return data, applied, sorted(diagnostics)
        source, data, applied = reparsed, fixed, applied + count
    return data, applied, sorted(_lint_source(source, data, path, settings, codes, external))


def _keeping_dtypes(data: bytes, source: Source, fixes: list[Fix], settings: Settings) -> list[Fix]:
    """The fixes that keep the dtype of every name the file assigns in every x64 mode it may run
    in (``fix_modes``), under standard promotion (what a strict migration must keep).  A rule
    calls a fix safe from what one analysis shows; this checks the other modes too, and a fix
    that changes a dtype there is left to ``--unsafe-fixes``."""
    from promolint.fix.edits import apply_fixes

    modes = fix_modes(settings, data)
    before = _named_dtypes(data, modes)

    def keeps(chosen: list[Fix]) -> bool:
        fixed, count = apply_fixes(data, source, chosen)
        after = _named_dtypes(fixed, modes) if count else before
        if after is None or before is None:
            return after is before
        lines = _line_map(data, fixed)
        return all(lines.get(line) is None or moved.get((lines[line], text), value) == value
                   for was, moved in zip(before, after) for (line, text), value in was.items())  # fmt: skip

    if keeps(fixes):
        return fixes
    return [fix for fix in fixes if keeps([fix])]


def _named_dtypes(data: bytes, modes: list[Settings]) -> list[dict] | None:
    """Per mode, (line, name) -> (dtype, weak, error) of every name the file assigns, but for
    the parameters of its functions: a cast at a call changes what the function receives by
    design, and what its body computes from that is compared."""
    import ast

    from promolint.driver.reveal import reveal_records_many

    records = reveal_records_many(data, modes)
    if isinstance(records, ParseFailure):
        return None
    source = parse_bytes(data)
    parameters = {(span.line, span.column) for node in ast.walk(source.tree) if type(node) is ast.arg
                  for span in (source.span(node),)}  # fmt: skip
    return [{(r["line"], r["text"]): (r["dtype"], r["weak"], r["error"]) for r in one
             if r["target"] and (r["line"], r["column"]) not in parameters} for one in records]  # fmt: skip


def _line_map(before: bytes, after: bytes) -> dict[int, int]:
    """Line of ``before`` -> its line in ``after``, for the lines a fix left in place or edited
    in place (fixes rewrite expressions and add import lines)."""
    import difflib

    out = {}
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "replace") and i2 - i1 == j2 - j1:
            out.update({i1 + k + 1: j1 + k + 1 for k in range(i2 - i1)})
    return out


def lint_with_fixes(data: bytes, path: str, settings: Settings, codes: frozenset[str],
                    describe_unsafe_fixes: bool = False,
                    ) -> tuple[Source | ParseFailure, dict[Diagnostic, Fix | None]]:  # fmt: skip
    """``lint_source``'s diagnostics, each with the fix its rule offers, and the parsed file the
    fixes' nodes belong to: for front ends that offer fixes one at a time (the language server,
    Fixit)."""
    source = parse_bytes(data, settings.python)
    if isinstance(source, ParseFailure):
        return source, dict.fromkeys(lint_source(data, path, settings, codes))
    return source, _lint_source(source, data, path, settings, codes, (), describe_unsafe_fixes)

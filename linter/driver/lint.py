"""One file's diagnostics and fixes, for every front end: the file analyzed once, the rules over
its operations (``promolint.driver.findings``), PRM010's analyses in both x64 modes, each fix
verified in the modes the file may run in (``promolint.driver.verify``), `# noqa` honoured; and
``--fix``'s passes.  Notebooks are linted as the module of their code cells, their findings placed
in the cells.  The driver's jobs (``promolint.driver.jobs``) run these per file."""

from __future__ import annotations

from dataclasses import replace

from promolint.core.diagnostics import Diagnostic, RelatedLocation
from promolint.driver.config import PARSE_ERROR, X64_PORTABILITY
from promolint.driver.findings import reported, rule_findings
from promolint.driver.notebook import Notebook, NotebookError, is_notebook
from promolint.driver.verify import confirmed_in_other_modes, keeping_dtypes, weighed
from promolint.engine.walker.analysis import Analysis, Settings, analyze
from promolint.engine.walker.source import ParseFailure, Source, parse_bytes, parse_text
from promolint.rules import rule_by_code
from promolint.rules.base import Fix

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
    return diagnose(analyze(source, settings), data, path, codes, external, describe_unsafe_fixes)


def diagnose(analysis: Analysis, data: bytes, path: str, codes: frozenset[str], external: tuple[str, ...] = (),
             describe_unsafe_fixes: bool = False) -> dict[Diagnostic, Fix | None]:  # fmt: skip
    """The diagnostics of an analyzed file (``data`` its bytes, for its comments), each with the
    fix its rule offers: the rules enabled in ``codes`` over its operations, PRM010 where enabled,
    the fixes verified in the other modes (unsafe ones titled with what they change with
    ``describe_unsafe_fixes``: ``promolint.driver.verify.weighed``), `# noqa` honoured
    (``external``: other tools' codes a `# noqa` may name)."""
    findings = rule_findings(analysis, codes)
    if X64_PORTABILITY in codes:
        findings += _x64_portability(analysis.source, analysis)
    findings = weighed(analysis, data, confirmed_in_other_modes(analysis, findings), describe_unsafe_fixes)
    return reported(analysis, data, path, findings, codes, external)


def _x64_portability(source: Source, analysis: Analysis) -> list:
    """PRM010's findings: the file analyzed with x64 off and on (reusing ``analysis`` when it
    forces one of them), each operation compared with itself."""
    def forced(x64: str) -> Analysis:
        if analysis.settings.x64 == x64:
            return analysis
        return analyze(source, replace(analysis.settings, x64=x64), analysis.flow.seeds)

    x32, x64 = forced("off"), forced("on")
    rule = rule_by_code(X64_PORTABILITY)
    return [finding for key, operation in x32.operations.items() if (other := x64.operations.get(key)) is not None
            for finding in rule.check_pair(operation, other)]  # fmt: skip


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
            fixes = keeping_dtypes(data, source, fixes, settings)
        fixed, count = apply_fixes(data, source, fixes) if fixes else (data, 0)
        reparsed = parse_bytes(fixed) if count else None
        if reparsed is None or isinstance(reparsed, ParseFailure):  # nothing to do, or a fix gone wrong
            return data, applied, sorted(diagnostics)
        source, data, applied = reparsed, fixed, applied + count
    return data, applied, sorted(_lint_source(source, data, path, settings, codes, external))


def lint_with_fixes(data: bytes, path: str, settings: Settings, codes: frozenset[str],
                    describe_unsafe_fixes: bool = False,
                    ) -> tuple[Source | ParseFailure, dict[Diagnostic, Fix | None], Analysis | None]:  # fmt: skip
    """``lint_source``'s diagnostics, each with the fix its rule offers, the parsed file the
    fixes' nodes belong to, and its analysis (None where it does not parse): for front ends that
    offer fixes one at a time and show what the analysis inferred (the language server, Fixit)."""
    source = parse_bytes(data, settings.python)
    if isinstance(source, ParseFailure):
        return source, dict.fromkeys(lint_source(data, path, settings, codes)), None
    analysis = analyze(source, settings)
    return source, diagnose(analysis, data, path, codes, (), describe_unsafe_fixes), analysis

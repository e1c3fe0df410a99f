"""``promolint server``: a language server over stdio (pygls).

Diagnostics as you type (the editor's unsaved text, analyzed on every change), quick fixes (the
edits of ``promolint check --fix``, and ``# noqa`` comments), and hovers that show what the engine
inferred for the expression under the cursor.  Settings come from the ``[tool.promolint]`` of the
document's project, as for ``promolint check``."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from promolint import __version__
from promolint.core.diagnostics import Diagnostic
from promolint.core.positions import Position, PositionMap, TextEdit
from promolint.driver import jobs
from promolint.driver.config import PARSE_ERROR, UNUSED_NOQA, Config, ConfigError, load_config
from promolint.driver.noqa import directives
from promolint.driver.reveal import reveal_at
from promolint.driver.verify import weigh_fixes
from promolint.engine.walker.analysis import Analysis, Settings, analyze
from promolint.engine.walker.source import ParseFailure, Source
from promolint.rules.base import Fix

SOURCE = "promolint"
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.promolint"
_FIX, _NOQA = "fix", "noqa"  # what a quick fix's ``data`` says it edits
_TITLE = "title"  # an unsafe fix's title, weighed once per version
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)
_HOVER_TEXT_LIMIT = 80

log = logging.getLogger(__name__)


@dataclass
class _Analyzed:
    """One version of a document and what promolint found in it."""

    uri: str
    version: int | None
    text: str
    data: bytes
    encoding: str  # how ``text`` became ``data`` (a ``coding:`` declaration, else UTF-8)
    path: str
    settings: Settings
    codes: frozenset[str]
    source: Source | ParseFailure | None  # None: an internal error
    findings: dict[Diagnostic, Fix | None]
    positions: PositionMap
    analysis: Analysis | None = field(default=None, repr=False)  # None: not analyzed (yet)
    _edits: dict[tuple[str, int], list[TextEdit] | Fix] = field(default_factory=dict, repr=False)

    @property
    def ordered(self) -> list[tuple[Diagnostic, Fix | None]]:
        """The findings in their published order: an action names its finding by index here."""
        return sorted(self.findings.items())

    def titled(self, index: int) -> Fix:
        """The fix of a finding, an unsafe one titled with what it changes: weighed on first
        request, as that costs analyses of the fixed text in every mode."""
        key = (_TITLE, index)
        if key not in self._edits:
            fix = self.ordered[index][1]
            if not fix.safe and isinstance(self.source, Source):
                fix = weigh_fixes(self.source, self.data, self.settings, [fix]).get(id(fix), fix)
            self._edits[key] = fix
        return self._edits[key]

    def edits(self, what: str, index: int = -1) -> list[TextEdit]:
        """The edits of one action of this version, computed on first request: a fix's own, a
        ``# noqa`` comment's, or fix-all's (``index`` -1), which reruns the fixes of ``check
        --fix`` and takes seconds on a long file."""
        key = (what, index)
        if key not in self._edits:
            if what == FIX_ALL:
                self._edits[key] = _fix_all_edits(self)
            else:
                d, fix = self.ordered[index]
                self._edits[key] = _fix_edits(self, fix) if what == _FIX else _noqa_edits(self, d)
        return self._edits[key]

    def revealed_at(self, line: int, column: int) -> dict | None:
        """What ``reveal`` shows for the innermost expression at (line, column): read from the
        analysis the diagnostics came from; a file the prefilter skipped is analyzed on its
        first hover."""
        if self.analysis is None and isinstance(self.source, Source):
            self.analysis = analyze(self.source, self.settings)
        return None if self.analysis is None else reveal_at(self.analysis, line, column)


class PromolintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("promolint", __version__)
        self.documents: dict[str, _Analyzed] = {}
        self._configs: dict[Path, tuple[tuple, Config]] = {}
        self._reported_config_errors: set[str] = set()
        self._pending: dict[str, asyncio.Handle] = {}

    # --- settings ------------------------------------------------------------------------
    def config_for(self, path: Path) -> Config:
        """``[tool.promolint]`` of the project ``path`` is in, read again when a pyproject.toml on
        the way up changed; defaults (and one message) when it is invalid."""
        directory = path.parent
        stamp = _pyproject_stamp(directory)
        cached = self._configs.get(directory)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            config = load_config(path)
        except ConfigError as error:
            self._show_once(f"promolint: {error}; using the default settings")
            config = Config(root=directory)
        self._configs[directory] = (stamp, config)
        return config

    def _show_once(self, message: str) -> None:
        if message not in self._reported_config_errors:
            self._reported_config_errors.add(message)
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, message))

    # --- analysis --------------------------------------------------------------------------
    def schedule(self, uri: str) -> None:
        """Analyze the document once the messages already received are handled: a burst of
        changes is analyzed once, at its latest text."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.get_running_loop().call_soon(self.analyze, uri)

    def analyze(self, uri: str) -> None:
        self._pending.pop(uri, None)
        document = self.workspace.get_text_document(uri)
        path = Path(document.path) if document.path else Path(self.workspace.root_path or ".") / "untitled.py"
        analyzed = self._analyze(uri, document.source, document.version, path)
        self.documents[uri] = analyzed
        diagnostics = [self._diagnostic(analyzed, d, fix) for d, fix in sorted(analyzed.findings.items())]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics, document.version))

    def _analyze(self, uri: str, text: str, version: int | None, path: Path) -> _Analyzed:
        config = self.config_for(path)
        settings = config.settings()
        codes = frozenset() if config.excluded(path) else config.enabled_codes(path)
        encoding = _encoding_of(text)
        data = text.encode(encoding)
        checked = jobs.check_job(jobs.LintJob(str(path), data, settings, codes, keep_fixes=True))  # `check`'s job
        for d in checked.diagnostics:
            if d.internal:  # reported as a diagnostic; the session goes on
                log.error("%s", d.message)
        source, findings = checked.source, checked.fixes
        positions = PositionMap(text, self._encoding())
        return _Analyzed(uri, version, text, data, encoding, str(path), settings, codes, source, findings, positions,
                         checked.analysis)  # fmt: skip

    def _encoding(self) -> str:
        encoding = self.workspace.position_encoding
        return str(encoding.value if isinstance(encoding, types.PositionEncodingKind) else encoding or "utf-16")

    def _diagnostic(self, analyzed: _Analyzed, d: Diagnostic, fix: Fix | None) -> types.Diagnostic:
        positions = analyzed.positions
        start = positions.to_client(d.line, d.column)
        end = positions.to_client(d.end_line, d.end_column) if d.end_line else positions.line_end(d.line)
        severity = {PARSE_ERROR: types.DiagnosticSeverity.Error, UNUSED_NOQA: types.DiagnosticSeverity.Hint}
        return types.Diagnostic(
            range=_range(start, end),
            message=d.message,
            severity=severity.get(d.code, types.DiagnosticSeverity.Warning),
            code=d.code,
            source=SOURCE,
            tags=[types.DiagnosticTag.Unnecessary] if d.code == UNUSED_NOQA else None,
            related_information=self._related(analyzed, d, fix),
        )  # fmt: skip

    def _related(self, analyzed: _Analyzed, d: Diagnostic, fix: Fix | None) -> list | None:
        """The places the finding concerns (where a 64-bit leak widens data), and where the fix
        would edit when that is not the reported expression itself (the NumPy operands of a
        chain, the operand a strict cast goes on)."""
        positions, related = analyzed.positions, []
        for place in d.related:
            end = positions.to_client(place.end_line, place.end_column)
            where = _range(positions.to_client(place.line, place.column), end)
            related.append(types.DiagnosticRelatedInformation(types.Location(analyzed.uri, where), place.message))
        if fix is None or not isinstance(analyzed.source, Source):
            return related or None
        source = analyzed.source
        for edit in fix.edits:
            span = source.span(edit.node)
            if (span.line, span.column, span.end_line, span.end_column) == (d.line, d.column, d.end_line, d.end_column):
                continue
            where = _range(positions.to_client(span.line, span.column), positions.to_client(span.end_line, span.end_column))
            new_code = edit.code.format(*(source.code(arg) for arg in edit.args))
            message = f"the fix rewrites `{source.code(edit.node)}` as `{new_code}`"
            related.append(types.DiagnosticRelatedInformation(types.Location(analyzed.uri, where), message))
        return related or None

    # --- requests ----------------------------------------------------------------------------
    def hover(self, uri: str, position: types.Position) -> types.Hover | None:
        analyzed = self.documents.get(uri)
        if analyzed is None:
            return None
        line, column = analyzed.positions.from_client(Position(position.line, position.character))
        record = analyzed.revealed_at(line, column)
        if record is None:
            return None
        where = _range(analyzed.positions.to_client(record["line"], record["column"]),
                       analyzed.positions.to_client(record["end_line"], record["end_column"]))  # fmt: skip
        return types.Hover(types.MarkupContent(types.MarkupKind.PlainText, hover_text(record)), where)

    def code_actions(self, uri: str, params: types.CodeActionParams) -> list[types.CodeAction]:
        """The actions at the range. A client that resolves code actions gets them without their
        edits, computed on ``codeAction/resolve`` for the one the user picks: the light bulb asks
        at every cursor move, and fix-all's edit takes seconds on a long file."""
        analyzed = self.documents.get(uri)
        if analyzed is None or analyzed.version != self.workspace.get_text_document(uri).version:
            return []  # the text changed since: its analysis is on its way
        first = analyzed.positions.from_client(Position(params.range.start.line, params.range.start.character))
        last = analyzed.positions.from_client(Position(params.range.end.line, params.range.end.character))
        wanted = params.context.only
        lazy = self._resolves_edits()
        actions: list[types.CodeAction] = []

        def allowed(kind: str) -> bool:
            return not wanted or any(kind == only or kind.startswith(f"{only}.") for only in wanted)

        def offer(title: str, kind: str, what: str, index: int, diagnostics: list, preferred: bool = False) -> None:
            if lazy:
                actions.append(_action(uri, analyzed, title, kind, None, diagnostics, preferred, [what, index]))
            elif edits := analyzed.edits(what, index):
                actions.append(_action(uri, analyzed, title, kind, edits, diagnostics, preferred))

        # The client names the diagnostics it shows at the cursor (a whole line's, often); a
        # client that names none gets those the range touches.
        named = {(str(c.code), c.range.start.line, c.range.start.character, c.range.end.line, c.range.end.character)
                 for c in params.context.diagnostics if c.source == SOURCE}  # fmt: skip
        for index, (d, fix) in enumerate(analyzed.ordered):
            diagnostic = self._diagnostic(analyzed, d, fix)
            r = diagnostic.range
            touched = (d.line, d.column) <= last and first <= (d.end_line or d.line, d.end_column or d.column)
            if not touched and (d.code, r.start.line, r.start.character, r.end.line, r.end.character) not in named:
                continue
            if fix is not None and allowed(types.CodeActionKind.QuickFix) and isinstance(analyzed.source, Source):
                title = fix.title if fix.safe else f"{analyzed.titled(index).title} (unsafe fix)"
                offer(f"{title} ({d.code})", types.CodeActionKind.QuickFix, _FIX, index, [diagnostic], fix.safe)
            if d.code not in (PARSE_ERROR, UNUSED_NOQA) and allowed(types.CodeActionKind.QuickFix):
                offer(f"Ignore {d.code} on this line (`# noqa: {d.code}`)", types.CodeActionKind.QuickFix, _NOQA,
                      index, [diagnostic])  # fmt: skip
        if allowed(FIX_ALL) and any(fix is not None and fix.safe for fix in analyzed.findings.values()):
            offer("Fix all safe promolint findings", FIX_ALL, FIX_ALL, -1, [])
        return actions

    def resolve(self, action: types.CodeAction) -> types.CodeAction:
        """``action`` with its edit, when the document is still at the version that offered it;
        as it came otherwise (an action offered for an older text edits nothing)."""
        data = action.data if isinstance(action.data, dict) else {}
        what, index = data.get("action") or (None, None)
        analyzed = self.documents.get(str(data.get("uri")))
        if (analyzed is None or analyzed.version != data.get("version") or what not in (_FIX, _NOQA, FIX_ALL)
                or not isinstance(index, int) or not -1 <= index < len(analyzed.findings)):  # fmt: skip
            return action
        action.edit = _workspace_edit(data["uri"], analyzed, analyzed.edits(what, index))
        return action

    def _resolves_edits(self) -> bool:
        """Whether the client resolves a code action's ``edit`` lazily (LSP 3.16's resolveSupport)."""
        text_document = self.client_capabilities.text_document
        code_action = text_document.code_action if text_document else None
        support = code_action.resolve_support if code_action else None
        return bool(support and "edit" in support.properties)

    def forget(self, uri: str) -> None:
        self.documents.pop(uri, None)
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))


def _action(uri: str, analyzed: _Analyzed, title: str, kind: str, edits: list[TextEdit] | None,
            diagnostics: list[types.Diagnostic], preferred: bool = False, resolve: list | None = None,
            ) -> types.CodeAction:  # fmt: skip
    """A code action with its edit, or with the ``data`` that ``codeAction/resolve`` computes it from."""
    data = None if resolve is None else {"uri": uri, "version": analyzed.version, "action": resolve}
    edit = None if edits is None else _workspace_edit(uri, analyzed, edits)
    return types.CodeAction(title, kind=kind, diagnostics=diagnostics or None, is_preferred=preferred or None,
                            edit=edit, data=data)  # fmt: skip


def _workspace_edit(uri: str, analyzed: _Analyzed, edits: list[TextEdit]) -> types.WorkspaceEdit:
    lsp_edits = [types.TextEdit(_range(e.start, e.end), e.new_text) for e in edits]
    document = types.OptionalVersionedTextDocumentIdentifier(uri, analyzed.version)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(document, lsp_edits)])


def hover_text(record: dict) -> str:
    """``float32 (weak) [jax] — from np.sqrt(n)``: one site of ``reveal`` in a line."""
    if record["error"]:
        return f"{record['error']}: {record['message']}"
    if record["dtype"] is None:
        text = f"unknown [{record['library']}]" if record["library"] else "unknown"
    else:
        text = f"{record['dtype']}{' (weak)' if record['weak'] else ''} [{record['library'] or 'any library'}]"
    if record.get("provenance"):
        text += f" — {record['provenance']}"
    if record.get("origin"):
        origin = " ".join(record["origin"].split())
        if len(origin) > _HOVER_TEXT_LIMIT:
            origin = origin[: _HOVER_TEXT_LIMIT - 3] + "..."
        text += f" — from {origin}"
    return text


def _fix_edits(analyzed: _Analyzed, fix: Fix) -> list[TextEdit]:
    """The edits of one fix, as ``promolint check --fix`` would write it."""
    from promolint.fix.edits import apply_fixes  # loads libcst: only code actions need it

    if not isinstance(analyzed.source, Source):
        return []
    fixed, count = apply_fixes(analyzed.data, analyzed.source, [fix])
    return analyzed.positions.edits_to(fixed.decode(analyzed.encoding)) if count else []


def _fix_all_edits(analyzed: _Analyzed) -> list[TextEdit]:
    """The edits of ``promolint check --fix`` on the whole document (safe fixes only)."""
    fixed = jobs.fix_job(jobs.LintJob(analyzed.path, analyzed.data, analyzed.settings, analyzed.codes))
    return analyzed.positions.edits_to(fixed.data.decode(analyzed.encoding)) if fixed.count else []


def _noqa_edits(analyzed: _Analyzed, d: Diagnostic) -> list[TextEdit]:
    """``# noqa: CODE`` on the diagnostic's first line (the line `# noqa` is read from): added to
    the line's `# noqa: ...` when it has one, else at its end; none where a comment cannot go
    (the line ends inside a string, or continues with a backslash)."""
    noqas, _ = directives(analyzed.data)
    for noqa in noqas.get(d.line, ()):
        if noqa.codes is not None:
            at = analyzed.positions.to_client(d.line, noqa.end_column)
            return [TextEdit(at, at, f", {d.code}")]
    text = analyzed.positions.content(d.line - 1)
    if text.rstrip().endswith("\\") or d.line in _lines_inside_strings(analyzed.data):
        return []
    end = analyzed.positions.line_end(d.line)
    return [TextEdit(end, end, f"{'  ' if text.strip() else ''}# noqa: {d.code}")]


def _lines_inside_strings(data: bytes) -> set[int]:
    """Lines whose end lies inside a string token (a triple-quoted string spanning lines)."""
    inside = set()
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.STRING or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                inside.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return inside


def _encoding_of(text: str) -> str:
    """The encoding a ``coding:`` declaration names in the first two lines, if ``text`` can be
    written in it (the analysis decodes by it); else UTF-8."""
    head = "\n".join(text.split("\n", 2)[:2]).encode("utf-8", "replace")
    match = _CODING.search(head)
    if match:
        encoding = match.group(1).decode("ascii", "replace")
        try:
            text.encode(encoding)
            return encoding
        except (LookupError, UnicodeEncodeError):
            pass
    return "utf-8"


def _pyproject_stamp(directory: Path) -> tuple:
    """The modification times of the pyproject.toml files above ``directory``: what decides the
    settings (cheap to take on every change, unlike reading them)."""
    stamp = []
    for candidate in (d / "pyproject.toml" for d in (directory, *directory.parents)):
        try:
            stamp.append((candidate, candidate.stat().st_mtime_ns))
        except OSError:
            continue
    return tuple(stamp)


def _range(start: Position, end: Position) -> types.Range:
    return types.Range(types.Position(start.line, start.character), types.Position(end.line, end.character))


def create_server() -> PromolintServer:
    server = PromolintServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PromolintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.analyze(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PromolintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PromolintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)  # the settings may have changed meanwhile

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PromolintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: PromolintServer, params: types.DidChangeWatchedFilesParams) -> None:
        for uri in list(ls.documents):  # a pyproject.toml changed: settings are read again by stamp
            ls.schedule(uri)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: PromolintServer, params: types.HoverParams) -> types.Hover | None:
        try:
            return ls.hover(params.text_document.uri, params.position)
        except Exception:  # a hover that fails shows nothing; the session goes on
            log.exception("promolint hover failed")
            return None

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL],
                                            resolve_provider=True))  # fmt: skip
    def code_action(ls: PromolintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        try:
            return ls.code_actions(params.text_document.uri, params)
        except Exception:
            log.exception("promolint code actions failed")
            return []

    @server.feature(types.CODE_ACTION_RESOLVE)
    def code_action_resolve(ls: PromolintServer, action: types.CodeAction) -> types.CodeAction:
        try:
            return ls.resolve(action)
        except Exception:  # an action that fails to resolve edits nothing; the session goes on
            log.exception("promolint could not resolve a code action")
            return action

    return server


def main() -> int:
    logging.basicConfig(level=logging.WARNING, format="promolint server: %(message)s")  # stderr: stdout is the protocol
    create_server().start_io()
    return 0

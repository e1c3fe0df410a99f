"""The language server's handlers called in this process, with no client process: the `# noqa`
quick fix where a comment can and cannot go, the text of a hover, the kinds of actions a client
asks for, stale actions, severities, a buffer's internal error, settings read again when the
project's pyproject.toml changes, and the encoding a ``coding:`` line names.  The server as an
editor drives it over stdio is tests/integrations/test_server.py's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lsprotocol import types

import promolint.driver.lint
from promolint.integrations.server import FIX_ALL, PromolintServer, _encoding_of, hover_text

OVERFLOW = "x = jnp.ones(3, jnp.int8) + 1000"
HEADER = "import jax.numpy as jnp\n"


class Editor:
    """A server initialized in process, with what it sends the client kept instead of sent."""

    def __init__(self, root: Path):
        self.root = root
        self.server = PromolintServer()
        initialize = self.server.protocol.lsp_initialize(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=root.as_uri()))
        for _ in initialize:  # a generator in pygls: run to its end
            pass
        self.published: dict[str, list[types.Diagnostic]] = {}
        self.messages: list[str] = []
        self.server.text_document_publish_diagnostics = self._publish
        self.server.window_show_message = lambda params: self.messages.append(params.message)

    def _publish(self, params: types.PublishDiagnosticsParams) -> None:
        self.published[params.uri] = params.diagnostics

    def open(self, name: str, text: str, version: int = 1) -> tuple[str, list[types.Diagnostic]]:
        uri = (self.root / name).as_uri()
        self.server.workspace.put_text_document(types.TextDocumentItem(uri, "python", version, text))
        self.server.analyze(uri)
        return uri, self.published[uri]

    def actions(self, uri: str, line: int, only: list[str] | None = None) -> list[types.CodeAction]:
        whole_line = types.Range(types.Position(line, 0), types.Position(line, 200))
        params = types.CodeActionParams(types.TextDocumentIdentifier(uri), whole_line,
                                        types.CodeActionContext([], only=only))  # fmt: skip
        return self.server.code_actions(uri, params)


@pytest.fixture
def editor(tmp_path) -> Editor:
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "off"\n')
    return Editor(tmp_path)


def _noqa_edits(editor: Editor, text: str, line: int) -> list[types.TextEdit]:
    uri, _ = editor.open("m.py", text)
    actions = [a for a in editor.actions(uri, line) if a.title.startswith("Ignore ")]
    return [edit for action in actions for change in action.edit.document_changes for edit in change.edits]


# --- the noqa quick fix -------------------------------------------------------------------------
def test_noqa_is_added_at_the_line_end_after_two_spaces(editor) -> None:
    (edit,) = _noqa_edits(editor, HEADER + OVERFLOW + "\n", 1)
    assert edit.new_text == "  # noqa: PRM006" and edit.range.start == types.Position(1, len(OVERFLOW))


def test_noqa_joins_the_codes_of_a_noqa_the_line_has(editor) -> None:
    line = OVERFLOW + "  # noqa: PRM001"
    (edit,) = _noqa_edits(editor, HEADER + line + "\n", 1)
    assert edit.new_text == ", PRM006" and edit.range.start == types.Position(1, len(line))


@pytest.mark.parametrize("text", [
    HEADER + "x = jnp.ones(3, jnp.int8) + \\\n    1000\n",  # the line goes on after a backslash
    HEADER + OVERFLOW + '; s = """\nstill the string\n"""\n',  # the line ends inside a string
], ids=["backslash", "string"])  # fmt: skip
def test_no_noqa_is_offered_where_a_comment_cannot_go(editor, text) -> None:
    uri, diagnostics = editor.open("m.py", text)
    assert [d.code for d in diagnostics] == ["PRM006"]
    assert _noqa_edits(editor, text, 1) == []


# --- actions ------------------------------------------------------------------------------------
FIXABLE = HEADER + "noise = jnp.zeros(3, dtype=jnp.float64)\n"  # PRM007 with x64 off: a safe fix


def test_a_client_asking_for_fix_all_gets_only_fix_all(editor) -> None:
    uri, _ = editor.open("m.py", FIXABLE)
    (action,) = editor.actions(uri, 1, only=[FIX_ALL])
    assert action.kind == FIX_ALL and action.title == "Fix all safe promolint findings"
    kinds = {a.kind for a in editor.actions(uri, 1, only=[types.CodeActionKind.QuickFix])}
    assert kinds == {types.CodeActionKind.QuickFix}


def test_a_document_changed_since_its_analysis_gets_no_action_and_resolves_none(editor) -> None:
    uri, _ = editor.open("m.py", FIXABLE)
    resolving = types.CodeAction("Fix all", data={"uri": uri, "version": 1, "action": [FIX_ALL, -1]})
    assert editor.server.resolve(resolving).edit is not None
    editor.server.workspace.put_text_document(types.TextDocumentItem(uri, "python", 2, FIXABLE + "\n"))
    assert editor.actions(uri, 1) == []  # its analysis is on its way
    stale = types.CodeAction("Fix all", data={"uri": uri, "version": 1, "action": [FIX_ALL, -1]})
    editor.server.analyze(uri)
    assert editor.server.resolve(stale).edit is None


def test_closing_a_document_clears_its_diagnostics(editor) -> None:
    uri, diagnostics = editor.open("m.py", FIXABLE)
    assert diagnostics
    editor.server.forget(uri)
    assert editor.published[uri] == [] and uri not in editor.server.documents


# --- diagnostics --------------------------------------------------------------------------------
def test_severities_say_an_unparsable_file_is_an_error_and_an_unused_noqa_a_hint(editor) -> None:
    (editor.root / "pyproject.toml").write_text("[tool.promolint]\nreport-unused-noqa = true\n")
    _, (broken,) = editor.open("broken.py", "def f(:\n    pass\n")
    assert (broken.code, broken.severity) == ("PRM000", types.DiagnosticSeverity.Error)
    _, diagnostics = editor.open("m.py", HEADER + OVERFLOW + "\ny = 1  # noqa: PRM006\n")
    by_code = {d.code: d for d in diagnostics}
    assert by_code["PRM006"].severity == types.DiagnosticSeverity.Warning
    assert by_code["PRM100"].severity == types.DiagnosticSeverity.Hint
    assert by_code["PRM100"].tags == [types.DiagnosticTag.Unnecessary]


def test_an_internal_error_in_one_buffer_is_one_diagnostic_and_the_session_goes_on(editor, monkeypatch) -> None:
    def crash(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(promolint.driver.lint, "parse_bytes", crash)  # the analysis's first step
    _, (diagnostic,) = editor.open("m.py", HEADER + OVERFLOW + "\n")
    assert diagnostic.code == "PRM000" and diagnostic.severity == types.DiagnosticSeverity.Error
    assert "internal error RuntimeError: a bug (please report it)" in diagnostic.message
    monkeypatch.undo()
    assert [d.code for d in editor.open("m.py", HEADER + OVERFLOW + "\n", version=2)[1]] == ["PRM006"]


# --- settings -----------------------------------------------------------------------------------
def test_settings_are_read_again_when_the_projects_pyproject_changes(editor) -> None:
    text = HEADER + OVERFLOW + "\n"
    assert [d.code for d in editor.open("m.py", text)[1]] == ["PRM006"]
    pyproject = editor.root / "pyproject.toml"
    pyproject.write_text('[tool.promolint]\nignore = ["PRM006"]\n')
    later = pyproject.stat().st_mtime_ns + 1_000_000_000  # a clock tick the file system surely shows
    os.utime(pyproject, ns=(later, later))
    assert editor.open("m.py", text, version=2)[1] == []


def test_an_invalid_configuration_is_shown_once_for_every_document(editor) -> None:
    (editor.root / "pyproject.toml").write_text('[tool.promolint]\nx64 = "sometimes"\n')
    editor.open("a.py", HEADER + OVERFLOW + "\n")
    editor.open("b.py", HEADER + OVERFLOW + "\n")
    (message,) = editor.messages
    assert "x64" in message and message.endswith("; using the default settings")


# --- hovers and encodings -------------------------------------------------------------------------
def _record(**fields) -> dict:
    return {"error": None, "message": None, "dtype": None, "weak": None, "library": None, **fields}


@pytest.mark.parametrize(("record", "text"), [
    (_record(dtype="float32", weak=True, library="jax"), "float32 (weak) [jax]"),
    (_record(dtype="int32", library=None), "int32 [any library]"),
    (_record(library="numpy"), "unknown [numpy]"),
    (_record(), "unknown"),
    (_record(error="TypePromotionError", message="no path"), "TypePromotionError: no path"),
    (_record(dtype="float64", library="numpy-scalar", provenance="x64 on"), "float64 [numpy-scalar] — x64 on"),
    (_record(dtype="int8", library="jax", origin="jnp.ones(3,\n    jnp.int8)"),
     "int8 [jax] — from jnp.ones(3, jnp.int8)"),  # its lines joined
])  # fmt: skip
def test_a_hover_is_one_line_of_what_reveal_knows(record, text) -> None:
    assert hover_text(record) == text


def test_a_long_origin_is_cut_to_a_hovers_width() -> None:
    text = hover_text(_record(dtype="int8", library="jax", origin="f(" + "x, " * 60 + ")"))
    origin = text.split(" — from ")[1]
    assert len(origin) == 80 and origin.endswith("...")


@pytest.mark.parametrize(("text", "encoding"), [
    ("# -*- coding: latin-1 -*-\ns = 'é'\n", "latin-1"),
    ("#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\ns = 'é'\n", "cp1252"),
    ("# coding: ascii\ns = 'é'\n", "utf-8"),  # the text cannot be written in it
    ("# coding: no-such-codec\n", "utf-8"),
    ("s = 1\n\n# coding: latin-1\n", "utf-8"),  # only the first two lines declare one
])  # fmt: skip
def test_the_buffer_is_encoded_as_its_coding_line_says_when_it_can_be(text, encoding) -> None:
    assert _encoding_of(text) == encoding

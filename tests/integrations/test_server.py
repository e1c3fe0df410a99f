"""`promolint server` end to end: a real server process, driven over stdio by a scripted LSP client
as an editor drives it (open, change, diagnostics, hover, code actions, edits applied, shutdown)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lsp_session import LspSession, apply_edits
from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import lint_source
from promolint.rules.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
README_EXAMPLE = (ROOT / "fixtures" / "readme_example.py").read_text()
DEFAULT_CODES = frozenset(info.code for info in REGISTRY if not info.opt_in and info.reported_by != "checker")


def _project(tmp_path: Path, table: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.promolint]\n{table}\n")
    return tmp_path


def _ranges(diagnostics: list[dict]) -> set[tuple]:
    return {(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"],
             d["range"]["end"]["character"]) for d in diagnostics}  # fmt: skip


def _expected(text: str, settings: Settings = Settings(), codes: frozenset[str] = DEFAULT_CODES) -> set[tuple]:
    """What `promolint check` finds in ``text``, in LSP terms (ASCII text: columns are characters)."""
    return {(d.code, d.line - 1, d.column - 1, d.end_line - 1, d.end_column - 1)
            for d in lint_source(text.encode(), "example.py", settings, codes)}  # fmt: skip


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


def _actions(session: LspSession, uri: str, diagnostic: dict, only: list[str] | None = None) -> list[dict]:
    context = {"diagnostics": [diagnostic], **({"only": only} if only else {})}
    return session.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": diagnostic["range"],
                                                       "context": context})  # fmt: skip


def _edits(action: dict) -> list[dict]:
    (change,) = action["edit"]["documentChanges"]
    return change["edits"]


def _hover(session: LspSession, uri: str, line: int, character: int) -> dict | None:
    return session.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": line, "character": character}})  # fmt: skip


@pytest.fixture
def session(tmp_path):
    project = _project(tmp_path, 'x64 = "off"')  # the README example is written for x64 off (PRM007 needs it said)
    started = LspSession(project)
    started.initialize()
    yield started
    if started.process.poll() is None:
        started.process.kill()
        started.process.wait()


def test_readme_example_session(session, tmp_path) -> None:
    path = tmp_path / "example.py"
    path.write_text("x = 1\n")  # on disk: clean; the editor's unsaved buffer is what counts
    uri = path.as_uri()
    diagnostics = session.open(uri, README_EXAMPLE)
    assert _ranges(diagnostics) == _expected(README_EXAMPLE, Settings(x64="off"))
    assert {d["code"] for d in diagnostics} == {"PRM002", "PRM004", "PRM006", "PRM007", "PRM008"}
    assert all(d["source"] == "promolint" and d["severity"] == 2 for d in diagnostics)
    by_code = {d["code"]: d for d in diagnostics}
    noise = _line_of(README_EXAMPLE, "noise =")
    (related,) = by_code["PRM007"]["relatedInformation"]
    assert related["location"]["uri"] == uri and related["location"]["range"]["start"]["line"] == noise
    assert "jnp.float64" in related["message"] and "jnp.float32" in related["message"]

    # Typing: an incremental change replaces the literal that overflows int8; the diagnostics follow.
    padding = _line_of(README_EXAMPLE, "padding =")
    start = README_EXAMPLE.splitlines()[padding].index("1000")
    session.change(uri, 2, [{"range": {"start": {"line": padding, "character": start},
                                       "end": {"line": padding, "character": start + 4}}, "text": "100"}])  # fmt: skip
    text = README_EXAMPLE.replace("tokens + 1000", "tokens + 100")
    diagnostics = session.diagnostics(uri, 2)
    assert "PRM006" not in {d["code"] for d in diagnostics}
    assert _ranges(diagnostics) == _expected(text, Settings(x64="off"))

    # A safe fix: preferred, the edit `promolint check --fix` makes on that line.
    by_code = {d["code"]: d for d in diagnostics}
    (fix,) = [a for a in _actions(session, uri, by_code["PRM007"]) if "PRM007" in a["title"] and "noqa" not in a["title"]]
    assert fix["kind"] == "quickfix" and fix["isPreferred"] is True
    assert fix["diagnostics"][0]["code"] == "PRM007"
    fixed_by_server = apply_edits(text, _edits(fix))
    fixed_by_check = _check_fix(tmp_path, text)
    assert fixed_by_server.splitlines()[noise] == fixed_by_check.splitlines()[noise]
    assert [i for i, (a, b) in enumerate(zip(text.splitlines(), fixed_by_server.splitlines())) if a != b] == [noise]

    # An unsafe fix is offered, labelled and not preferred.
    (unsafe,) = [a for a in _actions(session, uri, by_code["PRM002"]) if "unsafe" in a["title"]]
    assert "isPreferred" not in unsafe

    # Fix all: exactly what `promolint check --fix` writes.
    (fix_all,) = _actions(session, uri, by_code["PRM007"], only=["source.fixAll"])
    assert fix_all["kind"] == "source.fixAll.promolint"
    assert apply_edits(text, _edits(fix_all)) == fixed_by_check

    # The editor applies the quick fix and sends the new text: PRM007 is gone.
    session.change(uri, 3, [{"text": fixed_by_server}])
    diagnostics = session.diagnostics(uri, 3)
    assert "PRM007" not in {d["code"] for d in diagnostics}

    # `# noqa` quick fix: applied, the finding is silenced on its line.
    by_code = {d["code"]: d for d in diagnostics}
    (noqa,) = [a for a in _actions(session, uri, by_code["PRM008"]) if "noqa" in a["title"]]
    silenced = apply_edits(fixed_by_server, _edits(noqa))
    ids_line = silenced.splitlines()[_line_of(silenced, "ids =")]
    assert ids_line.endswith("# expect: PRM008  # noqa: PRM008")
    session.change(uri, 4, [{"text": silenced}])
    assert "PRM008" not in {d["code"] for d in session.diagnostics(uri, 4)}

    # A file that does not parse: one diagnostic, and the session goes on.
    session.change(uri, 5, [{"text": "def f(:\n    pass\n"}])
    (broken,) = session.diagnostics(uri, 5)
    assert broken["code"] == "PRM000" and broken["severity"] == 1 and broken["range"]["start"]["line"] == 0
    assert _hover(session, uri, 0, 4) is None
    session.change(uri, 6, [{"text": silenced}])
    assert session.diagnostics(uri, 6)

    assert session.close() == 0


def _check_fix(tmp_path: Path, text: str) -> str:
    copy = tmp_path / "check_fix_copy.py"
    copy.write_text(text)
    subprocess.run([sys.executable, "-m", "promolint", "check", "--fix", "--no-cache", str(copy)],
                   capture_output=True, cwd=tmp_path)  # fmt: skip
    return copy.read_text()


def test_hover_shows_dtype_weak_flag_library_and_origin(session, tmp_path) -> None:
    uri = (tmp_path / "example.py").as_uri()
    session.open(uri, README_EXAMPLE)
    scaled = _line_of(README_EXAMPLE, "scaled =")
    line = README_EXAMPLE.splitlines()[scaled]
    hover = _hover(session, uri, scaled, 1)
    assert hover["contents"]["kind"] == "plaintext"
    assert hover["contents"]["value"] == f"{_jax_dtype('params / np.sqrt(n)')} [jax] — from params / np.sqrt(n)"
    assert hover["range"] == {"start": {"line": scaled, "character": 0}, "end": {"line": scaled, "character": 6}}
    # The innermost expression under the cursor: `n` inside `np.sqrt(n)`, a weak Python int.
    n_column = line.index("(n)") + 1
    hover = _hover(session, uri, scaled, n_column)
    assert hover["contents"]["value"] == "int (weak) [python] — from 256"
    assert hover["range"]["start"]["character"] == n_column
    # Its call: a strong NumPy float64 scalar, whatever x64 says.
    assert _hover(session, uri, scaled, line.index("sqrt"))["contents"]["value"] == "float64 [numpy-scalar]"
    # A promotion JAX refuses: the error it raises.
    logits = _line_of(README_EXAMPLE, "logits =")
    value = _hover(session, uri, logits, README_EXAMPLE.splitlines()[logits].index("*"))["contents"]["value"]
    assert value.startswith("TypePromotionError: ")
    assert _hover(session, uri, 0, 0)["contents"]["value"] == "unknown"  # the docstring
    assert _hover(session, uri, _line_of(README_EXAMPLE, "def scale"), 0) is None  # no expression there
    assert session.close() == 0


RESOLVING_CLIENT = {"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}}


def test_a_client_that_resolves_gets_actions_without_edits_and_the_same_edits_on_resolve(tmp_path) -> None:
    project = _project(tmp_path, 'x64 = "off"')
    eager, lazy = LspSession(project), LspSession(project)
    eager.initialize()
    lazy.initialize(RESOLVING_CLIENT)
    uri = (project / "example.py").as_uri()
    eager.open(uri, README_EXAMPLE)
    diagnostics = lazy.open(uri, README_EXAMPLE)
    by_code = {d["code"]: d for d in diagnostics}
    offered = _actions(lazy, uri, by_code["PRM007"])  # the light bulb: no `only`
    assert {a["title"] for a in offered} == {a["title"] for a in _actions(eager, uri, by_code["PRM007"])}
    assert offered and all("edit" not in a and a["data"]["version"] == 1 for a in offered)
    for action in offered:  # each resolves to the edit an eager client is given at once
        (same,) = [a for a in _actions(eager, uri, by_code["PRM007"]) if a["title"] == action["title"]]
        resolved = lazy.request("codeAction/resolve", action)
        assert resolved["edit"] == same["edit"] and resolved["title"] == action["title"]
    fixed_by_check = _check_fix(tmp_path, README_EXAMPLE)
    (fix_all,) = [a for a in offered if a["kind"] == "source.fixAll.promolint"]
    assert apply_edits(README_EXAMPLE, _edits(lazy.request("codeAction/resolve", fix_all))) == fixed_by_check
    # An action offered for an older text edits nothing once the document has changed.
    lazy.change(uri, 2, [{"text": README_EXAMPLE + "\n"}])
    lazy.diagnostics(uri, 2)
    assert "edit" not in lazy.request("codeAction/resolve", fix_all)
    assert "edit" not in lazy.request("codeAction/resolve", {"title": "not ours", "data": {"action": [1, "x"]}})
    assert eager.close() == 0 and lazy.close() == 0


def _jax_dtype(expression: str) -> str:
    """The README example's ``expression`` evaluated by JAX itself (x64 off): the oracle."""
    program = textwrap.dedent(f"""
        import jax.numpy as jnp, numpy as np
        params = jnp.ones((256, 256), dtype=jnp.float32)
        n = 256
        value = {expression}
        print(str(value.dtype) + (" (weak)" if value.weak_type else ""))
    """)  # fmt: skip
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout.strip()


def test_positions_are_utf16_on_non_ascii_lines(session, tmp_path) -> None:
    uri = (tmp_path / "unicode.py").as_uri()
    prefix = 's = "😀é😀"; y = '
    text = f"import jax.numpy as jnp\n{prefix}jnp.ones(3, jnp.int8) + 1000\n"
    (diagnostic,) = session.open(uri, text)
    utf16 = len(prefix.encode("utf-16-le")) // 2  # 😀 is two UTF-16 units, é one
    assert utf16 == len(prefix) + 2
    end = utf16 + len("jnp.ones(3, jnp.int8) + 1000")
    assert (diagnostic["code"], diagnostic["range"]) == ("PRM006", {"start": {"line": 1, "character": utf16},
                                                                    "end": {"line": 1, "character": end}})  # fmt: skip
    hover = _hover(session, uri, 1, end - 2)  # inside `1000`, in UTF-16 units
    assert hover["contents"]["value"] == "int (weak) [python]"
    assert hover["range"]["start"]["character"] == end - 4
    assert session.close() == 0


def test_utf8_positions_when_the_client_asks_for_them(tmp_path) -> None:
    session = LspSession(_project(tmp_path))
    result = session.initialize({"general": {"positionEncodings": ["utf-8"]}})
    assert result["capabilities"]["positionEncoding"] == "utf-8"
    prefix = 's = "é😀"; y = '
    (diagnostic,) = session.open((tmp_path / "u.py").as_uri(), f"import jax.numpy as jnp\n{prefix}jnp.ones(3, jnp.int8) + 1000\n")
    assert diagnostic["range"]["start"]["character"] == len(prefix.encode("utf-8"))
    assert session.close() == 0


def test_settings_come_from_the_documents_project(tmp_path) -> None:
    project = _project(tmp_path, 'x64 = "on"\nignore = ["PRM006"]\nper-file-ignores = {"other.py" = ["PRM008"]}\n'
                                 'extend-select = ["PRM001"]')  # fmt: skip
    session = LspSession(project)
    session.initialize()
    text = README_EXAMPLE.replace('"""The README', '# promolint: disable=PRM004\n"""The README')
    diagnostics = session.open((project / "example.py").as_uri(), text)
    settings, codes = Settings(x64="on"), DEFAULT_CODES - {"PRM006", "PRM004"} | {"PRM001"}
    assert _ranges(diagnostics) == _expected(text, settings, codes)
    codes_found = {d["code"] for d in diagnostics}
    assert "PRM006" not in codes_found and "PRM004" not in codes_found
    assert ("PRM001", _line_of(text, "scaled =")) in {(d["code"], d["range"]["start"]["line"]) for d in diagnostics}
    other = session.open((project / "other.py").as_uri(), text)
    assert {d["code"] for d in other} == codes_found - {"PRM008"}
    assert session.close() == 0


def test_an_invalid_configuration_is_one_message_and_the_defaults(tmp_path) -> None:
    project = _project(tmp_path, 'x64 = "sometimes"')
    session = LspSession(project)
    session.initialize()
    diagnostics = session.open((project / "example.py").as_uri(), README_EXAMPLE)
    _, message = session.wait_for("window/showMessage")
    assert message["type"] == 1 and "x64" in message["message"] and "default settings" in message["message"]
    assert _ranges(diagnostics) == _expected(README_EXAMPLE)
    assert session.close() == 0


def test_hover_in_a_file_the_prefilter_skips(session, tmp_path) -> None:
    """A file with nothing to report is not analyzed for its diagnostics; its first hover
    analyzes it."""
    uri = (tmp_path / "plain.py").as_uri()
    assert session.open(uri, "x = 2.5\ny = x * 2\n") == []
    hover = _hover(session, uri, 1, 0)
    assert hover["contents"]["value"] == "float (weak) [python] — from x * 2"

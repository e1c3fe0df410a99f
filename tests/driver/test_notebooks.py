"""Notebooks (`.ipynb`): their code cells linted as one module in execution order, findings placed
in cells, fixes written back into the cells and nowhere else, nothing executed; through the command
line, then the ``Notebook`` object on its own (IPython syntax, broken cells, unreadable files)."""

from __future__ import annotations

import codecs
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from cli_run import run
from promolint.driver.notebook import Notebook, NotebookError

DATA = Path(__file__).parents[1] / "data"
NOTEBOOK = DATA / "notebooks" / "training.ipynb"
FINDINGS = [  # what the fixture holds (see its cells): the cell, the line within it, the column
    "training.ipynb:cell 3:2:9: PRM007 [*] float64 requested while x64 is off",
    "training.ipynb:cell 3:5:14: PRM006 1000 does not fit int8 [-128, 127]",
]


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    shutil.copy(NOTEBOOK, tmp_path / "training.ipynb")
    # The notebook is written for x64 off; its project says so (PRM007 needs x64 off for sure).
    (tmp_path / "pyproject.toml").write_text('[tool.promolint]\nx64 = "off"\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def notebook(*cells: list[str] | str, **document) -> dict:
    """A notebook whose code cells have these sources, executed in order."""
    return {"cells": [{"cell_type": "code", "execution_count": n, "metadata": {}, "outputs": [], "source": source}
                      for n, source in enumerate(cells, 1)],
            "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5,
            **document}  # fmt: skip


def test_findings_are_reported_in_cells(project, capsys) -> None:
    status, out, err = run(capsys, "check", "training.ipynb", "--no-cache")
    lines = out.splitlines()
    assert status == 1 and err == "" and len(lines) == 4
    assert [line[: len(expected)] for line, expected in zip(lines, FINDINGS)] == FINDINGS
    # IPython syntax (%magic, %%bash, !shell, x = !ls, obj?) is no syntax error; the noqa in cell 6 holds.
    assert "PRM000" not in out and "cell 6" not in out


def test_cells_run_in_execution_order(project, capsys) -> None:
    # Cell 4 (execution count 2) defines `tokens`, which cell 3 (count 3) adds 1000 to: in
    # execution order that is an int8 overflow; in the file's order `tokens` is not defined yet.
    document = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    for cell in document["cells"]:
        cell["execution_count"] = None if "execution_count" in cell else cell.get("execution_count")
    (project / "unrun.ipynb").write_text(json.dumps(document, indent=1), encoding="utf-8")
    out = run(capsys, "check", "unrun.ipynb", "--no-cache")[1]
    assert "cell 3:2:9: PRM007" in out and "cell 3:5:14: PRM006" not in out


def test_directories_include_notebooks_as_ruff_does(project, capsys) -> None:
    (project / "ok.py").write_text("x = 1\n")
    assert run(capsys, "check", ".", "--no-cache")[1].splitlines()[0].startswith(FINDINGS[0])
    assert run(capsys, "check", ".", "--no-cache", "--extend-exclude", "*.ipynb")[:2] == (0, "All checks passed!\n")


def test_json_gives_the_cell_and_lines_within_it(project, capsys) -> None:
    found = json.loads(run(capsys, "check", "training.ipynb", "--format", "json", "--no-cache")[1])
    assert [(d["cell"], d["line"], d["column"], d["end_line"], d["end_column"], d["code"]) for d in found] == [
        (3, 2, 9, 2, 40, "PRM007"), (3, 5, 14, 5, 27, "PRM006")]  # fmt: skip


@pytest.mark.parametrize("fmt", ["sarif", "github", "junit"])
def test_formats_that_count_the_files_lines_point_at_the_line_holding_the_code(project, capsys, fmt) -> None:
    out = run(capsys, "check", "training.ipynb", "--format", fmt, "--no-cache")[1]
    file_lines = NOTEBOOK.read_text(encoding="utf-8").splitlines()
    if fmt == "sarif":
        report = json.loads(out)
        jsonschema.validate(report, json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")))
        results = report["runs"][0]["results"]
        lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results]
        assert [r["properties"] for r in results] == [
            {"notebookCell": 3, "lineInCell": 2, "columnInCell": 9},
            {"notebookCell": 3, "lineInCell": 5, "columnInCell": 14},
        ]
    elif fmt == "github":
        lines = [int(a.split(",line=")[1].split(",")[0]) for a in out.splitlines()]
        assert "title=promolint (PRM007) cell 3%3A2%3A9::" in out
    else:
        lines = [int(line.split('line="')[1].split('"')[0]) for line in out.splitlines() if "<testcase " in line]
    assert "jnp.zeros(3, dtype=jnp.float64)" in file_lines[lines[0] - 1]
    assert "update = tokens + 1000" in file_lines[lines[1] - 1]


def test_fix_writes_into_the_cell_and_keeps_everything_else_byte_for_byte(project, capsys) -> None:
    before = NOTEBOOK.read_text(encoding="utf-8")
    status, out, _ = run(capsys, "check", "training.ipynb", "--fix", "--no-cache")
    after = (project / "training.ipynb").read_text(encoding="utf-8")
    assert status == 1 and "Found 2 findings (1 fixed, 1 remaining)." in out and "cell 3:5:14: PRM006" in out
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines()) if old != new]
    assert len(before.splitlines()) == len(after.splitlines()) and after.endswith("}\n")
    assert changed == [('    "noise = jnp.zeros(3, dtype=jnp.float64)\\n",',
                        '    "noise = jnp.zeros(3, dtype=jnp.float32)  # promolint: was float64, which JAX truncates '
                        'to float32 with x64 off\\n",')]  # fmt: skip
    assert run(capsys, "check", "training.ipynb", "--fix", "--no-cache")[1].startswith(FINDINGS[1][: -40])


def test_diff_shows_each_changed_cell(project, capsys) -> None:
    status, out, _ = run(capsys, "check", "training.ipynb", "--diff", "--no-cache")
    assert status == 1 and NOTEBOOK.read_bytes() == (project / "training.ipynb").read_bytes()
    assert out.splitlines()[:3] == ["--- training.ipynb:cell 3", "+++ training.ipynb:cell 3", "@@ -1,5 +1,5 @@"]
    assert "-noise = jnp.zeros(3, dtype=jnp.float64)" in out.splitlines()


@pytest.mark.parametrize(("indent", "final"), [(2, ""), (None, "\n"), ("\t", "\n"), (0, "\n")])
def test_fix_keeps_the_notebooks_own_json_style(tmp_path, capsys, indent, final) -> None:
    document = notebook(["import jax.numpy as jnp\n", "x = jnp.float64(1)"], "y = 'ünïcode'\n",
                        metadata={"language_info": {"name": "python"}, "zzz": 1, "aaa": [1.5, None]})  # fmt: skip
    path = tmp_path / "styled.ipynb"
    path.write_text(json.dumps(document, indent=indent, ensure_ascii=False) + final, encoding="utf-8")
    assert run(capsys, "check", str(path), "--fix", "--no-cache", "--x64", "off")[0] == 0
    document["cells"][0]["source"][1] = "x = jnp.float32(1)  # promolint: was float64, which JAX truncates to " \
                                        "float32 with x64 off"  # fmt: skip
    assert path.read_text(encoding="utf-8") == json.dumps(document, indent=indent, ensure_ascii=False) + final


def test_a_notebook_whose_json_cannot_be_rewritten_exactly_is_left_alone(tmp_path, capsys) -> None:
    text = json.dumps(notebook("import jax.numpy as jnp\nx = jnp.float64(1)\n"), indent=1).replace(": 4,", ":   4,")
    path = tmp_path / "odd.ipynb"
    path.write_text(text, encoding="utf-8")
    status, out, _ = run(capsys, "check", str(path), "--fix", "--no-cache", "--x64", "off")
    assert status == 1 and path.read_text(encoding="utf-8") == text
    assert "PRM000 its JSON is formatted in a way promolint cannot reproduce; the fixes were not written" in out
    assert "cell 1:2:5: PRM007" in out


def test_reveal_places_records_in_cells(project, capsys) -> None:
    status, out, _ = run(capsys, "reveal", "training.ipynb")
    assert status == 0 and "training.ipynb:cell 4:1:1: tokens: int8 [jax]" in out.splitlines()
    records = json.loads(run(capsys, "reveal", "training.ipynb", "--format", "json")[1])
    assert {"path": "training.ipynb", "cell": 3, "line": 5, "column": 5, "dtype": "int8"} in [
        {key: r[key] for key in ("path", "cell", "line", "column", "dtype")} for r in records if r["text"] == "update"]


def test_a_notebook_is_never_executed(tmp_path, capsys) -> None:
    document = notebook(["import jax.numpy as jnp\n", f"open({str(tmp_path / 'ran')!r}, 'w')\n"],
                        [f"!touch {tmp_path / 'shell_ran'}\n"],
                        ["%%bash\n", f"touch {tmp_path / 'bash_ran'}\n"])  # fmt: skip
    (tmp_path / "nb.ipynb").write_text(json.dumps(document), encoding="utf-8")
    run(capsys, "check", str(tmp_path), "--no-cache")
    run(capsys, "reveal", str(tmp_path))
    run(capsys, "check", str(tmp_path), "--fix", "--no-cache")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nb.ipynb"]


def test_bad_or_foreign_notebooks(tmp_path, capsys) -> None:
    (tmp_path / "broken.ipynb").write_text("{not json", encoding="utf-8")
    (tmp_path / "r.ipynb").write_text(json.dumps(notebook("x <- 1\n", metadata={"language_info": {"name": "R"}})))
    (tmp_path / "syntax.ipynb").write_text(json.dumps(notebook("x = 1\n", "def f(:\n    pass\n")))
    status, out, err = run(capsys, "check", str(tmp_path), "--no-cache")
    assert status == 1 and "Traceback" not in err and "r.ipynb" not in out  # another kernel's language
    assert "broken.ipynb:1:1: PRM000 not a readable notebook: " in out
    assert "syntax.ipynb:cell 2:1:7: PRM000 syntax error" in out


def test_a_notebook_from_standard_input(capsys) -> None:
    data = NOTEBOOK.read_bytes()
    result = subprocess.run([sys.executable, "-m", "promolint", "check", "--stdin-filename", "nb.ipynb", "-",
                             "--no-cache", "--x64", "off"], input=data, capture_output=True, check=False)  # fmt: skip
    assert result.returncode == 1 and b"nb.ipynb:cell 3:2:9: PRM007" in result.stdout
    fixed = subprocess.run([sys.executable, "-m", "promolint", "check", "--stdin-filename", "nb.ipynb", "-", "--fix",
                            "--x64", "off"], input=data, capture_output=True, check=False)  # fmt: skip
    document = json.loads(fixed.stdout)
    assert "jnp.float32)  # promolint: was float64" in document["cells"][2]["source"][1]
    assert b"nb.ipynb:cell 3:5:14: PRM006" in fixed.stderr and fixed.returncode == 1


def test_a_cell_with_a_syntax_error_hides_no_finding_of_the_others(tmp_path, capsys) -> None:
    """One PRM000 at the broken cell's own line; the other cells are analysed without it (cell 3
    reads `jnp` from cell 1 across it), and a fix elsewhere leaves the broken cell as written."""
    cells = ["import jax.numpy as jnp\n", "x = 1\ndef f(:\n    pass\n",
             "tokens = jnp.zeros(3, dtype=jnp.int8)\nwide = jnp.zeros(3, dtype=jnp.float64)\npadding = tokens + 1000\n"]
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook(*cells), indent=1), encoding="utf-8")
    out = run(capsys, "check", str(tmp_path / "nb.ipynb"), "--no-cache", "--x64", "off")[1]
    found = [" ".join(m.groups()) for m in re.finditer(r"nb\.ipynb:(cell \d+:\d+:\d+): (PRM\d+)", out)]
    assert found == ["cell 2:2:7 PRM000", "cell 3:2:8 PRM007", "cell 3:3:11 PRM006"]
    out = run(capsys, "check", str(tmp_path / "nb.ipynb"), "--no-cache", "--x64", "off", "--fix")[1]
    written = json.loads((tmp_path / "nb.ipynb").read_text(encoding="utf-8"))["cells"]
    assert [c["source"] for c in written[:2]] == cells[:2]  # the broken cell as it was
    assert "dtype=jnp.float32)  # promolint: was float64" in written[2]["source"]
    assert "nb.ipynb:cell 2:2:7: PRM000 syntax error" in out and "cell 3:3:11: PRM006" in out


# --- the Notebook object (promolint.driver.notebook) -----------------------------------------
def _read(document: dict, **dumps) -> Notebook:
    return Notebook(json.dumps(document, **dumps).encode("utf-8"))


def test_code_cells_make_one_module_in_execution_order_and_map_back_to_their_cells() -> None:
    document = notebook("a = 1\nb = 2\n", "c = 3\n")
    document["cells"][0]["execution_count"] = 2
    document["cells"][1]["execution_count"] = 1
    document["cells"].insert(1, {"cell_type": "markdown", "metadata": {}, "source": "# a title"})
    nb = _read(document)
    module = nb.python.decode().splitlines()
    assert module[0] == "c = 3" and module[2:] == ["a = 1", "b = 2"]
    # cells count as ruff counts them: every cell of the file, Markdown too, from 1
    assert [nb.locate(line) for line in (1, 3, 4)] == [(3, 1), (1, 1), (1, 2)]


def test_cells_keep_the_files_order_when_one_was_never_run() -> None:
    document = notebook("first = 1\n", "second = 2\n")
    document["cells"][0]["execution_count"] = 5
    document["cells"][1]["execution_count"] = None
    assert _read(document).python.decode().splitlines()[0] == "first = 1"


@pytest.mark.parametrize("line", ["%matplotlib inline", "!pip install jax", "files = !ls", "jnp.ones?",
                                  "x = %time f()", "    %timeit f()"])  # fmt: skip
def test_ipython_lines_stand_in_as_statements_and_every_other_line_keeps_its_place(line) -> None:
    cell = f"import jax.numpy as jnp\ndef f():\n    return 1\n{line}\ny = jnp.ones(3)\n"
    nb = _read(notebook(cell))
    module = nb.python.decode().splitlines()
    compile(nb.python, "nb.py", "exec")  # parses as Python
    assert len(module) == 5 and module[4] == "y = jnp.ones(3)" and line.strip() not in module[3]


def test_a_cell_magic_of_another_language_stands_in_whole_but_a_timing_one_keeps_its_python() -> None:
    nb = _read(notebook("%%bash\necho hi\nls -l\n", "%%time\nx = 1 + 2\n"))
    module = nb.python.decode().splitlines()
    assert not any("echo" in line or "ls -l" in line for line in module)
    assert module[-1] == "x = 1 + 2" and not nb.broken


def test_a_magic_like_line_inside_a_string_is_left_as_written() -> None:
    cell = 'text = """\n!not a shell line\n"""\n%matplotlib inline\n'
    module = _read(notebook(cell)).python.decode().splitlines()
    assert module[1] == "!not a shell line" and "%matplotlib" not in module[3]


def test_a_cell_that_does_not_parse_is_named_and_the_others_stay() -> None:
    nb = _read(notebook("x = 1\n", "def f(:\n    pass\n", "y = 2\n"))
    assert nb.broken == [(3, "def f(:\n    pass")]  # its first line in the module, and its code
    module = nb.python.decode().splitlines()
    compile(nb.python, "nb.py", "exec")
    assert module[0] == "x = 1" and module[-1] == "y = 2"


def test_writing_back_the_module_unchanged_gives_the_same_bytes() -> None:
    document = notebook(["import jax.numpy as jnp\n", "%matplotlib inline\n", "x = 1"], "%%bash\nls\n",
                        "def f(:\n    pass\n")  # fmt: skip
    data = codecs.BOM_UTF8 + (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    nb = Notebook(data)
    assert nb.with_python(nb.python) == data


def test_writing_back_changes_only_the_edited_cell_in_its_own_form() -> None:
    document = notebook(["a = 1\n", "%matplotlib inline\n", "b = 2"], "c = 3\n")
    nb = _read(document, indent=1)
    fixed = nb.python.decode().replace("b = 2", "b = 20").replace("c = 3", "c = 30").encode()
    written = json.loads(nb.with_python(fixed))
    assert written["cells"][0]["source"] == ["a = 1\n", "%matplotlib inline\n", "b = 20"]  # still a list
    assert written["cells"][1]["source"] == "c = 30\n"  # still one string
    assert {k: v for k, v in written.items() if k != "cells"} == {k: v for k, v in document.items() if k != "cells"}


def test_writing_back_a_module_whose_cells_moved_is_refused() -> None:
    nb = _read(notebook("a = 1\n", "b = 2\n"))
    with pytest.raises(NotebookError, match="moved a cell boundary"):
        nb.with_python(b"a = 1\nb = 2\n")


def test_a_cells_lines_are_found_in_the_file_and_read_as_written() -> None:
    nb = _read(notebook("x = 1\n", ["y = 2\n", "!ls\n"]), indent=1)
    file_lines = nb.text.splitlines()
    assert '"!ls\\n"' in file_lines[nb.file_line(2, 2) - 1] and '"x = 1\\n"' in file_lines[nb.file_line(1, 1) - 1]
    assert nb.cell_lines(2) == ["y = 2", "!ls", ""]


@pytest.mark.parametrize(("data", "message"), [
    (b"{not json", "not a readable notebook"),
    (b"\xff\xfe{}", "not a readable notebook"),
    (b'{"cells": {}}', "no list of cells"),
    (b"[1, 2]", "no list of cells"),
    (b'{"cells": [{"cell_type": "code", "source": 3}]}', "cell 1: its source is not text"),
])  # fmt: skip
def test_what_is_no_readable_notebook_raises_one_error_saying_why(data, message) -> None:
    with pytest.raises(NotebookError, match=message):
        Notebook(data)


@pytest.mark.parametrize(("metadata", "python"), [
    ({"language_info": {"name": "R"}}, False),
    ({"kernelspec": {"language": "julia"}}, False),
    ({"kernelspec": {"language": "Python3"}}, True),
    ({}, True),  # nothing says otherwise
])  # fmt: skip
def test_a_notebook_of_another_kernels_language_is_not_python(metadata, python) -> None:
    assert _read(notebook("x = 1\n", metadata=metadata)).is_python is python

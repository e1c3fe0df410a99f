"""``promolint lattice check|draw``: lattice files, their checks, and the pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli_run import run
from promolint.systems import get_system
from promolint.systems.draw import layout, render
from promolint.systems.lattice import Lattice
from promolint.systems.lattice_io import load, load_lattice
from promolint.systems.max import EDGES as MAX_EDGES

DATA = Path(__file__).parents[1] / "data"
SVG = "{http://www.w3.org/2000/svg}"
CHAIN_TABLE_PAIRS = '[table]\n"a,a" = "a"\n"a,b" = "b"\n"b,a" = "b"\n"b,b" = "b"\n'
CHAIN_TABLE_NESTED = '[table.a]\na = "a"\nb = "b"\n[table.b]\na = "b"\nb = "b"\n'
# a ≤ b ≤ c ≤ a: every cell picks a winner, but no order does.
ROCK_PAPER_SCISSORS = "T,a,b,c\na,a,b,a\nb,b,b,c\nc,a,c,c\n"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- check -------------------------------------------------------------------------------
def test_check_a_lattice(capsys):
    status, out, _ = run(capsys, "lattice", "check", DATA / "good-lattice.toml")
    assert status == 0
    assert out.splitlines() == [f"{DATA / 'good-lattice.toml'}: a DAG of 7 nodes and 8 edges", "OK: a lattice"]


def test_check_the_max_table_lists_its_inconsistent_cells(capsys):
    status, out, _ = run(capsys, "lattice", "check", DATA / "max-table.csv")
    assert status == 1
    for line in (
        "not commutative (4):",
        "  bool ∨ index = int64 but index ∨ bool = uint64",
        "  (int8 ∨ index) ∨ uint64 = uint64 but int8 ∨ (index ∨ uint64) = float16",
        "  bool ∨ index = int64, least upper bound uint64",
        "  bool ∨ address = int64, least upper bound uint64",
        "  int8 ∨ index = index, least upper bound float16",
        "  int8 ∨ address = address, least upper bound float16",
        "NOT the join of any partial order: 4 cells disagree with the order",
    ):
        assert line in out.splitlines()


def test_check_a_dag_with_missing_and_ambiguous_joins(capsys, tmp_path):
    path = write(tmp_path, "dag.toml", '[edges]\na = ["c", "d"]\nb = ["c", "d"]\ne = []\n')
    status, out, _ = run(capsys, "lattice", "check", path)
    assert status == 1
    assert "  a ∨ b: c, d" in out.splitlines() and "  a ∨ e" in out.splitlines()


@pytest.mark.parametrize("text", [CHAIN_TABLE_PAIRS, CHAIN_TABLE_NESTED], ids=["pairs", "nested"])
def test_a_toml_table_of_pairs_or_nested_tables_loads_and_checks(capsys, tmp_path, text):
    path = write(tmp_path, "table.toml", text)
    assert load(path).cells == {("a", "a"): "a", ("a", "b"): "b", ("b", "a"): "b", ("b", "b"): "b"}
    assert run(capsys, "lattice", "check", path)[0] == 0


def test_a_table_no_order_explains(capsys, tmp_path):
    path = write(tmp_path, "rps.csv", ROCK_PAPER_SCISSORS)
    status, out, _ = run(capsys, "lattice", "check", path)
    assert status == 1 and "has a cycle" in out and "not associative" in out
    assert run(capsys, "lattice", "draw", path)[0] == 2  # there is no order to draw


def test_a_table_with_refusals_is_a_partial_join(capsys, tmp_path):
    path = write(tmp_path, "partial.csv", "T,a,b\na,a,-\nb,-,b\n")
    status, out, _ = run(capsys, "lattice", "check", path)
    assert status == 1 and out.endswith("NOT a lattice: 1 pairs have no result\n")


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("missing.toml", None, "cannot read"),
        ("bad.toml", "[edges\nx =", "invalid TOML"),
        ("neither.toml", "x = 1\n", "either an [edges] table"),
        ("edges.toml", '[edges]\na = "b"\n', "must map each node to a list"),
        ("cycle.toml", '[edges]\na = ["b"]\nb = ["c"]\nc = ["a"]\n', "cycle"),
        ("weak.toml", 'weak = ["z"]\n[edges]\na = ["b"]\n', "weak names unknown nodes: z"),
        ("ragged.csv", "T,a,b\na,a,b\nb,b\n", "row 3 has 2 cells"),
        ("unknown.csv", "T,a,b\na,a,c\nb,b,b\n", "cell a,b is 'c'"),
        ("rows.csv", "T,a,b\na,a,b\nc,b,b\n", "not square"),
        ("cells.toml", '[table]\n"a,a" = "a"\n"a,b" = "b"\n', "no cell for b,a, b,b"),
        ("lattice.txt", "a b\n", "expected a .toml"),
    ],
)
def test_malformed_files_are_one_line_errors(capsys, tmp_path, name, text, message):
    path = tmp_path / name if text is None else write(tmp_path, name, text)
    for command in ("check", "draw"):
        status, out, err = run(capsys, "lattice", command, path)
        assert (status, out) == (2, "")
        assert err.startswith("promolint: error: ") and message in err and err.count("\n") == 1


# --- draw --------------------------------------------------------------------------------
def parsed_svg(lattice: Lattice) -> ET.Element:
    return ET.fromstring(render(lattice, "svg"))


def node_boxes(svg: ET.Element) -> dict[str, ET.Element]:
    return {g.find(f"{SVG}text").text: g for g in svg.iter(f"{SVG}g") if g.get("class") == "node"}


@pytest.mark.parametrize("system", ["jax", "jax-strict", "array-api", "max"])
def test_svg_has_every_node_and_one_element_per_edge(system):
    lattice = get_system(system).lattice
    svg = parsed_svg(lattice)
    assert set(node_boxes(svg)) == set(lattice.nodes)
    edges = [(path.get("data-low"), path.get("data-high")) for path in svg.iter(f"{SVG}path") if path.get("class")]
    assert sorted(edges) == sorted((low, high) for low, ups in lattice.edges.items() for high in ups)


def test_jax_picture_goes_bottom_up_without_crossings():
    lattice = get_system("jax").lattice
    boxes = node_boxes(parsed_svg(lattice))
    height = {node: float(g.find(f"{SVG}rect").get("y")) for node, g in boxes.items()}
    assert max(height, key=height.get) == "bool" and min(height, key=height.get) == "complex128"
    assert all(height[high] < height[low] for low, ups in lattice.edges.items() for high in ups)
    assert layout(lattice).crossings == 0


def test_weak_nodes_are_dashed_and_explained():
    svg = parsed_svg(get_system("jax").lattice)
    dashed = {node for node, g in node_boxes(svg).items() if g.find(f"{SVG}rect").get("stroke-dasharray")}
    assert dashed == {"i*", "f*", "c*"}
    assert any("weak" in (text.text or "") for text in svg.iter(f"{SVG}text"))


def test_a_file_decides_its_weak_nodes(tmp_path):
    svg = parsed_svg(load_lattice(write(tmp_path, "weak.toml", 'weak = ["a"]\n[edges]\na = ["i*"]\n')))
    assert {node for node, g in node_boxes(svg).items() if g.find(f"{SVG}rect").get("stroke-dasharray")} == {"a"}


def test_dot_output_draws_upward_edges_and_weak_nodes_dashed():
    dot = render(load_lattice(DATA / "good-lattice.toml"), "dot")
    assert dot.startswith("digraph lattice {\n  rankdir=BT;")
    assert '"i*" [style="rounded,filled,dashed"' in dot and '  "uint8" -> "int16";' in dot


def test_draw_to_a_file(capsys, tmp_path):
    out = tmp_path / "jax.svg"
    assert run(capsys, "lattice", "draw", "--system", "jax", "--format", "svg", "-o", out) == (0, "", "")
    assert ET.parse(out).getroot().tag == f"{SVG}svg"


def test_draw_a_table_draws_the_order_it_implies():
    # MAX's printed table, inconsistent cells and all, implies exactly the lattice of MAX's prose.
    implied = load_lattice(DATA / "max-table.csv").edges
    assert {low: set(ups) for low, ups in implied.items()} == {low: set(ups) for low, ups in MAX_EDGES.items()}

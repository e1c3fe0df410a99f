"""Draw a lattice: a layered SVG picture (no Graphviz needed) or Graphviz ``dot`` text.

The SVG layout is Sugiyama's: longest-path layers from the bottom (so every edge points up; a
node with nothing below moves up to just under its lowest upper neighbour), a bend point in each
layer a long edge crosses, barycenter sweeps to reduce crossings, then x positions pulled towards
their neighbours under the order and spacing of each layer.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from promolint.core.dtypes import DTYPES, WEAK_NODE_KIND
from promolint.systems.lattice import Lattice

FONT_SIZE = 13
CHAR_WIDTH = 0.6 * FONT_SIZE  # a monospace font, so a label's width is known without measuring it
NODE_HEIGHT = 26
NODE_PADDING = 10
NODE_GAP = 18
BEND_GAP = 10
LAYER_GAP = 64
FAN_SLOPE = 0.15  # least gap between layers per unit of the widest horizontal run of an edge
MARGIN = 20
ORDER_SWEEPS = 24
PLACEMENT_SWEEPS = 40

# Fill colour and legend text of each kind of the dtype catalog; other nodes stay white.
KIND_STYLES: dict[str, tuple[str, str]] = {
    "b": ("#e5e7eb", "bool"),
    "u": ("#dbeafe", "unsigned integer"),
    "i": ("#dcfce7", "signed integer"),
    "f": ("#fef3c7", "floating"),
    "c": ("#fce7f3", "complex"),
}
OTHER_FILL = "#ffffff"
OTHER_LEGEND = "not a NumPy dtype"
WEAK_LEGEND = "weak type (Python scalar)"


def render(lattice: Lattice, fmt: str) -> str:
    """``lattice`` as ``svg`` or ``dot`` text."""
    renderers = {"svg": _svg, "dot": _dot}
    if fmt not in renderers:
        raise ValueError(f"unknown picture format {fmt!r} (choose from {', '.join(renderers)})")
    return renderers[fmt](lattice, _weak_nodes(lattice))


def _weak_nodes(lattice: Lattice) -> frozenset[str]:
    # A lattice file may name its weak nodes; otherwise they are the catalog's i*, f*, c*.
    named = getattr(lattice, "weak", None)
    return frozenset(n for n in lattice.nodes if n in WEAK_NODE_KIND) if named is None else named


def _kind(node: str) -> str | None:
    return WEAK_NODE_KIND.get(node) or (DTYPES[node].kind if node in DTYPES else None)


def _fill(node: str) -> str:
    kind = _kind(node)
    return KIND_STYLES[kind][0] if kind else OTHER_FILL


# --- dot ---------------------------------------------------------------------------------
def _dot(lattice: Lattice, weak: frozenset[str]) -> str:
    def quoted(name: str) -> str:
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = [
        "digraph lattice {",
        "  rankdir=BT;",
        '  node [shape=box, style="rounded,filled", fontname="monospace"];',
    ]
    for node in lattice.nodes:
        style = "rounded,filled,dashed" if node in weak else "rounded,filled"
        lines.append(f'  {quoted(node)} [style="{style}", fillcolor="{_fill(node)}"];')
    lines += [f"  {quoted(low)} -> {quoted(high)};" for low, ups in lattice.edges.items() for high in ups]
    return "\n".join([*lines, "}"]) + "\n"


# --- layout ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Bend:
    """Where the edge ``low → high`` crosses ``layer``."""

    low: str
    high: str
    layer: int


@dataclass
class Layout:
    layers: list[list[Hashable]]  # bottom layer first; nodes and bends in left-to-right order
    layer_of: dict[Hashable, int]
    routes: list[list[Hashable]]  # each edge as the chain low, bends..., high
    up: dict[Hashable, list[Hashable]]  # the items in the next layer up that each item links to
    x: dict[Hashable, float]  # of each item's centre

    @property
    def crossings(self) -> int:
        return _crossings(self.layers, self.up)


def _width(item: Hashable) -> float:
    return len(item) * CHAR_WIDTH + 2 * NODE_PADDING if isinstance(item, str) else 0.0


def layout(lattice: Lattice) -> Layout:
    below: dict[str, list[str]] = {n: [] for n in lattice.nodes}
    for low, ups in lattice.edges.items():
        for high in ups:
            below[high].append(low)
    # A node has more upper bounds than any node above it: this order visits the lower first.
    layer_of: dict[Hashable, int] = {}
    for node in sorted(lattice.nodes, key=lambda n: -len(lattice.upper_bounds[n])):
        layer_of[node] = max((layer_of[m] + 1 for m in below[node]), default=0)
    for node in lattice.nodes:  # a node with nothing below sits just under its lowest upper neighbour
        if not below[node] and lattice.edges[node]:
            layer_of[node] = min(layer_of[high] for high in lattice.edges[node]) - 1

    routes = []
    for low, ups in lattice.edges.items():
        for high in ups:
            bends = [_Bend(low, high, k) for k in range(layer_of[low] + 1, layer_of[high])]
            layer_of.update({b: b.layer for b in bends})
            routes.append([low, *bends, high])
    down: dict[Hashable, list[Hashable]] = {item: [] for item in layer_of}
    up: dict[Hashable, list[Hashable]] = {item: [] for item in layer_of}
    for route in routes:
        for lower, upper in zip(route, route[1:]):
            up[lower].append(upper)
            down[upper].append(lower)

    layers: list[list[Hashable]] = [[] for _ in range(max(layer_of.values(), default=-1) + 1)]
    for item in layer_of:  # lattice order first: the order its author wrote the edges in
        layers[layer_of[item]].append(item)
    layers = _order(layers, down, up)
    return Layout(layers, layer_of, routes, up, _place(layers, down, up))


def _order(layers: list[list[Hashable]], down, up) -> list[list[Hashable]]:
    """Barycenter sweeps, alternately upward and downward; the order with fewest crossings wins.

    Items with no neighbours on the side a sweep looks at keep their slots."""
    best, best_crossings = [list(layer) for layer in layers], _crossings(layers, up)
    for sweep in range(ORDER_SWEEPS):
        upward = sweep % 2 == 0
        neighbours = down if upward else up
        for k in range(1, len(layers)) if upward else range(len(layers) - 2, -1, -1):
            position = {item: i for i, item in enumerate(layers[k - 1] if upward else layers[k + 1])}

            def barycenter(item: Hashable) -> float:
                return sum(position[n] for n in neighbours[item]) / len(neighbours[item])

            movable = [item for item in layers[k] if neighbours[item]]
            ranked = [
                item
                for _, tied in itertools.groupby(sorted(movable, key=barycenter), key=barycenter)
                for item in _dead_ends_aside(list(tied), up)
            ]
            slots = iter(ranked)
            layers[k] = [next(slots) if neighbours[item] else item for item in layers[k]]
        crossings = _crossings(layers, up)
        if crossings <= best_crossings:  # later sweeps refine earlier ones: on a tie, keep the later
            best, best_crossings = [list(layer) for layer in layers], crossings
    return best


def _dead_ends_aside(siblings: list[Hashable], up) -> list[Hashable]:
    """Siblings that nothing is above go half to each side, so lines that go on up stay central."""
    ends = [item for item in siblings if not up[item]]
    half = len(ends) // 2
    return ends[:half] + [item for item in siblings if up[item]] + ends[half:]


def _crossings(layers: Sequence[Sequence[Hashable]], up) -> int:
    total = 0
    for lower, upper in zip(layers, layers[1:]):
        position = {item: i for i, item in enumerate(upper)}
        segments = [(i, position[high]) for i, low in enumerate(lower) for high in up[low]]
        total += sum(
            1 for j, (a1, b1) in enumerate(segments) for a2, b2 in segments[j + 1 :] if (a1 - a2) * (b1 - b2) < 0
        )
    return total


def _place(layers: list[list[Hashable]], down, up) -> dict[Hashable, float]:
    """x of each item: near the mean of its neighbours, layer order and spacing kept."""
    x: dict[Hashable, float] = {}
    for layer in layers:
        x.update(zip(layer, _packed(layer)))
    for sweep in range(PLACEMENT_SWEEPS):
        for layer in layers if sweep % 2 == 0 else reversed(layers):
            neighbours = [down[item] + up[item] for item in layer]
            wanted = [sum(x[n] for n in near) / len(near) if near else x[item] for item, near in zip(layer, neighbours)]
            x.update(zip(layer, _closest_spaced(wanted, _gaps(layer))))
    left = min((x[item] - _width(item) / 2 for item in x), default=0.0)
    return {item: value - left + MARGIN for item, value in x.items()}


def _gaps(layer: Sequence[Hashable]) -> list[float]:
    """The least distance between the centres of neighbours in ``layer``."""
    return [
        (_width(a) + _width(b)) / 2 + (NODE_GAP if isinstance(a, str) or isinstance(b, str) else BEND_GAP)
        for a, b in zip(layer, layer[1:])
    ]


def _packed(layer: Sequence[Hashable]) -> list[float]:
    positions = [0.0]
    for gap in _gaps(layer):
        positions.append(positions[-1] + gap)
    return [p - positions[-1] / 2 for p in positions]


def _closest_spaced(wanted: Sequence[float], gaps: Sequence[float]) -> list[float]:
    """Positions x minimising Σ(x - wanted)² with x[i+1] - x[i] ≥ gaps[i]: isotonic regression
    (pool adjacent violators) of ``wanted`` less each position's cumulative gap."""
    offsets = [0.0]
    for gap in gaps:
        offsets.append(offsets[-1] + gap)
    blocks: list[list[float]] = []  # [sum, count] of pooled targets, means increasing
    for target in (w - o for w, o in zip(wanted, offsets)):
        blocks.append([target, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    means = [total / count for total, count in blocks for _ in range(int(count))]
    return [m + o for m, o in zip(means, offsets)]


# --- svg ---------------------------------------------------------------------------------
def _svg(lattice: Lattice, weak: frozenset[str]) -> str:
    plan = layout(lattice)
    layer_y = _layer_heights(plan)

    def y(item: Hashable) -> float:
        return layer_y[plan.layer_of[item]]

    graph_width = max((plan.x[n] + _width(n) / 2 for n in lattice.nodes), default=0.0) + MARGIN
    legend = _legend_items(lattice, weak)
    legend_y = max(layer_y, default=0.0) + NODE_HEIGHT / 2 + 2 * MARGIN
    width = max(graph_width, MARGIN + sum(_legend_width(text) for _, _, text in legend))
    height = legend_y + (NODE_HEIGHT + MARGIN if legend else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        f'font-size="{FONT_SIZE}">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker></defs>',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
    ]
    for route in plan.routes:
        points = [(plan.x[route[0]], y(route[0]) - NODE_HEIGHT / 2)]
        points += [(plan.x[bend], y(bend)) for bend in route[1:-1]]
        points.append((plan.x[route[-1]], y(route[-1]) + NODE_HEIGHT / 2 + 1))
        parts.append(
            f'<path class="edge" data-low={quoteattr(str(route[0]))} data-high={quoteattr(str(route[-1]))} '
            f'd="{_curve(points)}" fill="none" stroke="#6b7280" stroke-width="1.2" marker-end="url(#arrow)"/>'
        )
    for node in lattice.nodes:
        parts.append(_box(node, plan.x[node], y(node), node in weak, "node"))
    x = float(MARGIN)
    for fill, dashed, text in legend:
        parts.append(_box(text, x + _width(text) / 2, legend_y + NODE_HEIGHT / 2, dashed, "legend", fill))
        x += _legend_width(text)
    return "\n".join([*parts, "</svg>"]) + "\n"


def _layer_heights(plan: Layout) -> list[float]:
    """y of each layer's centre, the top layer highest; wide fans get taller gaps to stay legible."""
    spans = [
        max((abs(plan.x[high] - plan.x[low]) for low in layer for high in plan.up[low]), default=0.0)
        for layer in plan.layers
    ]
    heights = [0.0] * len(plan.layers)
    for k in reversed(range(len(plan.layers))):
        above = k + 1 < len(plan.layers)
        heights[k] = heights[k + 1] + max(LAYER_GAP, FAN_SLOPE * spans[k]) if above else MARGIN + NODE_HEIGHT / 2
    return heights


def _curve(points: Sequence[tuple[float, float]]) -> str:
    """Cubic segments leaving and entering each point vertically: a smooth upward line."""
    (x0, y0), path = points[0], [f"M{points[0][0]:.1f},{points[0][1]:.1f}"]
    for x1, y1 in points[1:]:
        middle = (y0 + y1) / 2
        path.append(f"C{x0:.1f},{middle:.1f} {x1:.1f},{middle:.1f} {x1:.1f},{y1:.1f}")
        x0, y0 = x1, y1
    return " ".join(path)


def _box(label: str, cx: float, cy: float, dashed: bool, role: str, fill: str | None = None) -> str:
    w = _width(label)
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<g class="{role}"><rect x="{cx - w / 2:.1f}" y="{cy - NODE_HEIGHT / 2:.1f}" width="{w:.1f}" '
        f'height="{NODE_HEIGHT}" rx="7" fill="{fill or _fill(label)}" stroke="#374151" stroke-width="1.2"{dash}/>'
        f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" dominant-baseline="central" fill="#111827">'
        f"{escape(label)}</text></g>"
    )


def _legend_items(lattice: Lattice, weak: frozenset[str]) -> list[tuple[str, bool, str]]:
    """(fill, dashed, text) for each kind present, and for weak nodes if any."""
    kinds = {_kind(n) for n in lattice.nodes}
    items = [(fill, False, text) for kind, (fill, text) in KIND_STYLES.items() if kind in kinds]
    if None in kinds:
        items.append((OTHER_FILL, False, OTHER_LEGEND))
    return items + [(OTHER_FILL, True, WEAK_LEGEND)] if weak else items


def _legend_width(text: str) -> float:
    return _width(text) + NODE_GAP

"""Another module's top level runs only the statements the names read need
(``promolint.engine.walker.top_level``): which those are, and statements parsed from their own lines."""

from __future__ import annotations

import ast

from promolint.engine.walker.top_level import TopLevel

SOURCE = b"""\
import numpy as np
A = np.float32(1)
B = A + 1
A = np.float64(2)


@decorate(A)
def f(x=B):
    return C + x


C = 3
D = {}
D["k"] = np.int8(1)
E = [i for i in range(3)]
"""


def test_a_name_needs_its_statements_those_reading_it_before_its_last_and_what_they_read() -> None:
    top = TopLevel(SOURCE)
    assert top.needed("B") == (0, 1, 2, 3)  # B = A + 1 reads A before A is bound again
    assert top.needed("f") == (0, 1, 2, 3, 4)  # its decorator and default run, not its body
    assert top.needed("C") == (5,)
    assert top.needed("D") == (0, 6, 7)  # the item assigned changes D
    assert top.needed("E") == (8,)  # the comprehension's i stays inside it
    assert top.needed("i") == () and top.needed("len") == ()


def test_a_top_level_that_switches_modes_runs_whole() -> None:
    top = TopLevel(b'import jax\nX = 1\njax.config.update("jax_enable_x64", True)\nY = jax.numpy.ones(3)\n')
    assert top.needed("X") == (0, 1, 2, 3)
    tested = TopLevel(b"import jax\nif jax.config.x64_enabled:\n    Z = 1\nW = 2\n")
    assert tested.needed("W") == (0, 1, 2)


def test_statements_parsed_from_their_lines_are_the_module_tree_s() -> None:
    top = TopLevel(SOURCE)
    tree = ast.parse(SOURCE)
    for index, statement in enumerate(tree.body):
        assert ast.dump(top.statement(index), include_attributes=True) == ast.dump(statement, include_attributes=True)
    shared = TopLevel(b"a = 1; b = a\nc = b\n")  # two statements on one line: the tree is kept
    assert ast.dump(shared.statement(1), include_attributes=True) == \
        ast.dump(ast.parse(b"a = 1; b = a\n").body[1], include_attributes=True)  # fmt: skip

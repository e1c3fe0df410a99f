"""What the syntax tells rules about where an operation sits (``promolint.engine.walker.syntax``):
which functions a module's users call, which a function defines for its own use, which fields a
function sets itself, and which parameters' fields an expression reads."""

from __future__ import annotations

import ast
import textwrap

from promolint.engine.walker.source import parse_bytes
from promolint.engine.walker.syntax import AstSyntax

SOURCE = textwrap.dedent("""\
    import jax.numpy as jnp

    class Model:
        def __init__(self, adj, sparse):
            if sparse:
                self.adj = adj
            else:
                (self.adj, self.size) = (jnp.asarray(adj), 3)
            self.check = self.adj.sum() > 0

    def step(state, scale):
        total = state.x + 1
        def body(carry):
            return carry * 2
        shape = state.x.shape
        return total * scale, jnp.zeros(shape), (lambda v: v + 1)(scale)

    def _helper(x):
        return x
""")


def _syntax() -> tuple[AstSyntax, dict[str, ast.AST]]:
    source = parse_bytes(SOURCE.encode())
    found: dict[str, ast.AST] = {}
    for node in ast.walk(source.tree):
        if isinstance(node, ast.expr) and not isinstance(node, ast.Name | ast.Constant):
            found.setdefault(ast.unparse(node), node)
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            found.setdefault(getattr(node, "name", "lambda"), node)
    return AstSyntax(source, {}), found


def test_functions_defined_inside_another_are_nested_by_the_place_their_parameters_are_keyed_by() -> None:
    syntax, nodes = _syntax()
    body, lam = nodes["body"], nodes["lambda"]
    assert syntax.nested(body.lineno) and syntax.nested((lam.lineno, lam.col_offset))
    assert not syntax.nested(nodes["step"].lineno) and not syntax.nested(nodes["__init__"].lineno)


def test_a_function_assigns_the_fields_its_statements_set_unpacked_too() -> None:
    syntax, nodes = _syntax()
    inside_init = nodes["self.adj.sum() > 0"]
    tree = ast.dump(syntax._source.tree)
    assert syntax.assigns(inside_init, "self.adj")
    assert ast.dump(syntax._source.tree) == tree  # asking changes no statement: every later reader sees them
    assert syntax.assigns(inside_init, "self.adj") and syntax.assigns(inside_init, "self.size")
    assert not syntax.assigns(nodes["state.x + 1"], "self.adj") and not syntax.assigns(inside_init, "self.other")


def test_public_functions_and_reads_of_a_parameters_fields() -> None:
    syntax, nodes = _syntax()
    assert syntax.public(nodes["state.x + 1"]) and not syntax.public(nodes["_helper"].body[0].value)
    product = nodes["total * scale"]
    assert syntax.reads_fields_of(product, "state")  # through `total`, assigned from `state.x + 1`
    assert not syntax.reads_fields_of(nodes["jnp.zeros(shape)"], "state")  # a shape is no data of the field

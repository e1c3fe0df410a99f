"""What the ``ast`` walker reads from a node by itself (``promolint.engine.walker.nodes``): the
parameters ``jax.jit`` keeps static, a decorator's target, a function's named parameters and
their defaults, the names a target binds and the literals the engine follows."""

from __future__ import annotations

import ast

from promolint.engine.flow.functions import Param
from promolint.engine.walker.nodes import (decorator_target, dotted, free_names, index_elements, key_literal, literal,
                                           parameters, static_names, target_names)


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def _function(text: str) -> ast.FunctionDef:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_static_argnums_name_positional_parameters_and_static_argnames_name_any() -> None:
    jit = _expr("jax.jit(f, static_argnums=(0, 5), static_argnames='n')")
    assert static_names(jit, ["a", "b", "n"]) == {"a", "n"}  # position 5 is beyond the parameters


def test_a_single_static_argnum_and_a_list_of_names_are_read_alike() -> None:
    assert static_names(_expr("partial(jax.jit, static_argnums=1)"), ["x", "y"]) == {"y"}
    assert static_names(_expr("jax.jit(f, static_argnames=['x', 'y'])"), ["x", "y"]) == {"x", "y"}


def test_a_decorator_without_a_call_keeps_nothing_static() -> None:
    assert static_names(_expr("jax.jit"), ["x"]) == frozenset()


def test_a_partial_decorates_with_the_function_it_wraps() -> None:
    assert dotted(decorator_target(_expr("functools.partial(jax.jit, static_argnums=0)"))) == "jax.jit"
    assert dotted(decorator_target(_expr("jax.jit(donate_argnums=0)"))) == "jax.jit"
    assert dotted(decorator_target(_expr("jax.jit"))) == "jax.jit"


def test_parameters_are_the_named_ones_each_with_its_default() -> None:
    node = _function("def f(a, /, b=1, *args, c, d=2, **kwargs): pass")
    named = [(arg.arg, None if default is None else ast.literal_eval(default)) for arg, default in parameters(node)]
    assert named == [("a", None), ("b", 1), ("c", None), ("d", 2)]


def test_free_names_are_the_names_read_but_the_parameters() -> None:
    node = _function("def f(x):\n    y = x + scale\n    return helper(y)")
    params = [Param(arg.arg, arg, arg.annotation) for arg in node.args.args]
    assert free_names(node, params) == ("helper", "scale", "y")


def test_a_target_binds_the_names_of_its_tuple_and_list_parts() -> None:
    assert target_names(_expr("(a, [b, c])")) == ["a", "b", "c"]
    assert target_names(_expr("x.attr")) == []


def test_an_index_of_a_tuple_is_its_elements() -> None:
    assert len(index_elements(_expr("x[i, 1:2]").slice)) == 2
    assert len(index_elements(_expr("x[(i, j)]").slice)) == 2
    assert len(index_elements(_expr("x[i]").slice)) == 1


def test_literals_are_strings_and_bools_and_keys_are_strings_and_ints() -> None:
    assert literal(_expr("'jax_enable_x64'")) == "jax_enable_x64"
    assert literal(_expr("True")) is True
    assert literal(_expr("1")) is None
    assert key_literal(_expr("'w'")) == "w"
    assert key_literal(_expr("3")) == 3
    assert key_literal(_expr("1.5")) is None

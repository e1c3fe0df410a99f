"""The prefilter (``promolint.driver.prefilter``): from a file's bytes alone, whether it may have a
finding (it names a module NumPy or JAX values come from), whether it may switch x64, and whether
it parses with the target Python's grammar.  That skipping files changes no report is
tests/driver/test_cache.py's."""

from __future__ import annotations

import pytest

from promolint.driver.prefilter import may_have_findings, may_switch_x64, parses


@pytest.mark.parametrize("source", [
    b"import numpy as np\n",
    b"from jax import numpy as jnp\n",
    b"import jaxlib\n",
    b"from ml_dtypes import bfloat16\n",
    b"def f(x: 'jaxtyping.Float[Array, \"n\"]'): ...\n",
    b"import chex\n",
    b"np = __import__('numpy')\n",  # any mention counts: the prefilter never misses one
])  # fmt: skip
def test_a_file_that_names_an_array_module_may_have_findings(source) -> None:
    assert may_have_findings(source)


def test_a_file_that_names_no_array_module_has_nothing_to_analyze() -> None:
    assert not may_have_findings(b"import math\n\ndef add(a, b):\n    return a + b + 1000\n")


@pytest.mark.parametrize(("source", "switches"), [
    (b'jax.config.update("jax_enable_x64", True)\n', True),
    (b'os.environ["JAX_ENABLE_X64"] = "1"\n', True),
    (b"import jax.numpy as jnp\nx = jnp.ones(3)\n", False),
])  # fmt: skip
def test_only_a_file_naming_the_x64_switch_may_turn_it(source, switches) -> None:
    assert may_switch_x64(source) is switches


def test_a_file_parses_by_the_grammar_of_the_python_it_targets() -> None:
    match = b"match x:\n    case 1:\n        pass\n"
    assert parses(match) and parses(match, (3, 10))
    assert not parses(match, (3, 9))
    assert not parses(b"def f(:\n    pass\n")

import jax

from example_pkg.ops import DEFAULT_SCALE, OFFSETS


def shifted(x: jax.Array) -> jax.Array:
    # OFFSETS and DEFAULT_SCALE come from ops: the project pass reads them there
    return x - OFFSETS * DEFAULT_SCALE

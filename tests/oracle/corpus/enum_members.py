# An enumeration member's `.value` is the Python scalar its class body bound (craftax's
# `BlockType.STONE.value`); the member itself is no value the engine claims (an IntEnum member
# is weak to JAX but a strong int64 to NumPy).
import enum


class BlockType(enum.IntEnum):
    STONE = 1
    DIAMOND = 2


class Light(enum.Enum):
    DIM = 0.5


grid = jnp.zeros(4, jnp.int32)
a = BlockType.STONE.value
b = grid == BlockType.STONE.value
c = jax.lax.select(True, BlockType.DIAMOND.value, BlockType.STONE.value)
d = grid.at[0].set(BlockType.DIAMOND.value)
e = Light.DIM.value * jnp.ones(2, jnp.float32)
f = np.ones(2, np.uint8) * BlockType.DIAMOND.value
g = np.where(grid > 0, BlockType.STONE.value, -1)

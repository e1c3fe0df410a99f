# Minimized from evosax 0.3.2, evosax/learned_evolution/evotf_tools/shared.py (Apache-2.0):
# PositionalEncoding as the project wrote it, and a call of it on a float32 batch.
import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn


class PositionalEncoding(nn.Module):
    d_model: int
    max_len: int = 5000

    def setup(self):
        pe = np.zeros((self.max_len, self.d_model))
        position = np.arange(0, self.max_len, dtype=np.float32)[:, None]
        div_term = np.exp(
            np.arange(0, self.d_model, 2, dtype=np.float32)
            * -(np.log(10000.0) / self.d_model)
        )
        pe[:, 0::2] = np.sin(position * div_term)
        pe[:, 1::2] = np.cos(position * div_term)
        pe = pe[None]
        self.pe = jax.device_put(pe)

    def __call__(self, x: jax.Array) -> jax.Array:
        x = x + self.pe[:, : x.shape[1]]
        return x


encoding = PositionalEncoding(d_model=4, max_len=8)
encoded = encoding.apply({}, jnp.ones((1, 3, 4), jnp.float32))

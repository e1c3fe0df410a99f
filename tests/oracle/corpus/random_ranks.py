# jax.random draws have the dimensions of `shape` (default () for most, None for those that
# broadcast their parameters): lax.select refuses operands of different ranks, so a rank the
# engine gets wrong is a TypeError claim the real run contradicts (kinetix's
# `lax.select(c, jax.random.choice(key, jnp.array([3, 4])), 4)`).
x = jax.lax.select(True, jax.random.choice(key, jnp.array([3, 4])), 4)
y = jax.lax.select(jnp.ones(2, bool), jax.random.choice(key, jnp.array([3, 4]), (2,)), jnp.zeros(2, jnp.int32))
z = jax.lax.select(jnp.ones((2, 2), bool), jax.random.choice(key, 5, shape=(2, 2)), jnp.zeros((2, 2), jnp.int32))
# ---
x = jax.lax.select(jnp.ones(2, bool), jax.random.uniform(key, (2,)), jnp.zeros(2))
y = jax.lax.select(True, jax.random.normal(key), 1.0)
z = jax.lax.select(jnp.ones((2, 3), bool), jax.random.normal(key, (2, 3)), jnp.zeros((2, 3)))
w = jax.lax.select(jnp.ones(2, bool), jax.random.randint(key, (2,), 0, 3), jnp.zeros(2, jnp.int32))
# ---
x = jax.lax.select(jnp.ones(3, bool), jax.random.permutation(key, 3), jnp.zeros(3, jnp.int32))
y = jax.lax.select(jnp.ones(3, bool), jax.random.permutation(key, i32), jnp.zeros(3, jnp.int32))
z = jax.lax.select(jnp.ones(3, bool), jax.random.bernoulli(key, 0.5, (3,)), jnp.zeros(3, bool))
w = jax.lax.select(jnp.ones(3, bool), jax.random.bernoulli(key, f32), jnp.zeros(3, bool))
# ---
x = jax.lax.select(jnp.ones(3, bool), jax.random.gamma(key, f32), jnp.zeros(3))
y = jax.lax.select(jnp.ones((2, 3), bool), jax.random.dirichlet(key, f32, (2,)), jnp.zeros((2, 3)))
z = jax.lax.select(jnp.ones(3, bool), jax.random.dirichlet(key, f32), jnp.zeros(3))
w = jax.lax.select(True, jax.random.categorical(key, f32), 0)
v = jax.lax.select(jnp.ones(4, bool), jax.random.categorical(key, f32, shape=(4,)), jnp.zeros(4, jnp.int32))
u = jax.lax.select(jnp.ones(3, bool), jax.random.poisson(key, f32), jnp.zeros(3, jnp.int32))
t = jax.lax.select(jnp.ones(3, bool), jax.random.truncated_normal(key, -1.0, f32), jnp.zeros(3))
# ---
# ranks that do differ are still refused
x = jax.lax.select(True, jax.random.uniform(key, (2,)), 1.0)
y = jax.lax.select(jnp.ones(2, bool), jax.random.choice(key, jnp.array([3, 4])), jnp.zeros(2, jnp.int32))

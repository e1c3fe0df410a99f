# Random numbers: NumPy's legacy functions and jax.random.
x = np.random.rand(3)
y = np.random.randn(2, 2)
z = np.random.random(3)
w = np.random.random_sample(3)
# ---
x = np.random.normal(0, 1, 3)
y = np.random.uniform(0, 1, 3)
z = np.random.standard_normal(3)
w = np.random.exponential(1.0, 3)
# ---
x = np.random.gamma(2.0, 1.0, 3)
y = np.random.beta(1.0, 2.0, 3)
z = np.random.laplace(0.0, 1.0, 3)
w = np.random.lognormal(0.0, 1.0, 3)
# ---
x = np.random.randint(0, 10, 3)
y = np.random.randint(0, 10, 3, dtype=np.int8)
# ---
x = np.random.choice(a_f32)
y = np.random.choice(a_i8, 2)
# ---
noise = np.random.normal(size=3)
signal = a_f32 + noise
# ---
k = jax.random.PRNGKey(42)
# ---
x = jax.random.normal(key, (3,))
y = jax.random.uniform(key, (3,))
z = jax.random.normal(key, (3,), dtype=jnp.float16)
# ---
x = jax.random.gumbel(key, (2,))
y = jax.random.laplace(key, (2,))
z = jax.random.logistic(key, (2,))
w = jax.random.exponential(key, (2,))
v = jax.random.cauchy(key, (2,))
# ---
x = jax.random.truncated_normal(key, -1.0, 1.0, (3,))
y = jax.random.truncated_normal(key, -1.0, 1.0, (3,), dtype=jnp.bfloat16)
# ---
x = jax.random.randint(key, (3,), 0, 10)
y = jax.random.randint(key, (3,), 0, 10, dtype=jnp.uint8)
# ---
x = jax.random.bernoulli(key, 0.5, (3,))
# ---
x = jax.random.permutation(key, f32)
y = jax.random.permutation(key, i8)
# ---
k1, k2 = jax.random.split(key)
x = jax.random.normal(k1, (3,)) * 0.1
# ---
x = jax.random.uniform(key, (3,), minval=-1.0, maxval=1.0)
y = x * 2 + f16
# ---
eps = jax.random.normal(key, (3,))
sample = f32 + 0.5 * eps
# ---
k = jax.random.fold_in(key, 3)
x = jax.random.uniform(k, (2,))

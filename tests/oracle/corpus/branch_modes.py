# JAX's modes switched inside a branch: after the branch the code goes on in the mode it asked
# for (the run takes the branch).
# oracle: follow-code
if math.pi > 3:
    jax.config.update("jax_enable_x64", True)
y = f32 / np.sqrt(3.0)
y2 = jnp.arange(3)
# ---
# oracle: follow-code
if math.pi > 3:
    jax.config.update("jax_enable_x64", True)
else:
    jax.config.update("jax_enable_x64", True)
y = f32 / np.sqrt(3.0)
# ---
# oracle: follow-code
if math.pi < 3:
    pass
else:
    jax.config.update("jax_numpy_dtype_promotion", "strict")
y = i8 + 1.5
y2 = f32 + 1.0
# ---
# oracle: follow-code
for _ in range(2):
    jax.config.update("jax_enable_x64", True)
y = f32 * np.float64(2.0)

# A parameter annotated with a Python scalar type may hold a NumPy scalar or a JAX array (a
# tracer under jit): the body's claims must hold for those too.
# (Strict mode: some of these calls raise, and a claim is for the calls that run.)
# oracle: modes=x64off,x64on
def scale(x: float):
    return x * f16

y = scale(2.0)
y2 = scale(jnp.float32(2.0))
y3 = scale(np.float64(0.5))
# ---
# oracle: modes=x64off,x64on
def shift(n: int):
    return i8 + n, a_i8 + n

y = shift(3)
y2 = shift(np.int64(3))
y3 = shift(jnp.int32(3))
# ---
# oracle: modes=x64off,x64on
def jitted(x: float):
    return 2.0 ** x

y = jax.jit(jitted)(i32)
y2 = jitted(2)

# Lists built by comprehensions, repetition and concatenation, made arrays or joined: a list of
# unknown length may be empty (an empty list's array is of the default float).
rows = [jnp.sin(r) for r in m_f32]
y = jnp.stack(rows)
y2 = jnp.concatenate([jnp.abs(v) for v in (i8, i8)])
y3 = jnp.array([r * 2 for r in rows])
y4 = rows[0]
y5 = np.vstack([np.ones(2, np.float32) for _ in range(3)])
y6 = np.column_stack([a_i16 for _ in range(2)])
y7 = jnp.hstack([x.astype(jnp.int8) for x in (f32, f16)])
# ---
y = np.array([np.sqrt(m) for m in np.arange(1, 4)])
y2 = np.array([i for i in range(4)])
y3 = np.array([i for i in range(0)])
y4 = jnp.array([2.5 for _ in range(3)])
y5 = jnp.asarray([jnp.float16(1) for _ in range(0)])
y6 = np.asarray([[1.0, 2.0] for _ in range(2)], dtype=np.float32)
y7 = np.array([s_i8 for _ in range(2)])
y8 = jnp.array([[0, 1] for _ in range(3)])
# ---
# (items of several dtypes may be mixed: the array is not claimed; strict mode refuses the mix)
# oracle: modes=x64off,x64on
mixed = [x for x in (f32, i8)]
y = jnp.stack(mixed)
y2 = np.array([v for v in (a_f32, a_i16)])
# ---
y = np.array([np.inf] * 6)
y2 = np.array([-1] * 3)
y3 = jnp.array([0.5] * 2 + [1.5])
y4 = np.array((1.0,) + (2, 3))
y5 = jnp.asarray([1] * 0)
n = len(a_f32)
y6 = np.array([2.0] * n)
y7 = jnp.concatenate([f16] * n)
y8 = jnp.stack(2 * [i8, i8])
y9 = np.array([True] * 70)
# ---
def splits(x, n):
    return jnp.concatenate(jnp.split(x, n)), np.stack([np.asarray(x)] * n)

y = splits(f32, 3)
y2 = splits(a_i8, np.int64(1))
y3 = splits(jnp.ones(4, jnp.bfloat16), 2)
# ---
# (a list changed in place is no longer followed; an item assigned at a literal position is)
# oracle: modes=x64off,x64on
xs = [i8 for _ in range(2)]
xs.append(f32)
y = jnp.stack(xs)
zs = [0] * 3
zs[0] = 2.5
y2 = np.array(zs)
ws = [1]
ws.insert(0, 2.5)
y3 = np.array(ws)

# Operators on JAX arrays with Python scalars and with each other (facts A*, F*, I*, J*).
# A01
y = i8 + 1
# ---
# A03
y = i8 + 1.0
# ---
# A04
y = i8 + 1j
# ---
# A08
y = i32 + 1.5
# ---
# A11
y = bf16 + 1.0
# ---
# A17
y = b + 1
# ---
# A19
y = b + 1.0
# ---
# A20
y = f8e4 + 1.0
# ---
# A21
y = int4a + 1
# ---
# A23
y = i8 ** 2.0
# ---
# A27
wrapped = i8 + 1000
# ---
# A28
wrapped = u8 + (-1)
# ---
# A29
y = i32 + 2**31
# ---
# A30
y = i32 + 2**63
# ---
y = f32 + 2**40
# ---
y = u32 + (2**32 - 1)
# ---
scaled = f32 * 0.5 + 1
shifted = scaled - 3
# ---
half = f16 / 2
# ---
ratio = i32 / 2
# ---
ratio = i8 / i8
# ---
q = i32 // 2
r = i32 % 3
# ---
q = f32 // 2
r = f32 % 2.5
# ---
p = f32 ** 2
p2 = i8 ** 2
p3 = u8 ** 3
# ---
p = 2 ** i8
p2 = 2.0 ** f16
# ---
p = i8 ** i16
# ---
neg = -i8
pos = +f16
inv = ~u8
notb = ~b
# ---
mask = b & (i8 > 0)
either = b | b
flip = b ^ True
# ---
bits = i8 & 3
bits2 = u8 | u16
bits3 = i32 ^ i16
# ---
sh = i32 << 2
sh2 = u8 >> 1
sh3 = i8 << i8
# ---
y = i8 + i16
# ---
y = i8 + u8
# ---
y = u8 + u16
# ---
y = i16 + f16
# ---
# J01
y = bf16 + f16
# ---
y = bf16 + f32
# ---
y = f16 + f32
# ---
y = f32 + f64
# ---
y = f32 + c64
# ---
y = f64 + c64
# ---
# J02
y = f8e4 + f32
# ---
# J04
y = f8e4 + bf16
# ---
# J06
y = int4a + i8
# ---
y = f8e4 + f8e5
# ---
# J12
y = u64 + i64
# ---
# J13
y = u32 + i32
# ---
# J14
y = u32 + i8
# ---
# J32
y = i8 + f8e4
# ---
# J33
y = i32 + f8e4
# ---
# J34
y = b + f8e4
# ---
# J35
y = int4a + f8e4
# ---
y = int4a + b
# ---
y = f8e4 + 1j
# ---
y = int4a + 1.0
# ---
y = b + b
# ---
y = b * i8
# ---
y = c64 * 2
z = c64 * 1.5
w = c64 + 1j
# ---
y = f32 * 1j
# ---
# F01
lt = jnp.arange(3) < 1.5
# ---
# F02
eq = i8 == 1000
# ---
cmp = f32 < f32
cmp2 = f16 >= f32
cmp3 = i8 != 2
# ---
cmp = (jnp.arange(3) < 1.5) + 1
# ---
cmp = jnp.ones(3) < jnp.asarray(1.0)
# ---
cmp = i8 < 1.5
# ---
cmp = b == True
# ---
# I01
prod = m_i8 @ m_f16
# ---
# I03
prod = m_bf16 @ m_f16
# ---
prod = m_f32 @ m_f32
prod2 = m_f32 @ m_f16
# ---
x = jnp.arange(6)
y = x * x + 2 * x - 1
# ---
x = jnp.linspace(0.0, 1.0, 5)
y = (x - 0.5) ** 2 / 0.1
# ---
t = jnp.arange(10)
frac = t / t.size
# ---
counts = jnp.arange(4)
probs = counts / counts.sum()
# ---
z = jnp.asarray(3) * jnp.asarray(2.0)
# ---
z = jnp.asarray(3) + 1
z2 = jnp.asarray(3.0) + 1
z3 = jnp.asarray(True) + 1
# ---
y = 1 + i8 * 2 - 3
# ---
y = 1.0 - f16
y2 = 2 / f16
y3 = 3 % i8
# ---
y = i8 - 1.0 * 2
# ---
acc = f32 + f32 * f32 - f32 / f32

# math and builtins: Python scalars in, Python scalars out.
y = math.sqrt(2)
y2 = math.exp(1.0)
y3 = math.log(10)
y4 = math.log2(8)
# ---
y = math.log10(100)
y2 = math.sin(0.5)
y3 = math.cos(0)
y4 = math.tan(1.0)
# ---
y = math.tanh(0.1)
y2 = math.atan2(1, 2)
y3 = math.hypot(3, 4)
y4 = math.pow(2, 10)
# ---
y = math.fabs(-2)
y2 = math.erf(0.5)
y3 = math.gamma(4.5)
y4 = math.lgamma(3.0)
# ---
y = math.expm1(1e-5)
y2 = math.log1p(1e-5)
y3 = math.radians(180)
y4 = math.degrees(math.pi)
# ---
y = math.floor(2.5)
y2 = math.ceil(2.5)
y3 = math.trunc(-2.5)
y4 = math.factorial(5)
# ---
y = math.gcd(12, 18)
y2 = math.comb(5, 2)
y3 = math.perm(5, 2)
y4 = math.isqrt(17)
# ---
y = float(3)
y2 = int(2.7)
y3 = complex(1, 2)
y4 = bool(0)
# ---
y = len([1, 2, 3])
y2 = abs(-3)
y3 = abs(-2.5)
y4 = abs(3 + 4j)
# ---
y = float(f32[0])
y2 = int(i8[0])
y3 = float(a_f16[0])
# ---
y = abs(f32)
y2 = abs(a_i8)
y3 = abs(s_f16)
# ---
scale = math.sqrt(f32.shape[0])
y = f32 / scale
# ---
n = len(a64)
mean = a64.sum() / n
# ---
y = f16 * math.pi
y2 = a_f32 * math.e
# ---
y = int(True) + 1
y2 = float("1.5") * 2
# ---
y = bool(f32[0] > 0)
# ---
# min() and max() give back one of their arguments, unchanged.
y = min(3, 4)
y2 = max(np.float32(1), np.float32(2))
y3 = max([np.int8(1), np.int8(2)])
y4 = min(f16[0], f16[1])
# ---
y = min(3, 2.5)
y2 = max(a_f32[0], a_f32[1], key=abs)
y3 = min(len(a64), a64.shape[0] - 1)
y4 = np.arange(max(2, len(a64) - 1))
# ---
y = round(2.5)
y2 = round(2.5, 1)
y3 = round(3, 1)
y4 = round(np.float32(2.5))
# ---
y = round(np.float32(2.5), 1)
y2 = round(jnp.float32(2.5))
y3 = round(jnp.float32(2.5), 1)
y4 = round(jnp.array([1.5]))
# ---
y = round(np.array([1.5]))
# ---
y = round(jnp.array(True))
# ---
# range() of a float raises TypeError; of ints, Python ints.
y = range(3.0)
# ---
y = range(jnp.float32(3))
# ---
y = range(np.float32(3))
# ---
y = list(range(jnp.int32(3)))[0]
y2 = list(range(1, 4, 2))[0]
# ---
y = round(np.int32(3), 1)
y2 = round(True, 1)

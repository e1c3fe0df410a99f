# NumPy on its own (NEP 50): scalars, arrays, Python literals, and plain Python arithmetic.
y = np.int32(1) + np.float32(1)
# ---
y = a_i32 + a_f32
# ---
y = np.int16(1) + np.float32(1)
# ---
y = a_i8 + a_f16
y2 = a_i16 + a_f16
# ---
z = np.zeros(3)
n = np.arange(5)
d = np.arange(5) / 2
# ---
y = a_i8 + 1
y2 = np.int8(1) + 1
# ---
y = a_i8 + 1.0
y2 = np.int8(1) + 1.0
# ---
y = a_f16 + 1.0
y2 = np.float16(1) + 1.0
y3 = np.float16(1) + 1
# ---
y = np.float16(1) + 1j
# ---
y = a_f32 + 1
y2 = np.float32(1) + 1.0
y3 = a_f32 * 1j
# ---
y = np.int8(1) + np.uint8(1) + np.float16(1)
# ---
y = np.int8(1) + (np.uint8(1) + np.float16(1))
# ---
y = np.uint64(1) + np.int64(1)
y2 = a_u64 + a_i64
# ---
y = np.int32(1) + np.uint32(1)
# ---
y = a_i8 + 1000
# ---
y = np.int8(1) + 1000
# ---
y = a_u8 + (-1)
# ---
y = np.int8(127) + np.int8(1)
# ---
eq = a_i8 == 1000
# ---
y = np.True_ + 1
y2 = a_b + 1
y3 = np.True_ + True
y4 = a_b + 1.0
# ---
y = a_f32 + np.float64(1)
y2 = a_f32 + np.array(1.0)
y3 = a_f32 + np.float16(1)
# ---
y = a_bf16 + a_f16
# ---
y = a_bf16 + 1.0
# ---
y = a64 * 2
y2 = 2 * a64
y3 = a64 / 3
y4 = a64 // 2
y5 = a64 % 2
y6 = a64 ** 2
# ---
y = a_i32 // 2
y2 = a_i32 / 2
y3 = a_i32 ** 2
y4 = a_i32 % 5
# ---
y = a_u8 << 2
y2 = a_i16 >> 1
y3 = a_i32 & 7
y4 = a_b | a_b
# ---
y = -a_i8
y2 = ~a_u8
y3 = +a_f16
y4 = ~a_b
# ---
cmp = a64 > 0.5
cmp2 = a_i8 <= 2
cmp3 = s_f32 == 1.0
# ---
y = a_m @ a_m
# ---
y = s_i8 * s_i16
y2 = s_u8 - s_i8
# ---
y = s_f16 * s_f32
y2 = s_f16 + 1.0
# ---
y = s_f32 + s_c64
# ---
y = s_b & s_b
y2 = s_b + s_b
# ---
y = z_f64 + 1
y2 = z_f64 * a_f32
# ---
y = z_i32 + z_f64
# ---
y = z_i32 + a_i8
# ---
y = s_f64 + 1j
# ---
y = 1j + s_f64
# ---
y = 2.5 * s_f32
y2 = 3 + s_i8
y3 = True + s_u8
# ---
x = 3
y = 2.5
z = x * y + 1
w = x // 2
v = x / 2
# ---
c = 1 + 2j
d = c * 2.0
e = abs(c)
# ---
flag = True
n = flag + 1
m = flag & False
# ---
big = 2 ** 70
small = big // 3
# ---
x = 7 % 3
y = 7.0 % 3
z = -x
# ---
import numpy
t = numpy.float32(2) * numpy.ones(3, numpy.float16)
# ---
from numpy import float32, ones, zeros
a = ones(3, float32) + zeros(3)
# ---
import numpy as onp
y = onp.int16(3) + onp.arange(3, dtype=onp.int8)

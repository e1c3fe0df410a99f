# tuple() and list() keep the items they are given: names unpacked from tuple(range(n)) are
# Python ints, weak wherever they meet arrays (pgx's `EMPTY, PAWN, ... = tuple(range(7))`).
EMPTY, PAWN, KNIGHT = tuple(range(3))
y = EMPTY + a_i8
y2 = jnp.int32(PAWN) * KNIGHT
y3 = f32 - KNIGHT
# ---
first, second = list((1.5, 2))
y = first * bf16
y2 = second + a_u8
y3 = list(range(4))[1] * s_f16
# ---
for p, g in zip([f32, f16], (f32, f16)):
    new = p - 0.1 * g
# ---
for k, row in enumerate(m_i8):
    shifted = row + k
# ---
pairs = list(zip(range(3), a_i8))
first, second = pairs[0]

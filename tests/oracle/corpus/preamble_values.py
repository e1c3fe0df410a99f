# The preamble's own values, as every snippet sees them.
b, i8, i16, i32, i64, u8, u16, u32, u64
# ---
f16, bf16, f32, f64, c64, c128, f8e4, f8e5, int4a
# ---
m_f32, m_f16, m_i8, m_bf16, key
# ---
a_b, a_i8, a_i16, a_i32, a_i64, a_u8, a_u32, a_u64, a_f16, a_f32, a64, a_c64, a_c128, a_bf16, a_m
# ---
s_b, s_i8, s_i16, s_i32, s_i64, s_u8, s_u64, s_f16, s_f32, s_f64, s_c64, z_f64, z_i32

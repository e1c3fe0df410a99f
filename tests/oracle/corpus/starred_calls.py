# A `*args` in a call may fill every position from there: no parameter after it is omitted, so
# no default decides (a legacy np.random draw of `*shape` is one Python float only for `()`).
def draw(*shape):
    return np.random.randn(*shape)

y = draw()
y2 = draw(2, 3)
y3 = np.random.randn(*(3,)) * f32
# ---
def scaled(x, factor=0.5):
    return x * factor

args = (a_f16, np.float32(2))
y = scaled(*args)
y2 = scaled(a_f16)
# ---
y = np.maximum(*[np.ones(2, np.float32), np.ones(2, np.float32)])

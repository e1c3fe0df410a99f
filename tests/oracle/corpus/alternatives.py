# One of several functions, which one known only when the code runs: a conditional choice, a
# dict of functions indexed by a key that is no literal, a module chosen at run time.
op = jnp.greater_equal if f32[0] > 0 else jnp.less_equal
y = op(i32, i8)
y2 = op(f16, 1.0)
# ---
def cumsum_weights(x, reverse):
    i = jnp.arange(x.shape[0])[:, None]
    j = jnp.arange(x.shape[0])[None, :]
    op = jnp.greater_equal if reverse else jnp.less_equal
    return op(i, j).astype(x.dtype)


y = cumsum_weights(f16, True)
y2 = cumsum_weights(bf16, False)
# ---
def halve(x):
    return x / 2


def square(x):
    return x * x


TABLE = {"halve": halve, "square": square}


def apply(name, x):
    fn = TABLE.get(name)
    if fn is None:
        raise KeyError(name)
    return fn(x)


y = apply("halve", f16)
y2 = apply("square", f16)
# ---
def transform(name, x):
    fn = {"halve": halve, "square": square}.get(name)
    if fn is not None:
        return fn(x)
    return x


def halve(x):
    return x * 0.5


def square(x):
    return x * x


y = transform("halve", bf16)
# ---
reduce = jnp.max if f32[0] > 0 else jnp.min
y = reduce(i8)
xp = jnp if f32[0] > 0 else np
y2 = xp.sqrt(f32)
y3 = (np.maximum if f32[0] > 0 else jnp.maximum)(s_f32, s_f32)
# ---
# A branch that ends in `raise` or `return` does not reach the code after the `if`; a `try`'s
# handler may start where it raised.
def guarded(x, narrow):
    if narrow:
        x = x.astype(jnp.float16)
        return x
    return x * 2


def handled(x, narrow):
    y = x
    try:
        if narrow:
            y = x.astype(jnp.float16)
            raise ValueError("narrowed")
        y = y * 2
    except ValueError:
        return y
    return y


y = guarded(f32, False)
y2 = handled(f32, True)
y3 = handled(f32, False)

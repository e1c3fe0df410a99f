# jax.scipy.special and logsumexp: elementwise float functions, promoted as jnp.sqrt and
# jnp.arctan2 are (weak for weak inputs); the real ones refuse complex values.
from jax.scipy.special import betaln, digamma, entr, erf, erfc, erfinv, expit, gammainc, gammaincc, gammaln, i0e
from jax.scipy.special import i1e, logit, logsumexp, xlog1py, xlogy

wk = jnp.asarray(2.0)
x = gammaln(f32)
y = gammaln(i32)
z = gammaln(b)
w = gammaln(2.0)
v = gammaln(wk)
u = gammaln(f64)
t = digamma(i8)
s = erf(f16)
r = erfc(bf16)
q = erfinv(f32)
p = i0e(3)
o = i1e(f64)
# ---
from jax.scipy.special import betaln, digamma, entr, erf, erfc, erfinv, expit, gammainc, gammaincc, gammaln, i0e
from jax.scipy.special import i1e, logit, logsumexp, xlog1py, xlogy

wk = jnp.asarray(2.0)
x = expit(f32)
y = expit(i32)
z = logit(b)
w = logit(0.5)
v = expit(wk)
u = expit(c64)
t = entr(f64)
s = entr(i8)
r = expit(a_f32)
# ---
from jax.scipy.special import betaln, digamma, entr, erf, erfc, erfinv, expit, gammainc, gammaincc, gammaln, i0e
from jax.scipy.special import i1e, logit, logsumexp, xlog1py, xlogy

wk = jnp.asarray(2.0)
x = xlogy(f32, f32)
y = xlogy(i32, 2.0)
z = xlog1py(b, f16)
w = betaln(2.0, 3.0)
v = betaln(wk, f32)
u = gammainc(f64, 2.0)
t = gammaincc(i8, i8)
s = xlogy(f64, f32)
r = xlogy(c64, f32)
# ---
from jax.scipy.special import betaln, digamma, entr, erf, erfc, erfinv, expit, gammainc, gammaincc, gammaln, i0e
from jax.scipy.special import i1e, logit, logsumexp, xlog1py, xlogy

x = gammaln(c64)
# ---
from jax.scipy.special import betaln, digamma, entr, erf, erfc, erfinv, expit, gammainc, gammaincc, gammaln, i0e
from jax.scipy.special import i1e, logit, logsumexp, xlog1py, xlogy

x = entr(c64)
# ---
from jax.scipy.special import betaln, digamma, entr, erf, erfc, erfinv, expit, gammainc, gammaincc, gammaln, i0e
from jax.scipy.special import i1e, logit, logsumexp, xlog1py, xlogy

wk = jnp.asarray(2.0)
x = logsumexp(f32)
y = logsumexp(i32, axis=0)
z = logsumexp(b)
w = logsumexp(2.0)
v = logsumexp(wk)
u = logsumexp(f64)
t = logsumexp(c64)
s = jax.nn.logsumexp(f16)
r = jax.nn.logsumexp(m_f32, axis=1)
q = x - logsumexp(f32)

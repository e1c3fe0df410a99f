"""PRM001 implicit-x64: a 64-bit value nobody asked for that widens narrower data, reported at
its source with the places where it widens.

The rule is here; ``leaks`` finds where sources widen data, ``contained`` the leaks the code keeps
to itself, ``raising`` where they make JAX raise, ``messages`` words the findings and
``python_scalars`` is the fix."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.engine.model import Module, Operation
from promolint.rules.base import Example, Finding, Related, Rule
from promolint.rules.implicit_x64.contained import cast_back, stays_on_host
from promolint.rules.implicit_x64.leaks import Leak, returned_leaks, widening_at
from promolint.rules.implicit_x64.messages import advice, narrow_example, raises_text, returns_text, short, widens_text
from promolint.rules.implicit_x64.python_scalars import python_scalars_fix
from promolint.rules.implicit_x64.raising import raising_operation

_RELATED = 8  # places listed per source


class ImplicitX64(Rule):
    summary = (
        "Flags 64-bit values nobody asked for that widen narrower data. A NumPy float64 default, a "
        "strong NumPy scalar such as `np.log(2)`, a Python float meeting x64's int64, or NumPy's "
        "int32 with float32 is reported where it meets strong float32 (or narrower) operands and "
        "gives a 64-bit result, or leaves a function while the function's array inputs were "
        "narrower: at its source, with each place it widens as a related location. A parameter of "
        "unknown dtype counts as narrower data where, whatever narrower float it holds, the result is "
        "64-bit (in modules that use JAX)."
    )
    why = """
        64-bit arithmetic is slow on GPUs and unsupported on TPUs. NumPy promotes mixed-kind operands
        to 64 bits, and with `jax_enable_x64` a float64 value leaking into JAX code (a NumPy default,
        `np.sqrt(n)`, a strong float64 built from a Python float and `jnp.arange`) silently turns
        float32 models into float64 ones: twice the memory, a fraction of the speed, and no error
        anywhere. An explicit `dtype=np.float32` does not protect an array from a strong NumPy
        scalar: `np.arange(n, dtype=np.float32) * np.log(2.0)` is float64 under NumPy 2. Weak
        64-bit values (`jnp.arange(n) - 0.5` under x64) adopt the dtype of the strong operand they
        meet and widen nothing, as do int64 counts and indices meeting int32 ones (their values
        stay exact; where they turn float data 64-bit, that is reported); values that stay on the
        host (NumPy counts, sizes, in-place updates, which keep their target's dtype) are not
        reported either. A function's parameters have no dtype in the code, but the function is
        called with float32 data somewhere: `x / np.sqrt(n)` is reported where it is float64 for
        every narrower float `x` (and, for an operation on many parameters, when they all hold
        float32, bfloat16 or float16 alike); a parameter annotated `float` is taken at its word.
    """
    fix_safety = """
        The fix depends on intent: write the Python scalar (`math.sqrt(n)`, `float(c)`), give the
        NumPy array a dtype (`np.ones(3, np.float32)`), or cast explicitly (`.astype(jnp.float32)`).
        `promolint check --fix --unsafe-fixes` rewrites a strong NumPy scalar computed from a Python
        number to the Python scalar of the same value (`np.sqrt(n)` to `math.sqrt(n)`, adding
        `import math`; `np.float64(c)` to `float(c)`; `np.float64(0.5)` to `0.5`) when every place
        it widens then keeps its narrower dtype. It does so only where the engine knows the
        argument is a Python int or float, so the value is the same. The fix is unsafe: it changes
        the dtype of what it fixes (float64 becomes float32 under x64), which is its purpose but a
        change of behaviour all the same (and `math` raises ValueError where NumPy returns nan,
        e.g. the square root of a negative number).
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="on", expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            import math
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / math.sqrt(10)
        """),
        Example("""
            import numpy as np
            a = np.ones(3, np.int32) + np.ones(3, np.float32)
        """),
        Example("""
            import numpy as np
            def frequencies(n, d):
                return np.arange(n, dtype=np.float32) * -(np.log(10000.0) / d)
            table = frequencies(16, 64)
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            m = jnp.mean(np.ones(30)) + jnp.ones(3, jnp.float32)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            def damped(x):
                half = jnp.power(0.5, jnp.arange(x.shape[0]))
                return half * x
            y = damped(jnp.ones(3, jnp.float32))
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def scale(x, c):
                return x * np.float64(c)
            x = jnp.ones(3, jnp.float32)
            y = scale(x, x.shape[0] / 2)
        """, x64="on", expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            def scale(x, c):
                return x * float(c)
            x = jnp.ones(3, jnp.float32)
            y = scale(x, x.shape[0] / 2)
        """),
        # x64's int64 made float: the log of a range is a strong float64 whatever x is, and its
        # shape's elements are Python ints (numpyro's StickBreakingTransform).
        Example("""
            import jax.numpy as jnp
            def balanced(x):
                return x - jnp.log(x.shape[-1] - jnp.arange(x.shape[-1]))
        """, x64="on"),
        # A parameter of unknown dtype: a float32 one becomes float64 (netket's PR 1218), a
        # float64 one stays; the finding holds for every narrower dtype the parameter may have.
        Example("""
            import jax
            import numpy as np
            @jax.jit
            def normalized(x):
                return x / np.sqrt(x.shape[-1])
        """, x64="on"),
        # A field of the method's object that nothing in the module types (tinygp's Matern52,
        # made by its users): `self.scale` may be float32 data, which `np.sqrt(5)` widens.
        Example("""
            import equinox as eqx
            import jax
            import numpy as np
            class Matern52(eqx.Module):
                scale: jax.Array | float
                def design_matrix(self):
                    return np.sqrt(5) / self.scale
        """, x64="on"),
        # The same shift returned as it is: callers of float32 data get float64.
        Example("""
            import jax.numpy as jnp
            def shifted(f, sx):
                c = jnp.fft.ifft(f, axis=0)
                phase = jnp.exp(-1j * 2 * jnp.pi * jnp.fft.fftfreq(c.shape[0])[:, None] * sx)
                return jnp.fft.fft(c[None].T * phase, axis=0).real
        """, x64="on"),
    )
    valid = (
        # biotite's rotation matrix: NumPy's `dtype=float` is float64 by definition, asked for.
        Example("""
            import numpy as np
            def rotation(v, c):
                v = np.asarray(v, dtype=np.float32)
                c = np.asarray(c, dtype=np.float32)
                m = np.array([[0, -v[0]], [v[1], 0]], dtype=float)
                return m / (1 + c)
        """),
        # jax-cosmo's search range: jnp.log of a Python float is weak, and a weak value never
        # decides a strong result's width; linspace's float64 is JAX's default under x64, asked for.
        Example("""
            import jax.numpy as np
            logr = np.linspace(np.log(1e-4), np.log(1e1), 256)
            def spread(k):
                return np.outer(np.exp(k), np.exp(logr))
        """, x64="on"),
        # A field annotated `int` holds a count, never float data to widen (evosax's positional
        # encoding): the float64 is asked for by the NumPy scalar alone.
        Example("""
            import flax.linen as nn
            import jax
            import numpy as np
            class PositionalEncoding(nn.Module):
                d_model: int
                def setup(self):
                    self.scale = np.log(10000.0) / self.d_model
        """, x64="on"),
        # uint32 with int32 is int64 under x64: PRM020 (mixed signedness) reports it.
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.uint32) + jnp.ones(3, jnp.int32)
        """, x64="on"),
        # A module that never imports JAX: its parameters hold NumPy data, float64 by default.
        Example("""
            import numpy as np
            def centred(x):
                return x - np.zeros(3)
        """, x64="on"),
        # The 64 bits come from JAX's float64 default under x64, which the code asked for; the
        # clip of the product keeps them and makes none (brax's fluid force).
        Example("""
            import jax.numpy as jnp
            def box(inertia, mass):
                diagonal = jnp.diag(inertia)
                diagonal *= jnp.ones((3, 3)) - 2 * jnp.eye(3)
                return jnp.clip(jnp.sum(diagonal, axis=-1), 1e-12) / mass
        """, x64="on"),
        # With x64 off, JAX takes the NumPy scalar as float32: only NumPy data would widen.
        Example("""
            import numpy as np
            def shift(x):
                return x + np.float64(1)
        """, x64="off"),
        Example("""
            import math
            import jax.numpy as jnp
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / math.sqrt(10)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="off"),
        # A weak 64-bit intermediate takes the dtype of the strong operand it meets.
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.float32)
            offsets = jnp.arange(3) - 0.5
            y = x * offsets
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            count = jnp.zeros([], jnp.int32)
            step = count + 1.0
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            counts = jnp.sum(jnp.ones(3, bool))
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.float64) * jnp.float64(0.5)
        """, x64="on"),
        Example("""
            import numpy as np
            a = np.ones(3, np.float64) * np.ones(3, np.float32)
        """),
        # A float64 table filled slice by slice on the host: the NumPy 2 widening of the float32
        # ranges by `np.log` changes nothing the table keeps (evosax's positional encoding).
        Example("""
            import jax
            import numpy as np
            table = np.zeros((8, 4))
            position = np.arange(0, 8, dtype=np.float32)[:, None]
            scale = np.exp(np.arange(0, 4, 2, dtype=np.float32) * -(np.log(10000.0) / 4))
            table[:, 0::2] = np.sin(position * scale)
        """, x64="on"),
        # NumPy counts stay on the host; an in-place update keeps its target's dtype.
        Example("""
            import numpy as np
            mask = np.ones(5, bool)
            count = np.sum(mask)
            fraction = count / 5
            image = np.zeros(5, np.float32)
            image += 0.001 * mask
        """),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            table = jnp.asarray(np.asarray([1.0, 2.0], dtype=np.float64))
            y = table * jnp.ones(2, jnp.float32)
        """, x64="on"),
        # jnp.where's condition is no operand of the promotion: an int64 table selected by a mask
        # widens no mask (jumanji's cleaner moves).
        Example("""
            import jax.numpy as jnp
            MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
            def moves(valid, action):
                return jnp.where(valid[:, None], MOVES[action], 0)
        """, x64="on"),
        # The complex128 shift stays inside: the function returns its result cast back to the
        # data's dtype (interpax's FFT interpolation), so no caller sees 64 bits.
        Example("""
            import jax.numpy as jnp
            def shifted(f, sx):
                c = jnp.fft.ifft(f, axis=0)
                phase = jnp.exp(-1j * 2 * jnp.pi * jnp.fft.fftfreq(c.shape[0])[:, None] * sx)
                out = jnp.fft.fft(c[None].T * phase, axis=0)
                return out.real.astype(f.dtype)
        """, x64="on"),
        # Integers widened by integers keep their values: an int32 action moved by an int64 offset
        # only indexes (gymnax's FrozenLake).
        Example("""
            import jax
            import jax.numpy as jnp
            def transition(key, action):
                action = jnp.asarray(action, dtype=jnp.int32)
                offset = jax.random.choice(key, jnp.array((-1, 1)))
                return (action + offset) % 4
        """, x64="on"),
        # A parameter annotated `float` is taken at its word: a Python float widens nothing
        # (jwave's circle geometry, turned into Python lists).
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def points_on_circle(n: int, radius: float, angle: float = 0.0):
                angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
                return (radius * np.cos(angles + angle)).tolist()
        """, x64="on"),
        # `isinstance(c, float)` makes `c` a Python float: weak, it widens nothing (evojax's PGPE
        # spreads its float64 standard deviations by design).
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def spread(n, init_stdev):
                if isinstance(init_stdev, float):
                    return jnp.array(np.ones(n) * abs(init_stdev))
                return jnp.array(init_stdev)
        """, x64="on"),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        return self.check_module(Module([operation]))

    def check_module(self, module: Module) -> Iterator[Finding]:
        syntax = next((op.syntax for op in module.operations if op.syntax is not None), None)
        if syntax is None:
            return
        leaks: dict[int, Leak] = {}  # by the source's handle: one finding per source
        for operation in module.operations:
            widened = widening_at(operation, module.uses_jax)
            if widened is not None:
                source, place = widened
                leaks.setdefault(id(source.handle), Leak(source)).widens.append(place)
        for returned in module.returns:
            for value in returned_leaks(returned):
                leaks.setdefault(id(value.source.handle), Leak(value.source)).returns.append((returned, value))
        for leak in leaks.values():
            # A source in another module's file is reported there (values arriving from it are
            # anchored where they arrive: promolint.engine.sources.anchored).
            if not leak.source.module and not stays_on_host(leak, module) and not cast_back(leak, module, syntax):
                yield self._finding(leak, syntax, raising_operation(leak, module, syntax))

    def _finding(self, leak: Leak, syntax, raising: Operation | None = None) -> Finding:
        source = leak.source
        text, line = short(syntax.text(source.handle)), syntax.line(source.handle)
        places = [(place.operation.node, widens_text(syntax, place)) for place in leak.widens
                  if place.operation.node is not source.handle]  # fmt: skip
        places += [(returned.node, returns_text(syntax, returned, value)) for returned, value in leak.returns]
        producer = syntax.operation_at(source.handle)
        raises = raises_text(syntax, raising) if raising is not None else ""
        if len(places) < len(leak.widens) + len(leak.returns):  # the 64 bits are made where they widen data
            message = f"`{text}` {source.what}, which no operand asked for"
            message += f"; it also {places[0][1]}" if places else ""
            message += f". {raises}" if raises else ""
            message += ". Give the operands one dtype, e.g. `.astype(np.float32)`."
        else:
            more = f" (and {len(places) - 1} more {'place' if len(places) == 2 else 'places'})" if len(places) > 1 else ""
            message = f"`{text}` {source.what}, which no operand asked for: from here it {places[0][1]}{more}. "
            message += f"{raises}. {advice(producer, narrow_example(leak), where_made=True)}" if raises else \
                advice(producer, narrow_example(leak))  # fmt: skip
        if raising is not None:
            places.append((raising.node, raises_text(syntax, raising)))
        related = tuple(Related(node, f"{place} (64 bits from `{text}`, line {line})") for node, place in places)
        return Finding(self.code, message, source.handle, python_scalars_fix(leak, syntax), related[:_RELATED])

"""A seeded generator of small NumPy/JAX programs that exercise dtype promotion.

``generate(seed)`` always gives the same program for the same seed.  A program is a few imports
and 3-8 top-level statements: assignments of expressions mixing Python scalars, NumPy scalars,
0-d and 1-d NumPy arrays and JAX arrays of every dtype, through operators, the catalog's
functions and array methods, ``astype``, chains, augmented assignments, a local function call
and a jitted lambda.  Programs are valid Python; they may raise, and promotion errors
(TypePromotionError, OverflowError, TypeError) are part of what is compared.

The generator tracks each value's shape (``()``, or ``(3,)``) so that programs are free of
shape errors, and whether it is a Python scalar (which has no array methods).  Everything else
(dtypes, libraries, weak flags) is left to the libraries and the engine to agree on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

HEADER = "import jax\nimport jax.numpy as jnp\nimport ml_dtypes\nimport numpy as np\n"

NUMPY_DTYPES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128")  # fmt: skip
JAX_DTYPES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "int4")  # fmt: skip
# Spellings of a dtype argument (astype, dtype=): module attributes, strings, builtins, ml_dtypes.
DTYPE_SPELLINGS = (
    *(f"np.{d}" for d in NUMPY_DTYPES), *(f"jnp.{d}" for d in JAX_DTYPES),
    "'float32'", "'int8'", "'uint16'", "'float16'", "'complex64'", "float", "int", "bool", "complex",
    "ml_dtypes.bfloat16",
)  # fmt: skip
INT_LITERALS = ("1", "2", "3", "7", "100", "300", "1000", "-1", "2**31", "2**40")
FLOAT_LITERALS = ("1.5", "0.5", "2.0", "-3.25", "1e3")
COMPLEX_LITERALS = ("1j", "(2+1j)")
ARITHMETIC = ("+", "-", "*", "/", "//", "%", "**")
BITWISE = ("&", "|", "^", "<<", ">>")
COMPARISONS = ("<", "<=", "==", "!=", ">", ">=")
UNARY_FUNCTIONS = ("sqrt", "exp", "log1p", "sin", "tanh", "abs", "absolute", "negative", "square", "sign", "floor",
                   "ceil", "rint", "isnan", "isfinite", "signbit", "logical_not", "conj", "cbrt", "deg2rad")  # fmt: skip
BINARY_FUNCTIONS = ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "maximum",
                    "minimum", "fmax", "arctan2", "hypot", "logaddexp", "copysign", "equal", "less",
                    "logical_and", "bitwise_and", "remainder")  # fmt: skip
REDUCTIONS = ("sum", "prod", "mean", "var", "std", "max", "min", "argmax", "argmin", "any", "all")
SAME_SHAPE_METHODS = ("cumsum", "cumprod", "ravel", "copy", "round", "conj", "reshape(-1)", "reshape(3)",
                      "transpose()", "T")  # fmt: skip
JAX_NN = ("relu", "sigmoid", "gelu", "softplus", "silu", "relu6", "elu")

Shape = tuple[int, ...]


@dataclass
class Value:
    """A generated expression: its source, its shape, and whether it is a Python scalar."""

    text: str
    shape: Shape
    python: bool = False


@dataclass
class Program:
    seed: int
    statements: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return render(self.statements)


def render(statements: list[str]) -> str:
    return HEADER + "".join(s if s.endswith("\n") else s + "\n" for s in statements)


class _Generator:
    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.variables: list[Value] = []  # Value.text is the name
        self.functions = 0

    def chance(self, p: float) -> bool:
        return self.random.random() < p

    def pick(self, options):
        return self.random.choice(options)

    # --- leaves -------------------------------------------------------------------------
    def leaf(self, shape: Shape) -> Value:
        names = [v for v in self.variables if v.shape == shape]
        if names and self.chance(0.35):
            return self.pick(names)
        if shape == ():
            return self.scalar_leaf()
        return self.array_leaf()

    def scalar_leaf(self) -> Value:
        kind = self.random.random()
        if kind < 0.35:  # Python scalars
            literal = self.pick((*INT_LITERALS[:7], *INT_LITERALS, *FLOAT_LITERALS, *COMPLEX_LITERALS, "True"))
            return Value(f"({literal})" if literal.startswith("-") or "**" in literal else literal, (), python=True)
        if kind < 0.6:
            dtype = self.pick(NUMPY_DTYPES)
            return Value(f"np.{dtype}({self.pick(('1', '2', '3', '1.5'))})" if dtype != "bool_" else "np.bool_(True)", ())
        if kind < 0.72:
            return Value(self.pick(("np.array(1.0)", "np.array(2)", "np.array(1.5, np.float32)",
                                    "np.array(3, np.int8)", "np.array(True)")), ())  # fmt: skip
        if kind < 0.85:
            return Value(self.pick(("jnp.asarray(2.0)", "jnp.asarray(3)", "jnp.array(1.5)", "jnp.asarray(True)")), ())
        dtype = self.pick(JAX_DTYPES[:-2])
        return Value(f"jnp.{dtype}({'True' if dtype == 'bool_' else '2'})", ())

    def array_leaf(self) -> Value:
        if self.chance(0.45):
            dtype = self.pick(NUMPY_DTYPES)
            form = self.pick((f"np.ones(3, np.{dtype})", f"np.array([1, 2, 3], np.{dtype})",
                              f"np.arange(3, dtype=np.{dtype})", "np.zeros(3)", "np.arange(3)",
                              "np.linspace(0, 1, 3)", "np.array([1.5, 2.5, 3.5])",
                              "np.array([True, False, True])", "np.ones(3, ml_dtypes.bfloat16)"))  # fmt: skip
        else:
            dtype = self.pick(JAX_DTYPES)
            form = self.pick((f"jnp.ones(3, jnp.{dtype})", f"jnp.ones(3, jnp.{dtype})", f"jnp.zeros(3, jnp.{dtype})",
                              "jnp.arange(3)", "jnp.zeros(3)", "jnp.linspace(0, 1, 3)", "jnp.array([1, 2, 3])",
                              "jnp.array([1.5, 2.5, 3.5])", "jnp.array([True, False, True])",
                              f"jnp.full(3, 2, jnp.{dtype})"))  # fmt: skip
        return Value(form, (3,))

    # --- expressions ---------------------------------------------------------------------
    def expression(self, shape: Shape, depth: int) -> Value:
        if depth <= 0 or self.chance(0.25):
            return self.leaf(shape)
        forms = [self.binary, self.binary, self.binary, self.chain, self.compare, self.unary, self.function,
                 self.function2, self.method, self.astype, self.where, self.numpy_on_jax]
        if shape == ():
            forms += [self.reduction, self.reduction, self.matmul, self.item]
        else:
            forms += [self.concatenate, self.same_shape_method, self.clip, self.like, self.nn]
        return self.pick(forms)(shape, depth - 1)

    def operands(self, shape: Shape, depth: int) -> tuple[Value, Value]:
        """Two operands that broadcast to ``shape``: an array shape needs one array operand."""
        if shape == ():
            return self.expression((), depth), self.expression((), depth)
        shapes = self.pick((((3,), (3,)), ((3,), ()), ((), (3,))))
        return self.expression(shapes[0], depth), self.expression(shapes[1], depth)

    def binary(self, shape: Shape, depth: int) -> Value:
        if self.chance(0.12):
            return self.bitwise(shape)
        left, right = self.operands(shape, depth)
        op = self.pick(ARITHMETIC)
        if op == "**" and left.python and right.python:
            right = Value(self.pick(("2", "3", "0.5")), (), python=True)  # Python's own ** can overflow or go complex
        if op in ("//", "%", "/") and right.python:
            right = Value(self.pick(("2", "3", "1.5", "7")), (), python=True)  # never a Python zero division
        return Value(f"{_paren(left)} {op} {_paren(right)}", shape, left.python and right.python)

    def bitwise(self, shape: Shape) -> Value:
        """Bitwise operators take integers and bools: mostly give them those (a float operand
        raises TypeError, which is worth testing now and then, not in every program)."""
        shapes = ((), ()) if shape == () else self.pick((((3,), (3,)), ((3,), ()), ((), (3,))))
        integral = self.chance(0.85)
        left, right = (self.integer_leaf(s) if integral else self.leaf(s) for s in shapes)
        op = self.pick(BITWISE)
        if op in ("<<", ">>") and right.python:
            right = Value(self.pick(("1", "2")), (), python=True)
        return Value(f"{_paren(left)} {op} {_paren(right)}", shape, left.python and right.python)

    def integer_leaf(self, shape: Shape) -> Value:
        dtype = self.pick(("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"))
        module = self.pick(("np", "jnp"))
        if shape == ():
            return self.pick((Value(self.pick(("1", "2", "7", "100", "True")), (), python=True),
                              Value(f"{module}.{dtype}({'True' if dtype == 'bool_' else '3'})", ())))  # fmt: skip
        return Value(f"{module}.ones(3, {module}.{dtype})", (3,))

    def chain(self, shape: Shape, depth: int) -> Value:
        """``a op b op c``: one operator, left-associated (the dispatch-chain rule's subject)."""
        op = self.pick(("+", "*", "-"))
        parts = [self.leaf(shape)] + [self.leaf(self.pick(((), shape))) for _ in range(self.random.randint(1, 3))]
        return Value(f" {op} ".join(_paren(p) for p in parts), shape, all(p.python for p in parts))

    def compare(self, shape: Shape, depth: int) -> Value:
        left, right = self.operands(shape, depth)
        return Value(f"{_paren(left)} {self.pick(COMPARISONS)} {_paren(right)}", shape, left.python and right.python)

    def unary(self, shape: Shape, depth: int) -> Value:
        operand = self.expression(shape, depth)
        op = self.pick(("-", "-", "+", "~", "abs"))
        if op == "~" and self.chance(0.8):
            operand = self.integer_leaf(shape)
        if op == "abs":
            return Value(f"abs({operand.text})", shape, operand.python)
        return Value(f"{op}{_paren(operand)}", shape, operand.python)

    def module(self) -> str:
        return self.pick(("np", "jnp"))

    def function(self, shape: Shape, depth: int) -> Value:
        operand = self.expression(shape, depth)
        return Value(f"{self.module()}.{self.pick(UNARY_FUNCTIONS)}({operand.text})", shape)

    def function2(self, shape: Shape, depth: int) -> Value:
        left, right = self.operands(shape, depth)
        return Value(f"{self.module()}.{self.pick(BINARY_FUNCTIONS)}({left.text}, {right.text})", shape)

    def reduction(self, shape: Shape, depth: int) -> Value:
        operand = self.expression((3,), depth)
        name = self.pick(REDUCTIONS)
        if not operand.python and self.chance(0.5):
            return Value(f"{_paren(operand)}.{name}()", ())
        return Value(f"{self.module()}.{name}({operand.text})", ())

    def matmul(self, shape: Shape, depth: int) -> Value:
        left, right = self.expression((3,), depth), self.expression((3,), depth)
        form = self.pick((f"{_paren(left)} @ {_paren(right)}", f"{self.module()}.dot({left.text}, {right.text})",
                          f"{self.module()}.vdot({left.text}, {right.text})"))  # fmt: skip
        return Value(form, ())

    def item(self, shape: Shape, depth: int) -> Value:
        operand = self.expression((), depth)
        if operand.python:
            return operand
        return Value(f"{_paren(operand)}.item()", (), python=True)

    def method(self, shape: Shape, depth: int) -> Value:
        operand = self.expression(shape, depth)
        if operand.python:
            return operand
        name = self.pick(("round", "conj", "copy", "conjugate"))
        return Value(f"{_paren(operand)}.{name}()", shape)

    def same_shape_method(self, shape: Shape, depth: int) -> Value:
        operand = self.expression((3,), depth)
        name = self.pick(SAME_SHAPE_METHODS)
        return Value(f"{_paren(operand)}.{name}" + ("" if "(" in name or name == "T" else "()"), (3,))

    def astype(self, shape: Shape, depth: int) -> Value:
        operand = self.expression(shape, depth)
        dtype = self.pick(DTYPE_SPELLINGS)
        if operand.python:
            return Value(f"{self.module()}.asarray({operand.text}, dtype={dtype})", shape)
        return Value(f"{_paren(operand)}.astype({dtype})", shape)

    def where(self, shape: Shape, depth: int) -> Value:
        left, right = self.operands(shape, depth)
        condition = "True" if shape == () else self.pick(("np.array([True, False, True])", "jnp.arange(3) > 0"))
        return Value(f"{self.module()}.where({condition}, {left.text}, {right.text})", shape)

    def numpy_on_jax(self, shape: Shape, depth: int) -> Value:
        """NumPy functions applied to JAX arrays: some convert them, some forward to methods."""
        operand = self.expression(shape, depth)
        if shape == ():
            return Value(f"np.{self.pick(('add', 'multiply', 'maximum'))}({operand.text}, {self.leaf(()).text})"
                         if self.chance(0.5) else f"np.{self.pick(('asarray', 'sqrt', 'sum'))}({operand.text})", ())  # fmt: skip
        return Value(f"np.{self.pick(('sqrt', 'exp', 'negative', 'cumsum', 'flip'))}({operand.text})", (3,))

    def concatenate(self, shape: Shape, depth: int) -> Value:
        parts = [self.expression((3,), depth) for _ in range(self.random.randint(2, 3))]
        module = self.module()
        if self.chance(0.3):
            return Value(f"{module}.stack([{', '.join(p.text for p in parts)}])[0]", (3,))
        return Value(f"{module}.concatenate([{', '.join(p.text for p in parts)}])[:3]", (3,))

    def clip(self, shape: Shape, depth: int) -> Value:
        operand = self.expression((3,), depth)
        low, high = self.leaf(()), self.leaf(())
        return Value(f"{self.module()}.clip({operand.text}, {low.text}, {high.text})", (3,))

    def like(self, shape: Shape, depth: int) -> Value:
        operand = self.expression((3,), depth)
        module = self.module()
        return Value(self.pick((f"{module}.zeros_like({operand.text})", f"{module}.ones_like({operand.text})",
                                f"{module}.full_like({operand.text}, {self.pick(('2', '1.5', 'True'))})",
                                f"{module}.full(3, {self.leaf(()).text})")), (3,))  # fmt: skip

    def nn(self, shape: Shape, depth: int) -> Value:
        return Value(f"jax.nn.{self.pick(JAX_NN)}({self.expression((3,), depth).text})", (3,))

    # --- statements ----------------------------------------------------------------------
    def statement(self, index: int) -> str:
        roll = self.random.random()
        name = f"v{index}"
        if roll < 0.12 and self.variables:
            target = self.pick(self.variables)
            shape = () if target.shape == () else self.pick(((), (3,)))
            value = self.expression(shape, 1)
            op = self.pick(("+", "-", "*", "/", "//", "**")) if not self.chance(0.1) else self.pick(BITWISE)
            if target.python and value.python and op in ("/", "//", "**"):
                op = "+"
            return f"{target.text} {op}= {_paren(value)}"
        if roll < 0.2:
            return self.local_function(name)
        if roll < 0.27:
            shape = self.pick(((), (3,)))
            argument = self.expression(shape, 1)
            op, literal = self.pick(ARITHMETIC[:4]), self.pick(("2", "2.0", "1j", "np.float32(2)", "True"))
            self.variables.append(Value(name, shape))
            return f"{name} = jax.jit(lambda a: a {op} {literal})({argument.text})"
        shape = self.pick(((), (3,), (3,)))
        value = self.expression(shape, self.random.randint(1, 3))
        self.variables.append(Value(name, value.shape, value.python))
        return f"{name} = {value.text}"

    def local_function(self, name: str) -> str:
        """A local function called once: its parameters take the call's types (seeded by the front end)."""
        self.functions += 1
        function = f"f{self.functions}"
        op = self.pick(ARITHMETIC[:4])
        shape = self.pick(((), (3,)))
        left, right = self.operands(shape, 1)
        self.variables.append(Value(name, shape))
        body = self.pick((f"a {op} b", f"(a {op} b) * 2", f"{self.module()}.maximum(a, b)", f"a.astype(b.dtype) {op} b"
                          if not (left.python or right.python) else f"a {op} b {op} 1"))  # fmt: skip
        return f"def {function}(a, b):\n    return {body}\n{name} = {function}({left.text}, {right.text})"


def _paren(value: Value) -> str:
    text = value.text
    return f"({text})" if " " in text or "**" in text or text.startswith("-") else text


def generate(seed: int) -> Program:
    generator = _Generator(seed)
    count = generator.random.randint(3, 8)
    return Program(seed, [generator.statement(index) for index in range(count)])


if __name__ == "__main__":
    import sys

    for seed in map(int, sys.argv[1:] or ["0", "1", "2"]):
        print(f"# seed {seed}\n{generate(seed).text}")

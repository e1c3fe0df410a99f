"""What every promotion system answers: operands in, a promoted (dtype, weak) or a refusal out."""

from __future__ import annotations

import ast
import enum
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from promolint.core.dtypes import (BUILTIN_TYPE_DTYPES, DTYPES, PYTHON_SCALAR_TYPES, WEAK_NODE_KIND, WEAK_NODES,
                              resolve_name, unknown_name_hint)
from promolint.systems.lattice import Lattice


class Reason(enum.Enum):
    """Why a system refuses a promotion; JAX's classes first, in JAX's order of precedence."""

    STRICT = "strict"  # jax_numpy_dtype_promotion=strict
    FLOAT8 = "8-bit float"
    FLOAT6 = "6-bit float"
    FLOAT4 = "4-bit float"
    INTN = "1/2/4-bit int"
    NO_PATH = "no promotion path"  # the lattice has no join, none of the above applies
    UNDEFINED = "undefined"  # the standard leaves it unspecified (Array API, MAX)
    UNSUPPORTED = "unsupported dtype"  # the system has no such dtype at all


class Origin(enum.Enum):
    """Where an operand's dtype comes from; JAX narrows each differently with x64 off."""

    VALUE = "value"  # a Python scalar or a NumPy value: always narrowed
    DTYPE = "dtype"  # an explicitly requested dtype: narrowed unless explicit x64 is 'allow'
    ARRAY = "array"  # an existing JAX array: never narrowed again


@dataclass(frozen=True)
class Operand:
    """One input of a promotion.

    ``dtype`` is a catalog name. A Python scalar is its 64-bit default dtype with ``weak=True``
    (``1.0`` is ``float64`` weak); a Python bool is ``bool`` strong.  ``value`` is a scalar's
    value where it is known: only NumPy 1's value-based casting reads it (there a strong operand
    with a value is a NumPy scalar, one without an array).
    """

    dtype: str
    weak: bool = False
    origin: Origin = Origin.VALUE
    value: bool | int | float | complex | None = None

    @classmethod
    def parse(cls, text: str) -> Operand:
        """``float32``, ``f4``, ``bf16``, a weak node ``f*`` or a Python type name ``float`` (weak):
        any name ``dtypes.resolve_name`` reads; a Python number (``300``, ``1e10``, ``1j``: a
        weak scalar of that value); a NumPy scalar ``uint8(200)`` (strong, of that value)."""
        if text in WEAK_NODE_KIND or (text in PYTHON_SCALAR_TYPES and text != "bool"):
            node = PYTHON_SCALAR_TYPES.get(text, text)
            return cls(BUILTIN_TYPE_DTYPES[_PYTHON_TYPE_OF_NODE[node]], weak=True)
        number = _number(text)
        if number is not None:
            kind = type(number).__name__
            return cls(BUILTIN_TYPE_DTYPES[kind], weak=kind != "bool", value=number)
        scalar = _SCALAR.fullmatch(text.strip())
        if scalar and resolve_name(scalar[1]) and _number(scalar[2]) is not None:
            return cls(resolve_name(scalar[1]), value=_number(scalar[2]))
        name = resolve_name(text)
        if name is None:
            raise ValueError(f"unknown dtype {text!r}{unknown_name_hint(text)}")
        return cls(name)

    @property
    def node(self) -> str:
        """Lattice node: weak values sit at their kind's weak node (bool stays bool)."""
        if self.dtype not in DTYPES:  # a system's own dtype (MAX's index): no weak form
            return self.dtype
        kind = DTYPES[self.dtype].kind
        if self.weak and kind != "b":
            return WEAK_NODES["i" if kind == "u" else kind]
        return self.dtype


_PYTHON_TYPE_OF_NODE = {"i*": "int", "f*": "float", "c*": "complex"}
_SCALAR = re.compile(r"([\w]+)\((.+)\)")  # uint8(200): a NumPy scalar


def _number(text: str) -> bool | int | float | complex | None:
    """A Python number written as Python writes it (``300``, ``-1.5``, ``1e39j``, ``True``;
    ``inf`` and ``nan`` as ``float`` reads them), or None."""
    text = text.strip()
    if text.lower() in ("inf", "-inf", "nan"):
        return float(text)
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if type(value) in (bool, int, float, complex) else None


@dataclass(frozen=True)
class Promoted:
    dtype: str
    weak: bool = False

    def __str__(self) -> str:
        return f"{self.dtype} (weak)" if self.weak else self.dtype


@dataclass(frozen=True)
class Refused:
    reason: Reason
    message: str
    dtypes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"refused ({self.reason.value}): {self.message}"


Result = Promoted | Refused


class PromotionSystem(ABC):
    """A named set of promotion rules. Subclasses are data plus the few rules the data needs."""

    name: str
    description: str
    lattice: Lattice | None = None  # None for systems that are tables, not lattices (NumPy)

    @abstractmethod
    def result_type(self, *operands: Operand) -> Result:
        """The dtype and weak flag of an operation on ``operands``, or why it is refused."""

    @abstractmethod
    def table_nodes(self) -> Sequence[str]:
        """Row and column labels of this system's promotion table, weak nodes included."""

    @abstractmethod
    def table_cell(self, a: str, b: str) -> str:
        """One cell of the table: the result node, or ``-`` where the system refuses."""

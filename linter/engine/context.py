"""The modes in force at a point of the program: x64, promotion strictness, explicit x64."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from promolint.core.dtypes import DEFAULT_INPUT_DTYPES
from promolint.systems import get_system
from promolint.systems.jax import JaxSystem
from promolint.systems.jax_versions import JaxFacts, select
from promolint.systems.numpy import NumpySystem


# Who decides the x64 mode at a point of the program (``Context.x64_by``).
X64_BY_USER = "user"  # forced (--x64, [tool.promolint] x64): the user asserts it holds everywhere
X64_BY_CODE = "code"  # set by the code on every path here (jax.config.update, a with block, a branch on it)
X64_BY_DEFAULT = "default"  # nothing sets it: JAX's default (off) is assumed, but an importer may turn it on


@dataclass(frozen=True)
class Context:
    """``x64`` is the mode dtypes are computed in; ``x64_by`` says how sure that is: a rule that
    claims something holds only with x64 off (PRM007) needs the user or the code to say so."""

    x64: bool = False
    strict: bool = False
    explicit_x64: str = "warn"
    x64_by: str = X64_BY_USER
    jax_version: str = ""  # whose JAX facts apply; "" for the JAX installed in the linted environment
    # What a function's parameters annotated as arrays are called with besides 64-bit arrays (the
    # input contract rules weigh operations on them by); () for none.
    input_dtypes: tuple[str, ...] = DEFAULT_INPUT_DTYPES

    @property
    def x64_off_for_sure(self) -> bool:
        """x64 is off here because the user or the code says so, not by default."""
        return not self.x64 and self.x64_by != X64_BY_DEFAULT

    @property
    def jax(self) -> JaxSystem:
        return _jax(self.x64, self.strict, self.explicit_x64)

    @property
    def numpy(self) -> NumpySystem:
        return _numpy()

    @property
    def jax_facts(self) -> JaxFacts:
        """The facts of the JAX version in force (``promolint.systems.jax_versions``)."""
        return _jax_facts(self.jax_version)

    def describe(self) -> str:
        parts = ["x64 on" if self.x64 else "x64 off"]
        if self.strict:
            parts.append("strict promotion")
        return ", ".join(parts)


@functools.cache
def _jax(x64: bool, strict: bool, explicit_x64: str) -> JaxSystem:
    return get_system("jax-strict" if strict else "jax", x64=x64, explicit_x64=explicit_x64)  # type: ignore[return-value]


@functools.cache
def _jax_facts(jax_version: str) -> JaxFacts:
    return select(jax_version).facts


@functools.cache
def _numpy() -> NumpySystem:
    return get_system("numpy")  # type: ignore[return-value]

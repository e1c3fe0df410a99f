"""The modes in force at a point of the program: x64, promotion strictness, explicit x64."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from promolint.systems import get_system
from promolint.systems.jax import JaxSystem
from promolint.systems.numpy import NumpySystem


@dataclass(frozen=True)
class Context:
    x64: bool = False
    strict: bool = False
    explicit_x64: str = "warn"

    @property
    def jax(self) -> JaxSystem:
        return _jax(self.x64, self.strict, self.explicit_x64)

    @property
    def numpy(self) -> NumpySystem:
        return _numpy()

    def describe(self) -> str:
        parts = ["x64 on" if self.x64 else "x64 off"]
        if self.strict:
            parts.append("strict promotion")
        return ", ".join(parts)


@functools.cache
def _jax(x64: bool, strict: bool, explicit_x64: str) -> JaxSystem:
    return get_system("jax-strict" if strict else "jax", x64=x64, explicit_x64=explicit_x64)  # type: ignore[return-value]


@functools.cache
def _numpy() -> NumpySystem:
    return get_system("numpy")  # type: ignore[return-value]

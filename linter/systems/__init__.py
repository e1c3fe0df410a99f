"""Promotion systems by name: JAX (standard and strict), NumPy 2 and 1, the Array API, Modular MAX.

Beside them, the tools that read and show systems as data: ``lattice`` (the generic lattice and
its join), ``lattice_io`` (lattice files and their checks), ``tables`` and ``draw`` (the promotion
tables and the lattice pictures of ``promolint table`` and ``promolint lattice draw``).
"""

from __future__ import annotations

import importlib

from promolint.systems.base import Operand, Origin, Promoted, PromotionSystem, Reason, Refused, Result

__all__ = ["Operand", "Origin", "Promoted", "PromotionSystem", "Reason", "Refused", "Result", "SYSTEMS", "get_system"]

# name -> (module, class); modules load on first use so the CLI starts fast.
SYSTEMS: dict[str, tuple[str, str]] = {
    "jax": ("promolint.systems.jax", "JaxSystem"),
    "jax-strict": ("promolint.systems.jax", "JaxSystem"),
    "numpy": ("promolint.systems.numpy", "NumpySystem"),
    "numpy1": ("promolint.systems.numpy1", "Numpy1System"),
    "array-api": ("promolint.systems.array_api", "ArrayApiSystem"),
    "max": ("promolint.systems.max", "MaxSystem"),
}


def get_system(name: str, *, x64: bool = False, explicit_x64: str = "warn") -> PromotionSystem:
    """The system called ``name``; ``x64`` and ``explicit_x64`` apply to the JAX systems only."""
    if name not in SYSTEMS:
        raise ValueError(f"unknown promotion system {name!r} (choose from {', '.join(SYSTEMS)})")
    module, cls_name = SYSTEMS[name]
    cls = getattr(importlib.import_module(module), cls_name)
    if name.startswith("jax"):
        from promolint.systems.jax import ExplicitX64

        return cls(x64=x64, strict=name == "jax-strict", explicit_x64=ExplicitX64(explicit_x64))
    return cls()

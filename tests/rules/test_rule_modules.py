"""What a newcomer reads from promolint/rules/: every module or package beside ``base``,
``registry`` and ``shared`` is one rule of the registry, and ``shared`` holds logic rules build
on, never a rule."""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np
import pytest

import promolint.rules
import promolint.rules.shared
from promolint.rules.base import Rule
from promolint.rules.registry import REGISTRY
from promolint.rules.shared.integers import wrapped

_NOT_RULES = {"base", "registry", "shared"}


def _rule_classes(module) -> list[type]:
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module.__name__
            and getattr(value, "code", None)]  # fmt: skip


def test_every_module_beside_base_registry_and_shared_is_a_rule_of_the_registry() -> None:
    modules = {info.name for info in pkgutil.iter_modules(promolint.rules.__path__)} - _NOT_RULES
    assert modules == {info.module for info in REGISTRY}
    for name in modules:
        classes = _rule_classes(importlib.import_module(f"promolint.rules.{name}"))
        assert [cls.code for cls in classes] == [info.code for info in REGISTRY if info.module == name]


def test_shared_modules_define_no_rule() -> None:
    for info in pkgutil.iter_modules(promolint.rules.shared.__path__):
        assert not _rule_classes(importlib.import_module(f"promolint.rules.shared.{info.name}")), info.name


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32"])
@pytest.mark.parametrize("value", [0, 1, -1, 127, 128, -129, 255, 256, 1000, -1000, 2**31, 2**32 + 5, -(2**40)])
def test_a_wrapped_int_is_what_numpy_stores_when_it_casts(value: int, dtype: str) -> None:
    assert wrapped(value, dtype) == int(np.array(value, dtype=np.int64).astype(dtype))

"""JAX's modes at a point of the program: what the code sets, unless the user forces them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from promolint.core.dtypes import DEFAULT_INPUT_DTYPES
from promolint.engine.context import X64_BY_CODE, X64_BY_DEFAULT, X64_BY_USER, Context
from promolint.engine.project_facts import ProjectFacts

# Calls that set a configuration option from here on: jax.config.update("jax_enable_x64", True).
CONFIG_UPDATES = frozenset({"jax.config.update", "jax.config.config.update"})
# What reads the x64 mode: attributes, and calls with the option's name.
X64_ATTRIBUTES = frozenset({f"{config}.{name}" for config in ("jax.config", "jax.config.config")
                            for name in ("jax_enable_x64", "x64_enabled")})  # fmt: skip
CONFIG_READS = frozenset({f"{config}.{name}" for config in ("jax.config", "jax.config.config") for name in ("read", "_read")})
# Context managers that switch a mode inside their block: the option they set and the setting
# they mean (None: their first argument says, as in numpy_dtype_promotion("strict")).
_ENABLE = ("jax_enable_x64", None)
SWITCHES: Mapping[str, tuple[str, object]] = MappingProxyType({
    "jax.enable_x64": _ENABLE,
    "jax.experimental.enable_x64": _ENABLE,
    "jax.experimental.disable_x64": ("jax_enable_x64", False),
    "jax.numpy_dtype_promotion": ("jax_numpy_dtype_promotion", None),
    "jax.experimental.numpy_dtype_promotion": ("jax_numpy_dtype_promotion", None),
})


@dataclass(frozen=True)
class Settings:
    """Modes to analyze under: 'on'/'off' force them, 'auto' follows what the code sets, and
    what the project around the module sets (``facts``) before the module runs."""

    x64: str = "auto"
    promotion: str = "auto"
    facts: ProjectFacts = ProjectFacts()
    python: tuple[int, int] | None = None  # the grammar of the target version; None: the running Python's
    jax_version: str = ""  # whose JAX facts apply; "" for the JAX installed in the linted environment
    input_dtypes: tuple[str, ...] = DEFAULT_INPUT_DTYPES  # what array parameters are called with (the input contract)

    def initial(self) -> Context:
        strict = self.promotion == "strict"
        given = {"jax_version": self.jax_version, "input_dtypes": self.input_dtypes}
        if self.x64 != "auto":
            return Context(x64=self.x64 == "on", strict=strict, x64_by=X64_BY_USER, **given)
        if self.facts.x64_at_import is not None:  # a module imported first set it
            by = X64_BY_DEFAULT if self.facts.x64_elsewhere else X64_BY_CODE
            return Context(x64=self.facts.x64_at_import, strict=strict, x64_by=by, **given)
        return Context(x64=False, strict=strict, x64_by=X64_BY_DEFAULT, **given)


def apply_setting(ctx: Context, key: str, setting: object, settings: Settings) -> Context:
    """``ctx`` once option ``key`` is set to ``setting``; a mode the user forces stays."""
    if key == "jax_enable_x64" and isinstance(setting, bool) and settings.x64 == "auto":
        return replace(ctx, x64=setting, x64_by=X64_BY_CODE)
    if key == "jax_numpy_dtype_promotion" and setting in ("strict", "standard") and settings.promotion == "auto":
        return replace(ctx, strict=setting == "strict")
    if key == "jax_explicit_x64_dtypes" and setting in ("warn", "error", "allow"):
        return replace(ctx, explicit_x64=setting)
    return ctx


def assume_x64(ctx: Context, on: bool) -> Context:
    """The modes where a test of the x64 mode (``if jax.config.jax_enable_x64:``) said ``on``:
    code there runs only in that mode, whatever the user forces elsewhere."""
    return replace(ctx, x64=on, x64_by=X64_BY_CODE)


def config_update(ctx: Context, function: str | None, key: object, setting: object, settings: Settings) -> Context:
    """A call of ``function(key, setting)``: ``jax.config.update`` changes the mode from here on."""
    if function in CONFIG_UPDATES and isinstance(key, str):
        return apply_setting(ctx, key, setting, settings)
    return ctx


def switched(ctx: Context, function: str | None, arguments: list[object], settings: Settings) -> Context:
    """The modes inside ``with function(*arguments):`` (``jax.enable_x64()`` means True)."""
    if function not in SWITCHES:
        return ctx
    key, fixed = SWITCHES[function]
    if fixed is not None:
        return apply_setting(ctx, key, fixed, settings)
    argument = arguments[0] if arguments else None  # None: absent, or not a literal
    if key == "jax_enable_x64" and argument is None:
        argument = True
    return apply_setting(ctx, key, argument, settings)

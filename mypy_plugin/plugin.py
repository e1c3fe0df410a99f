"""The mypy plugin class: hook registration, kept cheap; the engine loads on the first hook that
has work to do (a warm-cache run that checks nothing never imports it)."""

from __future__ import annotations

import os
from collections.abc import Callable

import mypy
from mypy.nodes import ARG_OPT, Import, ImportFrom, MypyFile, TypeInfo, Var
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    DynamicClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import AnyType, CallableType, FunctionLike, Instance, Type, TypeOfAny, get_proper_type

from promolint_mypy import settings, tags

_HOOKED_PREFIXES = ("jax.", "numpy.", "math.", "ml_dtypes.")
_HOOKED_BUILTINS = frozenset({"builtins.float", "builtins.int", "builtins.complex", "builtins.bool", "builtins.len",
                              "builtins.abs"})  # fmt: skip
_ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
_PATCH_MARKER = "promolint-scalar-types-1"
_LIBRARY_PARTS = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")
_PACKAGES = f"-packages{os.sep}"
_TYPESHED = os.path.join(os.path.dirname(os.path.abspath(mypy.__file__)), "typeshed")


def jax_scalar_types() -> tuple[str, ...]:
    """jax.numpy's scalar types (``jnp.float32``...): ``Any`` in JAX's stub, so calls of them would
    be invisible (an ``Any`` operand silences operator checking); the plugin makes them type
    objects that return ``jax.Array``."""
    from promolint.core.dtypes import MODULE_DTYPE_ATTRIBUTES

    return tuple(sorted(MODULE_DTYPE_ATTRIBUTES["jax.numpy"]))


class PromolintPlugin(Plugin):
    def __init__(self, options) -> None:
        super().__init__(options)
        self._raw = settings.discover(options.config_file)
        self._analyzer = None
        self._patched = False
        self._scalar_types: tuple[str, ...] | None = None
        self._library: dict[str, bool] = {}
        self._method_hooks: dict[str, Callable | None] = {}

    # --- configuration and cache ------------------------------------------------------
    def report_config_data(self, ctx: ReportConfigContext):
        if ctx.id == "jax.numpy":
            return _PATCH_MARKER  # its scalar types are patched (and cached so)
        if self.is_library(ctx.path):
            return None  # the plugin does nothing there: its cache must not depend on our config
        if not ctx.is_check and self._analyzer is not None and self._modules and ctx.id in self._modules:
            # Called right before mypy serializes the module: its variables carry their values.
            self._analyzer.finish(self._modules[ctx.id])
        return self._raw.report_data()

    def is_library(self, path: str) -> bool:
        """Installed packages and typeshed: the plugin leaves them alone."""
        cached = self._library.get(path)
        if cached is None:
            absolute = path if path.startswith(os.sep) else os.path.abspath(path)
            cached = self._library[path] = (_PACKAGES in absolute and any(part in absolute for part in _LIBRARY_PARTS)) \
                or absolute.startswith(_TYPESHED)  # fmt: skip
        return cached

    @property
    def analyzer(self):
        if self._analyzer is None:
            from promolint_mypy.analyzer import Analyzer

            self._analyzer = Analyzer(self._raw, self._modules, self.is_library)
        return self._analyzer

    # --- jax.numpy scalar types ---------------------------------------------------------
    def _patch(self, final: bool) -> None:
        """Give ``jnp.float32`` & co. a callable type (once their module is analyzed).  Called
        from every hook query; semantic-analysis queries may run before the stub's analysis
        ends (it may overwrite), so only a checker-phase query settles it."""
        modules = self._modules
        if not modules:
            return
        jnp, base, builtins = modules.get("jax.numpy"), modules.get("jax._src.basearray"), modules.get("builtins")
        if jnp is None or base is None or builtins is None:
            return
        array, type_ = base.names.get("Array"), builtins.names.get("type")
        if array is None or type_ is None or not isinstance(array.node, TypeInfo) or not isinstance(type_.node, TypeInfo):
            return
        complete = True
        if self._scalar_types is None:
            self._scalar_types = jax_scalar_types()
        for name in self._scalar_types:
            symbol = jnp.names.get(name)
            if symbol is None or not isinstance(symbol.node, Var):
                continue
            current = get_proper_type(symbol.node.type) if symbol.node.type is not None else None
            if isinstance(current, AnyType):
                symbol.node.type = CallableType(
                    [AnyType(TypeOfAny.special_form)], [ARG_OPT], [None], Instance(array.node, []),
                    Instance(type_.node, []), name=name, from_type_type=True,
                )  # fmt: skip
            elif not isinstance(current, FunctionLike):
                complete = False
        if complete and final:
            self._patched = True

    # --- hooks ----------------------------------------------------------------------------
    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if not self._patched:
            self._patch(final=True)
        if fullname.startswith(_HOOKED_PREFIXES) or fullname in _HOOKED_BUILTINS:
            return self._value_hook
        return self._report_hook  # any call: where findings of the function being checked are reported

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        # mypy asks for every method call and operator: answer from a table.
        try:
            return self._method_hooks[fullname]
        except KeyError:
            pass
        if not self._patched:
            self._patch(final=True)
        hook = self._value_hook if fullname.startswith(_HOOKED_PREFIXES) else self._report_hook
        self._method_hooks[fullname] = hook
        return hook

    def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        if not self._patched:
            self._patch(final=True)
        return None

    def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        if not self._patched:
            self._patch(final=True)
        return None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        if not self._patched:
            self._patch(final=True)
        return None

    def get_dynamic_class_hook(self, fullname: str) -> Callable[[DynamicClassDefContext], None] | None:
        if not self._patched:
            self._patch(final=False)
        return None

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if not self._patched:
            self._patch(final=False)
        if fullname in _ANNOTATED:
            return lambda ctx: self._annotated(ctx, fullname)
        return None

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        # Called once a module is fully checked (before its cache is written).
        if self._analyzer is not None and not self.is_library(file.path):
            self._analyzer.finish(file)
        return set()

    def _value_hook(self, ctx: FunctionContext | MethodContext) -> Type:
        """A NumPy or JAX call or operator: the engine's value tags its type, and the findings of
        the function being checked are reported."""
        if self.is_library(ctx.api.path):
            return ctx.default_return_type
        try:
            return self.analyzer.result_type(ctx, ctx.context)
        except Exception as error:  # noqa: BLE001 - a linter must not take the type checker down
            return self._failed(ctx, error)

    def _report_hook(self, ctx: FunctionContext | MethodContext) -> Type:
        if self.is_library(ctx.api.path):
            return ctx.default_return_type
        try:
            self.analyzer.report(ctx.api)
        except Exception as error:  # noqa: BLE001
            return self._failed(ctx, error)
        return ctx.default_return_type

    def _failed(self, ctx: FunctionContext | MethodContext, error: Exception) -> Type:
        if os.environ.get("PROMOLINT_MYPY_DEBUG"):
            raise error
        if self._analyzer is not None:
            self._analyzer.internal_error(ctx.api, ctx.context, f"{type(error).__name__}: {error}")
        return ctx.default_return_type

    # --- jaxtyping ------------------------------------------------------------------------
    def _annotated(self, ctx: AnalyzeTypeContext, fullname: str) -> Type:
        """``Float32[Array, "n"]`` is ``Annotated[Array, "n"]`` to mypy: analyze it as mypy does,
        then tag the array type with the jaxtyping dtype it names."""
        api = ctx.api
        default = getattr(api, "try_analyze_special_unbound_type", None)
        analyzed = default(ctx.type, fullname) if default is not None else None
        if analyzed is None:
            if len(ctx.type.args) < 2:
                api.fail("Annotated[...] must have exactly one type argument and at least one annotation", ctx.context)
                return AnyType(TypeOfAny.from_error)
            analyzed = api.analyze_type(ctx.type.args[0])
        head = _jaxtyping_head(api, ctx.type.name)
        proper = get_proper_type(analyzed)
        if head is None or not isinstance(proper, Instance):
            return analyzed
        if proper.type.has_base("jax._src.basearray.Array"):
            argument = "jax.Array"
        elif proper.type.has_base("numpy.ndarray"):
            argument = "numpy.ndarray"
        else:
            return analyzed
        from promolint_mypy.translate import annotation_tag

        return tags.attach(proper, annotation_tag(head, argument), api.named_type("builtins.str", []))


_imports_cache: dict[int, tuple[MypyFile, dict[str, str]]] = {}


def _import_names(tree: MypyFile) -> dict[str, str]:
    """The qualified names a module's imports bind (``jt`` for ``import jaxtyping as jt``)."""
    names: dict[str, str] = {}
    for node in tree.imports:
        if isinstance(node, Import):
            for module, alias in node.ids:
                if alias:
                    names[alias] = module
                else:
                    head = module.split(".")[0]
                    names[head] = head
        elif isinstance(node, ImportFrom) and not node.relative:
            for name, alias in node.names:
                names[alias or name] = f"{node.id}.{name}"
    return names


def _jaxtyping_head(api, written: str) -> str | None:
    """``Float32``, ``jt.Float32`` or ``jaxtyping.Float32`` as ``jaxtyping.Float32`` when it
    names one of jaxtyping's dtype annotations (by the module's imports)."""
    tree = getattr(getattr(api, "api", None), "cur_mod_node", None)
    if not isinstance(tree, MypyFile):
        return None
    cached = _imports_cache.get(id(tree))
    if cached is None or cached[0] is not tree:
        cached = (tree, _import_names(tree))
        _imports_cache[id(tree)] = cached
    first, _, rest = written.partition(".")
    base = cached[1].get(first)
    if base is None:
        return None
    qualname = f"{base}.{rest}" if rest else base
    module, _, name = qualname.rpartition(".")
    if module != "jaxtyping":
        return None
    from promolint.engine.annotations import JAXTYPING_DTYPES

    return qualname if name in JAXTYPING_DTYPES else None

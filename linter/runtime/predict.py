"""The static side of the shim: what the engine predicts at each site of a module, per JAX mode,
and for a function called with given argument dtypes.

The front end seeds a function's parameters from annotations or from the module's own calls.
The shim knows better: the arguments of the call in progress, which it hands to the analysis as
``Seeds``; everything else is the analysis unchanged.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from promolint.core.dtypes import DTYPES
from promolint.engine.calls import resolve_reference
from promolint.engine.expressions import constant
from promolint.engine.flow.modes import Settings
from promolint.engine.records import Seeds
from promolint.engine.describe import describe
from promolint.engine.symbolic import Symbolic
from promolint.engine.symbolic.choice import FAILS, HOLDS, tested_key
from promolint.engine.values import NONE, UNKNOWN, Array, DTypeRef, Library, Refusal, Unknown, Value, python_scalar
from promolint.engine.walker.analysis import Analysis, analyze
from promolint.engine.walker.nodes import place
from promolint.engine.walker.source import Source
from promolint.driver.project import project_facts
from promolint.engine.project_facts import ProjectFacts
from promolint.runtime.observe import Mode

Span = tuple[int, int, int, int]  # line, column, end_line, end_column (1-based), as reveal prints them
# What one argument contributes to a call's signature: (dtype, weak, library, ndim).
ArgumentType = tuple[str, bool, str, "int | None"]
# By parameter name; what holds no array (``objects_in`` of the code-alone predictions) is Opaque.
Signature = tuple[tuple[str, "ArgumentType | Opaque"], ...]


@dataclass(frozen=True)
class Opaque:
    """An argument that holds no array or scalar (a str, None, a dtype, an object): ``shown`` as
    a record names it, ``value`` what the engine makes of it (``opaque``)."""

    shown: str
    value: Value


# The argument types of parameters of several functions, by (place, name): what the engine's
# variables stand for (``promolint.engine.flow.functions.Functions._key``).
Bindings = tuple[tuple[tuple["int | tuple[int, int]", str], "ArgumentType | Opaque"], ...]


def settings_for(mode: Mode, facts: ProjectFacts = ProjectFacts()) -> Settings:
    x64, strict = mode
    return Settings("on" if x64 else "off", "strict" if strict else "standard", facts)


@functools.lru_cache(maxsize=8)
def _package_facts(root: Path) -> dict[str, ProjectFacts]:
    return project_facts([(path, path.read_bytes()) for path in sorted(root.rglob("*.py"))], x64=False)


def package_facts(path: str) -> ProjectFacts:
    """The project pass over the package a module belongs to (its outermost folder with an
    ``__init__.py``), as `promolint check` on that package sees it: the modules it reads."""
    file = Path(path).resolve()
    root = file.parent
    if not (root / "__init__.py").is_file():
        return ProjectFacts()
    while (root.parent / "__init__.py").is_file():
        root = root.parent
    try:
        return _package_facts(root).get(str(file), ProjectFacts())
    except OSError:
        return ProjectFacts()


def describe_mode(mode: Mode) -> str:
    x64, strict = mode
    return f"x64 {'on' if x64 else 'off'}, {'strict' if strict else 'standard'} promotion"


class Predictor:
    """The engine's view of one module: which spans are worth checking, and what it predicts
    there per mode and call signature."""

    def __init__(self, source: Source, facts: ProjectFacts = ProjectFacts()):
        self.source = source
        self.facts = facts  # the modules of its package it reads (promolint.driver.project)
        self._values: dict[Mode, dict[Span, Value]] = {}
        self._paths: dict[int | tuple[int, int], frozenset[str]] | None = None

    def typed_spans(self, mode: Mode = (False, False)) -> dict[Span, str]:
        """The spans worth checking, with their source text: every expression the engine
        gives an array value, a refusal or unknown (values without a dtype, such as a function
        reference or a dtype object, are not checked)."""
        analysis = Analysis(self.source, settings_for(mode, self.facts)).run()
        # Strings have no dtype; and instrument() cannot wrap the parts of an implicit
        # concatenation ("a" f"b"): libcst refuses a call there.
        return {span: self.source.code(site.node) for span, site in self._site_spans(analysis).items()
                if not _is_string(site.node)}  # fmt: skip

    def predict(self, mode: Mode, target: ast.FunctionDef | None = None, signature: Signature = ()) -> dict[Span, dict]:
        """reveal's description (dtype, weak, library, error) of every checked span under
        ``mode``; with a ``target``, its parameters named in ``signature`` hold values of those
        types."""
        if target is None:
            analysis = Analysis(self.source, settings_for(mode, self.facts)).run()
        else:
            seeds = Seeds({target.lineno: {name: seed_value(argument) for name, argument in signature}})
            analysis = Analysis(self.source, settings_for(mode, self.facts), seeds).run()
        return {span: describe(site.value) for span, site in self._site_spans(analysis).items()}

    def _code_values(self, mode: Mode) -> dict[Span, Value]:
        """The value of every checked span from the code alone (nothing seeded), per mode."""
        values = self._values.get(mode)
        if values is None:
            analysis = analyze(self.source, settings_for(mode, self.facts))
            values = self._values[mode] = {span: site.value for span, site in self._site_spans(analysis).items()}
        return values

    def symbolic_spans(self, mode: Mode) -> frozenset[Span]:
        """The spans whose code-alone value depends on variables."""
        key = ("symbolic", mode)
        spans = self._values.get(key)  # type: ignore[call-overload]
        if spans is None:
            spans = self._values[key] = frozenset(  # type: ignore[index]
                span for span, value in self._code_values(mode).items() if isinstance(value, Symbolic))
        return spans

    def attribute_paths(self) -> dict[int | tuple[int, int], frozenset[str]]:
        """By place (a def's line, a lambda's line and column), the attributes and items of
        parameters the code-alone predictions depend on (``state.count``, ``indexers[*]``:
        ``promolint.engine.symbolic.attribute_variable``, ``item_variable``), with x64 off."""
        if self._paths is None:
            found: dict[int | tuple[int, int], set[str]] = {}
            for value in self._code_values((False, False)).values():
                if isinstance(value, Symbolic):
                    for var in value.variables:
                        key = tested_key(var.key) or var.key  # `state.mask is None`: bound from `state.mask`
                        if _own_place(key) and ("." in key[1] or "[" in key[1]):
                            found.setdefault(key[0], set()).add(key[1])
            self._paths = {line: frozenset(names) for line, names in found.items()}
        return self._paths

    def variable_places(self, mode: Mode, span: Span) -> frozenset[int | tuple[int, int]]:
        """The places (a def's line, a lambda's line and column) of this module's functions
        whose parameters the code-alone prediction of a span depends on."""
        value = self._code_values(mode).get(span)
        if not isinstance(value, Symbolic):
            return frozenset()
        return frozenset(var.key[0] for var in value.variables if _own_place(var.key))

    def from_code(self, mode: Mode, span: Span, bindings: Bindings = ()) -> dict:
        """The code-alone prediction of a span; one that depends on parameters is evaluated at
        the types ``bindings`` gives them (a variable's key is its function's place and name)."""
        value = self._code_values(mode).get(span)
        if value is None:
            return {"dtype": None, "weak": None, "library": None, "error": None}
        if isinstance(value, Symbolic) and bindings:
            # A variable the call does not settle is unknown there, as any value the engine knows
            # nothing of: what does not depend on it (the branch a test takes) is still exact.
            given = dict(bindings)
            value = value.at({var: _member(var.key, given) or UNKNOWN for var in value.variables})
        return describe(value)

    def _site_spans(self, analysis: Analysis) -> dict[Span, object]:
        spans: dict[Span, object] = {}
        for site in analysis.sites.values():  # several nodes may share a span: the first recorded speaks, as in reveal
            if not site.target and isinstance(site.value, (Array, Refusal, Unknown, Symbolic)):
                spans.setdefault(self._span(site.node), site)
        return spans

    def _span(self, node: ast.AST) -> Span:
        s = self.source.span(node)
        return s.line, s.column, s.end_line, s.end_column

    def definitions(self) -> list[Definition]:
        """Every ``def`` and lambda of the module."""
        found = []
        for node in ast.walk(self.source.tree):
            kind = type(node)
            if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
                params = node.args
                positional = [p.arg for p in (*params.posonlyargs, *params.args)]
                parameters = (*positional, *(p.arg for p in params.kwonlyargs))
                if kind is ast.Lambda:
                    name, first_line = "<lambda>", node.lineno
                else:
                    name, first_line = node.name, (node.decorator_list[0] if node.decorator_list else node).lineno
                found.append(Definition(node, name, first_line, self._span(node), parameters, len(positional),
                                        _rebound(node), place(node)))  # fmt: skip
        return found


@dataclass(frozen=True)
class Definition:
    """A ``def`` or lambda: where it is (``first_line`` as in ``co_firstlineno``: its first
    decorator's), its parameters (positional first), those its body assigns to (their values
    at a later point of the body are no longer the call's arguments), and what the engine's
    variables of its parameters are keyed by (``place``: its ``def`` line, a lambda's line and
    column; ``promolint.engine.flow.functions.Functions._key``)."""

    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    name: str
    first_line: int
    span: Span
    parameters: tuple[str, ...]
    positional: int
    rebound: frozenset[str]
    place: int | tuple[int, int]


def _member(key: object, given: dict) -> Value | None:
    """What the variable keyed ``key`` is where the arguments are ``given``: a parameter's
    argument; whether it is None for its presence variable (``ticks is None``); None where the
    arguments do not say."""
    if key in given:
        return seed_value(given[key])
    tested = tested_key(key)
    if tested is None or tested not in given:
        return None
    return HOLDS if seed_value(given[tested]) == NONE else FAILS


def _own_place(key: object) -> bool:
    """Whether a variable's key is a parameter of this module's functions: (a def's line or a
    lambda's line and column, name), not another module's ("module:line")."""
    return isinstance(key, tuple) and len(key) == 2 and type(key[0]) in (int, tuple)


def _rebound(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """The names the body binds: assignment, loop, ``with``/``except``/``import`` ``as`` and
    walrus targets (not those of nested scopes, nor a comprehension's own variables)."""
    names: set[str] = set()
    stack: list[ast.AST] = [function.body] if type(function) is ast.Lambda else list(function.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue  # their own scopes
        if kind is ast.comprehension:
            stack.extend((node.iter, *node.ifs))
            continue
        if kind is ast.Name and type(node.ctx) is ast.Store:
            names.add(node.id)
        elif kind is ast.ExceptHandler and node.name:
            names.add(node.name)
        elif kind is ast.alias and node.asname:
            names.add(node.asname)
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(names)


# --- argument types -------------------------------------------------------------------------
def argument_type(observation: Mapping[str, object], ndim: int | None) -> ArgumentType | None:
    """The signature entry of one argument, from its run-time observation; None when it has
    no dtype, or no weak flag (a PRNG key: the front end then seeds that parameter itself)."""
    if observation["dtype"] is None or observation["weak"] is None:
        return None
    return (observation["dtype"], bool(observation["weak"]), observation["library"], ndim)


def seed_value(argument: ArgumentType | Opaque) -> Value:
    if isinstance(argument, Opaque):
        return argument.value
    dtype, weak, library, ndim = argument
    if library == Library.PYTHON.value:
        return python_scalar(dtype, provenance=f"argument ({dtype})")  # observe names them int, float...
    return Array(frozenset([dtype]), Library(library), weak, ndim=ndim, provenance=f"argument ({dtype})")


def opaque(value: object) -> Opaque:
    """An argument without a dtype as the engine would read it written in the code: a str as
    that literal (a dtype's name, else nothing it follows), None, a dtype or scalar type as the
    reference to it; anything else unknown.  A prediction that depends on such a parameter where
    it does not matter (``jnp.einsum(spec, a, b)``'s ``spec``, ``lax.psum(x, axis_name)``'s
    axis) is then evaluated at the arrays alone; one that does depend on it stays unknown."""
    if value is None:
        return Opaque("None", resolve_reference("builtins.None"))
    if type(value) is str:
        return Opaque(repr(value) if len(value) <= 40 else repr(value[:37]) + "...", constant(value))
    dtype = _dtype_reference(value)
    if dtype is not None:
        return Opaque(value.__name__ if dtype.builtin else f"dtype {dtype.name}", dtype)
    return Opaque(value.__qualname__ if isinstance(value, type) else type(value).__qualname__, UNKNOWN)


def _dtype_reference(value: object) -> DTypeRef | None:
    """What the engine makes of a scalar type by its qualified name (``float``, ``np.float32``,
    ``jnp.bfloat16``, ``ml_dtypes.bfloat16``; an abstract ``np.integer`` is no dtype), and of a
    ``np.dtype`` as of ``x.dtype``; None for other values.  NumPy is read from the modules the
    program imported: the shim imports no library itself."""
    if isinstance(value, type):
        found = resolve_reference(f"{value.__module__}.{value.__qualname__}")
        return found if isinstance(found, DTypeRef) else None
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.dtype) and value.name in DTYPES:
        return DTypeRef(value.name)
    return None


def _is_string(node: ast.AST) -> bool:
    return type(node) is ast.JoinedStr or (type(node) is ast.Constant and type(node.value) in (str, bytes))

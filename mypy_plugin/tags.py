"""dtype tags on mypy ``Instance`` types.

``jax.Array`` is not generic over its dtype, so the plugin records what the engine knows about
a value in ``Instance.extra_attrs`` of the type mypy gives the expression: one literal-string
attribute, ``__promolint__``.  mypy keeps extra_attrs through assignment, containers,
cross-module references, its incremental cache and the daemon; subtyping and joins ignore
them.  Two kinds of tag exist:

* a *value* tag, ``v1;<library>;<dtype,dtype>;<weak>;<intended64>``: what a call or an operator
  evaluated to, written by the plugin's hooks;
* an *annotation* tag, ``a1;<head>;<argument>``: a jaxtyping annotation such as
  ``Float32[Array, "n"]`` (head ``jaxtyping.Float32``, argument ``jax.Array``); it is
  resolved against the reading module's x64 mode, so it never depends on configuration.

Tags are hints: a module's variables are tagged with the values they end with once the module is
checked (``promolint_mypy.analyzer``), and readers decide when a tag can be trusted.
"""

from __future__ import annotations

from mypy.types import ExtraAttrs, Instance, LiteralType, ProperType, TupleType, Type, UnionType, get_proper_type

KEY = "__promolint__"
VALUE_PREFIX = "v1;"
ANNOTATION_PREFIX = "a1;"


def read(typ: ProperType) -> str | None:
    if not isinstance(typ, Instance) or typ.extra_attrs is None:
        return None
    tag = typ.extra_attrs.attrs.get(KEY)
    if isinstance(tag, LiteralType) and isinstance(tag.value, str):
        return tag.value
    return None


def attach(typ: Instance, text: str, str_type: Instance) -> Instance:
    """A copy of ``typ`` carrying ``text`` (other extra attributes are kept)."""
    if read(typ) == text:
        return typ
    attrs = typ.extra_attrs.copy() if typ.extra_attrs is not None else ExtraAttrs({}, set(), None)
    attrs.attrs[KEY] = LiteralType(text, fallback=str_type)
    attrs.immutable.add(KEY)
    new = typ.copy_modified()
    new.extra_attrs = attrs
    return new


def strip(typ: Instance) -> Instance:
    """A copy of ``typ`` without a tag."""
    if read(typ) is None:
        return typ
    new = typ.copy_modified()
    assert typ.extra_attrs is not None
    attrs = typ.extra_attrs.copy()
    del attrs.attrs[KEY]
    attrs.immutable.discard(KEY)
    new.extra_attrs = attrs if attrs.attrs else None
    return new


def strip_type(typ: Type) -> Type:
    """``typ`` without tags, inside unions and tuples too."""
    proper = get_proper_type(typ)
    if isinstance(proper, Instance):
        return strip(proper)
    if isinstance(proper, UnionType):
        return UnionType([strip_type(item) for item in proper.items], proper.line, proper.column)
    if isinstance(proper, TupleType):
        return proper.copy_modified(items=[strip_type(item) for item in proper.items])
    return typ

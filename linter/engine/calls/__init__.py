"""Calls of catalogued functions and array methods: one implementation per semantics a catalog row
names (``promolint.engine.catalog``).

By concept: ``binding`` (arguments by parameter name), ``conversions`` (dtype requests and
defaults, values crossing NumPy, JAX and Python), ``shapes`` (ranks), ``promotion`` (the core
the semantics share), the families of semantics (``creation``, ``elementwise``, ``comparisons``,
``reductions``, ``dtype_queries``, ``lax``, ``methods``, ``python_functions``, ``linear_algebra``,
``spectral``, ``sequences``) and ``dispatch`` (calls, attributes and names; the table of
semantics, ``SEMANTICS``).  What the front ends and the lint
rules use is here."""

from promolint.engine.calls.binding import bind
from promolint.engine.calls.conversions import (as_dtype, as_traced, as_traced_field, default, replaced, replaced_parts,
                                                requested, traced_variable)
from promolint.engine.calls.dispatch import (SEMANTICS, apply, attribute, call, call_function, call_method,
                                             resolve_reference)

__all__ = [
    "SEMANTICS",
    "apply",
    "as_dtype",
    "as_traced",
    "as_traced_field",
    "attribute",
    "bind",
    "call",
    "call_function",
    "call_method",
    "default",
    "replaced",
    "replaced_parts",
    "requested",
    "resolve_reference",
    "traced_variable",
]

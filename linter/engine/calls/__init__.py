"""Calls of catalogued functions and array methods: one implementation per catalog rule.

By concept: ``binding`` (arguments by parameter name), ``conversions`` (dtype requests and
defaults, values crossing NumPy, JAX and Python), ``shapes`` (ranks), ``promotion`` (the core
the rules share), the rule families (``creation``, ``elementwise``, ``comparisons``,
``reductions``, ``dtype_queries``, ``lax``, ``methods``, ``python_functions``, ``linear_algebra``,
``spectral``, ``sequences``) and ``dispatch``
(calls, attributes and names; the table of rules).  What the front ends and the rules use is
here."""

from promolint.engine.calls.binding import bind
from promolint.engine.calls.conversions import (as_dtype, as_traced, as_traced_field, default, replaced, replaced_parts,
                                                requested, traced_variable)
from promolint.engine.calls.dispatch import RULES, apply, attribute, call, call_function, call_method, resolve_reference

__all__ = [
    "RULES",
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

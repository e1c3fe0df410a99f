"""Values of unknown dtype as variables, and what the program computes from them.

A parameter nothing types (no annotation, no call site) is not a wall: it is a *variable* over a
domain of exact values (every numeric value there is, or every dtype of one library, or the
dtypes an annotation allows).  An operation on a variable does not guess: it becomes a
*symbolic* value, the same operation applied to whatever member the variable turns out to be,
evaluated on demand for each member (``at``) with the engine's exact semantics.  So
``x / np.sqrt(n)`` is float64 for every member under x64, ``x * 2`` keeps the dtype of every
numeric ``x`` but bool, and a rule fires only when its conclusion holds for every member.

The package holds, one concept a module: the members variables range over (``domains``), the
memo of one analysis's evaluations (``state``), variables and symbolic values (``variables``),
exceptions passed on (``raised``), what a value is at its members (``members``), and claims about
an operation for every member (``claims``).  Its names are re-exported here.
"""

from promolint.engine.symbolic.claims import (instances, instances_with, jax_member, kept_dtype, uniform_instances,
                                              weighed, with_arrays, with_arrays_of, with_arrays_of_by_members,
                                              without_inputs)
from promolint.engine.symbolic.domains import NUMERIC
from promolint.engine.symbolic.members import (Outcome, alike_but_weak, each_outcome, folded, going_on_among, lowered,
                                               outcomes, probes, raised_where_reached, settled, spread_outcomes, summary)
from promolint.engine.symbolic.raised import passed_on, raised_in
from promolint.engine.symbolic.state import EvaluationState
from promolint.engine.symbolic.variables import (MAX_ASSIGNMENTS, Symbolic, Variable, apply, attribute_variable,
                                                 extended_key, is_attribute_of, is_symbolic, item_variable, join, lifted,
                                                 rekeyed, variable, variables_in)

__all__ = [
    "MAX_ASSIGNMENTS", "NUMERIC", "EvaluationState", "Outcome", "Symbolic", "Variable", "alike_but_weak", "apply",
    "attribute_variable", "each_outcome",
    "extended_key", "folded", "going_on_among", "instances", "instances_with", "is_attribute_of", "is_symbolic", "item_variable", "jax_member", "join", "kept_dtype", "lifted",
    "lowered", "outcomes", "passed_on", "probes", "raised_in", "raised_where_reached", "rekeyed", "settled", "spread_outcomes", "summary", "uniform_instances", "variable",
    "variables_in", "weighed", "with_arrays", "with_arrays_of", "with_arrays_of_by_members", "without_inputs",
]

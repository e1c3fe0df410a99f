"""What rules read of an analysis: the one door from the rules into the engine.

The records of a module's analysis (``Module``: its operations, the calls of its own functions,
what its functions return, the calls of its jitted functions in loops), each operation's kind
(``OperationKind``), its operands and result (at every member of its variables through
``Operation.members``, ``with_arrays_of`` and ``uniform_instances``; symbolic where they depend on
parameters), the source of a value's 64 bits (``ValueSource``, on ``values.Array``), and the few
queries rules ask of the engine:

- operators and promotion evaluated again, for fixes that weigh other operands or modes
  (``binary``, ``compare``, ``promote``, ``collect``, ``in_place``, ``result_library``,
  ``int_bounds``, ``ARITHMETIC``, ``NUMPY_TRUE_DIVIDE``);
- catalogued calls evaluated again, and what JAX's tracing makes of a value (``apply_call``,
  ``call_function``, ``call_method``, ``CALL_SEMANTICS``, ``as_traced``, ``JNP_EQUIVALENTS``);
- the reasons of refusals rules tell apart (``Refusal.reason``): a lax loop's carry that changes
  (``CARRY``), conditional branches that differ (``BRANCHES``), a predicate that is no boolean
  scalar (``PREDICATE``), ranks rather than dtypes (``SHAPE``);
- values computed from variables and their members (``Symbolic``, ``Variable``, ``is_symbolic``,
  ``summary``, ``without_inputs``, ``passed_on``, ``variables_in``, ``with_arrays_of``, ``uniform_instances``,
  ``instances_with``, ``with_arrays_of_by_members``);
- a dict's entries in JAX's order (``sorted_entries``), a value as messages spell it
  (``spelled``) and names as they list them (``listed``).

Rules import this module, their own package's shared modules and the registry; below the
engine they may import the values (``promolint.engine.values``), the modes of an analysis
(``promolint.engine.context``) and the dtype facts (``promolint.core``, ``promolint.systems``),
which are data, not the interpreter.  The import contract "Rules read the model" in
pyproject.toml forbids the rest of the engine to them.
"""

from __future__ import annotations

from promolint.engine.calls import SEMANTICS as CALL_SEMANTICS
from promolint.engine.calls import apply as apply_call
from promolint.engine.calls import call_function, call_method
from promolint.engine.calls.conversions import as_traced
from promolint.engine.calls.lax import JNP_EQUIVALENTS, SHAPE
from promolint.engine.describe import listed, spelled
from promolint.engine.flow.control import BRANCHES, CARRY, PREDICATE
from promolint.engine.flow.trees import sorted_entries
from promolint.engine.operations import (ARITHMETIC, NUMPY_TRUE_DIVIDE, binary, collect, compare, in_place, int_bounds,
                                         promote, result_library, update_promotion)
from promolint.engine.records import (Call, Carried, Evaluation, LoopCall, Module, Operation, OperationKind, Returned,
                                      Span, Syntax)
from promolint.engine.symbolic import (Symbolic, Variable, instances_with, is_symbolic, jax_member, passed_on, summary,
                                       uniform_instances, variables_in, with_arrays, with_arrays_of,
                                       with_arrays_of_by_members, without_inputs)

__all__ = [
    "ARITHMETIC",
    "BRANCHES",
    "CALL_SEMANTICS",
    "CARRY",
    "JNP_EQUIVALENTS",
    "NUMPY_TRUE_DIVIDE",
    "PREDICATE",
    "SHAPE",
    "Call",
    "Carried",
    "Evaluation",
    "LoopCall",
    "Module",
    "Operation",
    "OperationKind",
    "Returned",
    "Span",
    "Symbolic",
    "Syntax",
    "Variable",
    "apply_call",
    "as_traced",
    "binary",
    "call_function",
    "call_method",
    "collect",
    "compare",
    "in_place",
    "instances_with",
    "int_bounds",
    "is_symbolic",
    "jax_member",
    "listed",
    "passed_on",
    "promote",
    "result_library",
    "sorted_entries",
    "spelled",
    "summary",
    "uniform_instances",
    "update_promotion",
    "variables_in",
    "with_arrays",
    "with_arrays_of",
    "with_arrays_of_by_members",
    "without_inputs",
]

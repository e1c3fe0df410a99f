"""Every code promolint reports, in one table: what configuration, the mypy error codes, the checker,
`promolint rules` and the docs read.  It imports nothing of the engine, so a run served from the
cache (and every mypy run) reads it without loading a rule.

A rule's class (docs, examples, check) lives in ``promolint.rules.<module>``, one rule a module;
it takes its code, name and switches from its row here.  Adding a rule is adding its module and
its row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PACKAGE = "promolint.rules"


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str
    module: str  # the rule's module in promolint.rules
    title: str  # one line: mypy's error-code description, `promolint rules`
    opt_in: bool = False  # enabled only by its own code or ALL, never by a prefix such as PRM
    fix: Literal["never", "sometimes"] = "never"  # whether `--fix` can offer a fix, as ruff's FixAvailability
    reported_by: Literal["operations", "pairs", "checker"] = "operations"  # what produces its findings
    # False: not reported in the files `test-files` matches, where what it flags is what tests do on
    # purpose (float64 reference data widening float32 results, for PRM001), or where no caller
    # is (a test's functions are no library's API: the input contracts of PRM028 and PRM029)
    in_tests: bool = True


REGISTRY: tuple[RuleInfo, ...] = (
    RuleInfo("PRM000", "unparsable-file", "parse_error", "A file that cannot be read, decoded or parsed",
             reported_by="checker"),
    RuleInfo("PRM001", "implicit-x64", "implicit_x64",
             "A 64-bit result no operand asked for", opt_in=True, fix="sometimes", in_tests=False),
    RuleInfo("PRM002", "mixed-dispatch", "mixed_dispatch", "A NumPy/JAX chain whose dtype depends on its association",
             fix="sometimes"),
    RuleInfo("PRM003", "numpy-nonassociative", "numpy_nonassociative",
             "A NumPy chain whose dtype depends on its association"),
    RuleInfo("PRM004", "strict-promotion", "strict_promotion", "An implicit promotion strict mode rejects",
             fix="sometimes"),
    RuleInfo("PRM005", "no-promotion-path", "no_promotion_path", "A promotion JAX rejects in every mode"),
    RuleInfo("PRM006", "literal-overflow", "literal_overflow",
             "A Python int literal outside the dtype it is converted to"),
    RuleInfo("PRM007", "x64-truncation", "x64_truncation", "A 64-bit dtype request JAX truncates with x64 off",
             fix="sometimes"),
    RuleInfo("PRM008", "lax-dtype-mismatch", "lax_dtype_mismatch", "jax.lax operands of different dtypes"),
    RuleInfo("PRM009", "inplace-cast", "inplace_cast", "An in-place NumPy operation whose result cannot be stored"),
    RuleInfo("PRM010", "x64-dependent-dtype", "x64_portability", "A dtype that differs with x64 on and off",
             opt_in=True, reported_by="pairs"),
    RuleInfo("PRM020", "mixed-signedness", "mixed_signedness",
             "uint32 with a signed int in JAX: int32 with x64 off (wraps from 2**31), int64 with x64 on", opt_in=True),
    RuleInfo("PRM021", "numpy-scalar-overflow", "numpy_scalar_overflow",
             "NumPy integer scalar arithmetic whose known values overflow its dtype"),
    RuleInfo("PRM022", "int-to-float", "int_to_float", "Integer operands whose promotion gives a float"),
    RuleInfo("PRM023", "mixed-precision", "mixed_precision",
             "bfloat16/float16 JAX data promoted to a wider float", opt_in=True),
    RuleInfo("PRM024", "numpy1-compat", "numpy1_compat",
             "A dtype or an OverflowError that differs between NumPy 1.x and NumPy 2", opt_in=True),
    RuleInfo("PRM025", "carry-dtype-mismatch", "carry_dtype_mismatch",
             "A lax loop carry or conditional branches whose dtypes differ"),
    RuleInfo("PRM026", "jit-retrace", "jit_retrace",
             "A jitted function a loop calls with arguments whose dtype or weak type change, so it compiles again",
             opt_in=True),
    RuleInfo("PRM027", "lax-literal-x64", "lax_literal_x64",
             "A jax.lax call, conditional or loop mixing a 64-bit scalar with an array of unknown dtype that "
             "raises for every int32 (float32) array with x64 on", opt_in=True),
    RuleInfo("PRM028", "input-contract", "input_contract",
             "An operation that raises for a float32 input (x64 on, strict promotion) and runs for the inputs "
             "the code was tested with", opt_in=True, in_tests=False),
    RuleInfo("PRM029", "input-widening", "input_widening",
             "A float32 input widened to float64 with x64 on by an operand that is 64-bit whatever the inputs are",
             opt_in=True, in_tests=False),
    RuleInfo("PRM100", "unused-noqa", "unused_noqa", "A `# noqa` directive that suppresses nothing", opt_in=True,
             reported_by="checker"),
)  # fmt: skip

BY_CODE: dict[str, RuleInfo] = {info.code: info for info in REGISTRY}
_BY_NAME: dict[str, RuleInfo] = {info.name: info for info in REGISTRY}
_BY_MODULE: dict[str, RuleInfo] = {f"{PACKAGE}.{info.module}": info for info in REGISTRY}

# Opt-in rules only for their primer precision (below the 90% of the default set; the figures are
# the ledger's, in the docs generated from it): the primer and the fixtures run them all the same,
# so that the measure goes on and their findings stay tested.
MEASURED_OPT_IN = ("PRM001", "PRM020", "PRM027", "PRM028", "PRM029")

PARSE_ERROR = "PRM000"
UNUSED_NOQA = "PRM100"
X64_PORTABILITY = "PRM010"
NUMPY1_COMPAT = "PRM024"


# The codes left out in test files, whatever selects them.
OUTSIDE_TESTS: tuple[str, ...] = tuple(info.code for info in REGISTRY if not info.in_tests)


def find(code_or_name: str) -> RuleInfo | None:
    """A rule by its code (any case: ``prm001``) or its name (``implicit-x64``)."""
    return BY_CODE.get(code_or_name.upper()) or _BY_NAME.get(code_or_name.lower())


def info_of_module(module: str) -> RuleInfo | None:
    return _BY_MODULE.get(module)

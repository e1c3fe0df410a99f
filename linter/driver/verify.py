"""Fix verification: a fix is safe only if it keeps every dtype in every x64 mode the file may
run in.  Each fix is checked against what ``reveal`` infers for the fixed file in those modes
(``fix_modes``); a fix that changes a dtype there is made unsafe, an unsafe fix's title says what
it changes.  The per-file jobs (``promolint.driver.lint``) call it after the rules."""

from __future__ import annotations

from dataclasses import replace

from promolint.driver.reveal import reveal_records_many
from promolint.engine.walker.analysis import Analysis, Settings, analyze
from promolint.engine.walker.source import ParseFailure, Source, parse_bytes
from promolint.engine.walker.syntax import attach_syntax
from promolint.rules.base import Finding, Fix


def confirmed_in_other_modes(analysis: Analysis, findings: list[Finding]) -> list[Finding]:
    """``findings``, each safe fix that must hold in the other x64 mode too (``Fix.other_mode``)
    made unsafe where the analysis in that mode shows it changing a dtype: a fix is safe only
    if it keeps every dtype in every mode the file may run in.  The other mode is analyzed only
    when some fix asks."""
    others: dict[bool, Analysis] = {}

    def operation_there(x64: bool, node: object):
        if x64 not in others:
            other = others[x64] = analyze(analysis.source, replace(analysis.settings, x64="on" if x64 else "off"),
                                          analysis.flow.seeds)  # fmt: skip
            attach_syntax(analysis.source, other.operations, other.flow.invocations.values(), other.sites)
        flow = others[x64].flow
        return flow.operations.get(id(node)) or flow.invocations.get(id(node))

    confirmed = []
    for finding in findings:
        fix = finding.fix
        if fix is not None and fix.safe and fix.other_mode is not None:
            first = fix
            while (check := fix.other_mode) is not None and not check.keeps(
                    operation_there(check.x64, finding.node)):  # fmt: skip
                fix = check.alternative or first.unsafe_with_x64_switched()
            finding = replace(finding, fix=replace(fix, other_mode=None))
        confirmed.append(finding)
    return confirmed


def fix_modes(settings: Settings, data: bytes) -> list[Settings]:
    """The modes a fix must keep every dtype in, under standard promotion (what a strict
    migration keeps): the x64 mode the user forces, else both; and where the code may set x64
    itself, the modes it sets, followed from the forced mode (or from the project's): a mode
    forced on the command line chooses what is reported, not what the code runs in."""
    x64s = (settings.x64,) if settings.x64 != "auto" else ("off", "on")
    modes = [replace(settings, x64=x64, promotion="standard") for x64 in x64s]
    if _may_set_x64(data):
        facts = settings.facts if settings.x64 == "auto" else replace(settings.facts,
                                                                      x64_at_import=settings.x64 == "on")  # fmt: skip
        modes.append(replace(settings, x64="auto", promotion="standard", facts=facts))
    return modes


def _may_set_x64(data: bytes) -> bool:
    """Whether the code may switch x64 (``jax_enable_x64``, ``enable_x64()``, ``disable_x64()``,
    ``JAX_ENABLE_X64``): only then do its own modes differ from the forced ones."""
    return b"able_x64" in data or b"JAX_ENABLE_X64" in data


def _mode_label(settings: Settings) -> str:
    return f"with x64 {settings.x64}" if settings.x64 != "auto" else "where the code sets x64"


# An unsafe fix's consequences cost an analysis of the fixed file in every mode: a file with
# more unsafe fixes keeps its rules' titles for the rest.
_MAX_DESCRIBED_FIXES = 8


def weighed(analysis: Analysis, data: bytes, findings: list[Finding], describe: bool) -> list[Finding]:
    """``findings``, their fixes weighed against what they change (``reveal`` of the file fixed,
    compared with the original's in ``fix_modes``).  A safe fix made where the user forces x64
    must keep every dtype in the modes the code sets itself too, else it is unsafe; with
    ``describe``, an unsafe fix's title says what it changes, from the dtypes inferred before
    and after.  Each fix weighed costs analyses of the fixed file: a front end that shows no
    unsafe fix's title (``check``'s report, ``--fix``) leaves ``describe`` off."""
    code_modes = analysis.settings.x64 != "auto" and _may_set_x64(data)
    fixes = [f.fix for f in findings
             if f.fix is not None and (f.fix.safe and code_modes or not f.fix.safe and describe)]  # fmt: skip
    changed = weigh_fixes(analysis.source, data, analysis.settings, fixes)
    return [replace(f, fix=changed[id(f.fix)]) if f.fix is not None and id(f.fix) in changed else f for f in findings]


def weigh_fixes(source: Source, data: bytes, settings: Settings, fixes: list[Fix]) -> dict[int, Fix]:
    """The fixes of ``fixes`` that their consequences change, by ``id`` of the fix: a safe one
    that changes a dtype in a mode the code sets itself (where the user forces x64) becomes
    unsafe, saying why; an unsafe one's title says what it changes (the first
    ``_MAX_DESCRIBED_FIXES`` of them)."""
    if not fixes:
        return {}
    from promolint.fix.edits import apply_fixes, changes  # loads libcst: only fixes need it
    modes = fix_modes(settings, data)
    code_modes = [i for i, mode in enumerate(modes) if mode.x64 == "auto"] if settings.x64 != "auto" else []
    was = reveal_records_many(data, modes)
    described = 0
    weighed: dict[int, Fix] = {}
    for fix in fixes:
        if not fix.safe and described == _MAX_DESCRIBED_FIXES:
            continue
        fixed, count = apply_fixes(data, source, [fix])
        now = reveal_records_many(fixed, modes) if count else None
        after = parse_bytes(fixed, settings.python)
        if now is None or isinstance(now, ParseFailure) or isinstance(after, ParseFailure):
            continue
        found = changes(source, after, was, now)
        if found is None:
            continue
        if fix.safe:
            found = [c for c in found if c.mode in code_modes]
            if found:
                weighed[id(fix)] = replace(fix, safe=False, title=f"{fix.title} (unsafe: it makes "
                                           f"{_consequence(found, modes)})")  # fmt: skip
        else:
            described += 1
            if found:
                weighed[id(fix)] = replace(fix, title=f"{fix.title}; it makes {_consequence(found, modes)}")
    return weighed


def _consequence(found: list, modes: list[Settings]) -> str:
    """The value a fix changes that says most, mode by mode: an expression before a name, a
    dtype before a weak flag alone, the outermost expression of the first statement it changes
    (what the edited expression's new value becomes there): "`(i8 + 1.5) * f16` float32 with
    x64 off, float64 with x64 on; it was float16"."""
    first = min(found, key=lambda c: (c.target, c.before[0] == (c.after or (None,))[0], c.span[0], -c.span[2],
                                      c.span[1], -c.span[3]))  # fmt: skip
    per_mode = {c.mode: (c.before, c.after) for c in found if (c.span, c.target) == (first.span, first.target)}
    text = " ".join(first.text.split())
    text = text if len(text) <= 40 else text[:37] + "..."
    befores = {before for before, _ in per_mode.values()}
    if len({after for _, after in per_mode.values()}) == 1 and len(befores) == 1 and len(per_mode) == len(modes):
        ((before, after),) = set(per_mode.values())
        return f"`{text}` {_spelled(after)} instead of {_spelled(before)}"
    if len(befores) == 1:
        afters = ", ".join(f"{_spelled(after)} {_mode_label(modes[m])}" for m, (_, after) in sorted(per_mode.items()))
        return f"`{text}` {afters}; it was {_spelled(befores.pop())}"
    return f"`{text}` " + ", ".join(f"{_spelled(after)} {_mode_label(modes[m])} where it was {_spelled(before)}"
                                    for m, (before, after) in sorted(per_mode.items()))  # fmt: skip


def _spelled(value: tuple | None) -> str:
    """A value as ``reveal`` records it (dtype, weak, library, error), in words."""
    if value is None:
        return "gone"
    dtype, weak, library, error = value
    if error:
        return f"a {error}"
    if dtype is None:
        return "unknown"
    if library == "python":
        return f"a Python {dtype}"
    return f"{'weak ' if weak else 'weak or strong ' if weak is None else ''}{dtype}"


def keeping_dtypes(data: bytes, source: Source, fixes: list[Fix], settings: Settings) -> list[Fix]:
    """The fixes that keep the dtype of every name the file assigns in every x64 mode it may run
    in (``fix_modes``), under standard promotion (what a strict migration must keep).  A rule
    calls a fix safe from what one analysis shows; this checks the other modes too, and a fix
    that changes a dtype there is left to ``--unsafe-fixes``."""
    from promolint.fix.edits import apply_fixes

    modes = fix_modes(settings, data)
    before = _named_dtypes(data, modes)

    def keeps(chosen: list[Fix]) -> bool:
        fixed, count = apply_fixes(data, source, chosen)
        after = _named_dtypes(fixed, modes) if count else before
        if after is None or before is None:
            return after is before
        lines = _line_map(data, fixed)
        return all(lines.get(line) is None or moved.get((lines[line], text), value) == value
                   for was, moved in zip(before, after) for (line, text), value in was.items())  # fmt: skip

    if keeps(fixes):
        return fixes
    return [fix for fix in fixes if keeps([fix])]


def _named_dtypes(data: bytes, modes: list[Settings]) -> list[dict] | None:
    """Per mode, (line, name) -> (dtype, weak, error) of every name the file assigns, but for
    the parameters of its functions: a cast at a call changes what the function receives by
    design, and what its body computes from that is compared."""
    import ast

    records = reveal_records_many(data, modes)
    if isinstance(records, ParseFailure):
        return None
    source = parse_bytes(data)
    parameters = {(span.line, span.column) for node in ast.walk(source.tree) if type(node) is ast.arg
                  for span in (source.span(node),)}  # fmt: skip
    return [{(r["line"], r["text"]): (r["dtype"], r["weak"], r["error"]) for r in one
             if r["target"] and (r["line"], r["column"]) not in parameters} for one in records]  # fmt: skip


def _line_map(before: bytes, after: bytes) -> dict[int, int]:
    """Line of ``before`` -> its line in ``after``, for the lines a fix left in place or edited
    in place (fixes rewrite expressions and add import lines)."""
    import difflib

    out = {}
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "replace") and i2 - i1 == j2 - j1:
            out.update({i1 + k + 1: j1 + k + 1 for k in range(i2 - i1)})
    return out

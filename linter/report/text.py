"""``path:line:col: CODE message``, like ruff's concise output (``[*]`` before the message when
`--fix` would fix it; ``nb.ipynb:cell 3:2:5`` in a notebook), and a count, or "All checks passed!"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from promolint.core.diagnostics import Diagnostic


def render(diagnostics: Sequence[Diagnostic], statistics: bool = False, fixed: int = 0,
           unsafe_fixes: bool = False) -> str:  # fmt: skip
    def fixable(d: Diagnostic) -> bool:
        return d.fix is not None and (d.fix.safe or unsafe_fixes)

    lines = [f"{d.location}: {d.code} {'[*] ' if fixable(d) else ''}{d.message}" for d in diagnostics]
    if statistics:
        lines += ["", *_statistics(diagnostics)]
    total = len(diagnostics) + fixed
    if fixed:
        lines.append(f"Found {_plural(total, 'finding')} ({fixed} fixed, {len(diagnostics)} remaining).")
    elif diagnostics:
        lines.append(f"Found {_plural(total, 'finding')}.")
    else:
        lines.append("All checks passed!")  # ruff's words: a clean run says so in one line
    shown = sum(fixable(d) for d in diagnostics)
    hidden = sum(d.fix is not None and not fixable(d) for d in diagnostics)
    hint = f" ({_plural(hidden, 'hidden fix')} can be enabled with the `--unsafe-fixes` option)" if hidden else ""
    option = "`--fix --unsafe-fixes`" if unsafe_fixes else "`--fix`"
    if shown:
        lines.append(f"[*] {shown} fixable with the {option} option{hint}.")
    elif hidden:
        lines.append(f"No fixes available{hint}.")
    return "\n".join(lines) + ("\n" if lines else "")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 'es' if noun.endswith('x') else 's'}"


def _statistics(diagnostics: Sequence[Diagnostic]) -> list[str]:
    by_rule = Counter(d.code for d in diagnostics)
    by_file = Counter(d.path for d in diagnostics)
    lines = ["By rule:"] + [f"{count:6d}  {code}" for code, count in sorted(by_rule.items())]
    lines += ["By file:"] + [f"{count:6d}  {path}" for path, count in sorted(by_file.items())]
    return lines

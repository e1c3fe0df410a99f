"""PRM000 unparsable-file: the checker's own report of a file it cannot analyze."""

from __future__ import annotations

from promolint.rules.base import Example, Rule


class ParseError(Rule):
    """Reported by the checker, not from operations."""

    summary = (
        "Reports a file that promolint cannot read, decode or parse: a syntax error, NUL bytes, an "
        "encoding that does not decode. Nothing else in such a file is checked."
    )
    why = """
        A file that does not parse is not analyzed at all, so its promotion problems would go
        unreported. The run says so instead of skipping the file silently.
    """
    invalid = (Example("def f(:\n    pass"),)
    valid = (Example("def f():\n    pass"),)

    def check(self, operation):
        return iter(())

"""SARIF 2.1.0, the format code scanning services (GitHub's among them) ingest: one run, the rules
that fired with their documentation, a result per finding (with ``relatedLocations`` where a
finding concerns other places: where a 64-bit leak widens data)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from urllib.parse import quote

from promolint.rules import rule_by_code
from promolint.core.diagnostics import Diagnostic, RelatedLocation
from promolint.report.location import relative_path

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_SOURCE_ROOT = "%SRCROOT%"


def render(diagnostics: Sequence[Diagnostic]) -> str:
    codes = sorted({d.code for d in diagnostics})
    run = {
        "tool": {"driver": {**_tool(), "rules": [_rule_descriptor(code) for code in codes]}},
        "originalUriBaseIds": {_SOURCE_ROOT: {"uri": Path.cwd().resolve().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",  # promolint's columns count code points; SARIF's default is UTF-16 units
        "results": [_result(d, codes.index(d.code)) for d in diagnostics],
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=1) + "\n"


def _tool() -> dict:
    try:
        version, urls = metadata.version("promolint"), metadata.metadata("promolint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return {"name": "promolint"}
    homepage = next((url.split(",", 1)[1].strip() for url in urls if url.lower().startswith("homepage,")), None)
    return {"name": "promolint", "version": version, **({"informationUri": homepage} if homepage else {})}


def _rule_descriptor(code: str) -> dict:
    rule = rule_by_code(code)
    doc = rule.doc()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary.split(". ")[0].rstrip(".") + "."},
        "fullDescription": {"text": rule.summary},
        "help": {"text": doc, "markdown": doc},
    }


def _result(d: Diagnostic, rule_index: int) -> dict:
    path = relative_path(d.path)
    location = ({"uri": quote(path), "uriBaseId": _SOURCE_ROOT} if not Path(path).is_absolute()
                else {"uri": Path(path).as_uri()})  # fmt: skip
    region = {"startLine": d.line, "startColumn": d.column}
    if d.end_line:
        region |= {"endLine": d.end_line, "endColumn": d.end_column}
    cell = {}
    if d.cell:  # SARIF counts the file's lines: the line of the .ipynb holding it; the cell in properties
        region = {"startLine": d.file_line}
        cell = {"properties": {"notebookCell": d.cell, "lineInCell": d.line, "columnInCell": d.column}}
    related = [{"id": index, "physicalLocation": {"artifactLocation": location, "region": _region(r)},
                "message": {"text": r.message}} for index, r in enumerate(d.related, 1)]  # fmt: skip
    return {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": "error",
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {"artifactLocation": location, "region": region}}],
        **({"relatedLocations": related} if related else {}),
        **cell,
    }


def _region(place: RelatedLocation) -> dict:
    """A related location's region: in a notebook, the line of the .ipynb that holds it."""
    if place.cell:
        return {"startLine": place.file_line}
    return {"startLine": place.line, "startColumn": place.column, "endLine": place.end_line,
            "endColumn": place.end_column}  # fmt: skip

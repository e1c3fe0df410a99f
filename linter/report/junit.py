"""JUnit XML, shaped like ruff's: a test suite per file, a failed test case per finding, and a
single passing case when there are none (CI dashboards read an empty report as "no tests")."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from itertools import groupby
from pathlib import PurePosixPath

from promolint.core.diagnostics import Diagnostic
from promolint.report.location import relative_path

PACKAGE = "org.promolint"


def render(diagnostics: Sequence[Diagnostic]) -> str:
    tests = max(len(diagnostics), 1)
    suites = ET.Element("testsuites", name="promolint", tests=str(tests), failures=str(len(diagnostics)), errors="0")
    if not diagnostics:
        suite = _suite(suites, "promolint", tests=1, failures=0)
        ET.SubElement(suite, "testcase", name="No errors found", classname="promolint")
    located = sorted((relative_path(d.path), d) for d in diagnostics)
    for path, group in groupby(located, key=lambda pair: pair[0]):
        found = [d for _, d in group]
        suite = _suite(suites, path, tests=len(found), failures=len(found))
        for d in found:
            case = ET.SubElement(suite, "testcase", name=f"{PACKAGE}.{d.code}",
                                 classname=str(PurePosixPath(path).with_suffix("")),
                                 line=str(d.file_line if d.cell else d.line), column=str(d.column))  # fmt: skip
            failure = ET.SubElement(case, "failure", message=d.message)
            cell = f"cell {d.cell}, " if d.cell else ""
            related = "".join(f"\n  related: line {r.line}, col {r.column}, {r.message}" for r in d.related)
            failure.text = f"{cell}line {d.line}, col {d.column}, {d.message}{related}"
    ET.indent(suites, space="    ")
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _suite(parent: ET.Element, name: str, tests: int, failures: int) -> ET.Element:
    return ET.SubElement(parent, "testsuite", name=name, tests=str(tests), disabled="0", errors="0",
                         failures=str(failures), package=PACKAGE)  # fmt: skip

"""The model rules read (``promolint.engine.model``): every operation the engine records has a
kind of ``OperationKind``, which compares equal to the strings the front ends have always
recorded."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from promolint.engine.model import Operation, OperationKind
from promolint.engine.walker.analysis import Settings, analyze
from promolint.engine.walker.source import parse_bytes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _recorded_operations(x64: str) -> list[Operation]:
    """The operations and the calls of the program's own functions recorded over every fixture."""
    recorded: list[Operation] = []
    for path in sorted(FIXTURES.glob("*.py")):
        source = parse_bytes(path.read_bytes())
        analysis = analyze(source, Settings(x64=x64))
        recorded += [*analysis.operations.values(), *analysis.flow.invocations.values()]
    return recorded


@pytest.fixture(scope="module")
def kinds() -> Counter:
    return Counter(operation.kind for x64 in ("off", "on") for operation in _recorded_operations(x64))


def test_every_kind_the_engine_records_is_an_operation_kind(kinds: Counter) -> None:
    assert kinds
    assert all(type(kind) is OperationKind for kind in kinds), sorted(map(repr, kinds))


def test_the_fixtures_record_every_operation_kind(kinds: Counter) -> None:
    assert set(kinds) == set(OperationKind)


@pytest.mark.parametrize("kind", list(OperationKind))
def test_a_kind_equals_hashes_and_prints_as_its_string(kind: OperationKind) -> None:
    assert kind == kind.value and hash(kind) == hash(kind.value)
    assert str(kind) == f"{kind}" == kind.value
    assert OperationKind(kind.value) is kind

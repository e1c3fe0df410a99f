"""Reading and parsing a file: every failure becomes one message, never a traceback."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from linter.engine.records import Span


@dataclass(frozen=True)
class ParseFailure:
    message: str
    line: int = 1
    column: int = 1


def parse_bytes(data: bytes) -> cst.Module | ParseFailure:
    if b"\x00" in data:
        return ParseFailure("file contains NUL bytes; not Python source")
    try:
        with _nodes_unvalidated():
            return cst.parse_module(data)
    except cst.ParserSyntaxError as error:
        # The headline position can be the statement start; the message's own text is precise.
        return ParseFailure(f"syntax error: {error.message}", error.raw_line, error.raw_column + 1)
    except (SyntaxError, UnicodeDecodeError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        if isinstance(error, UnicodeDecodeError) or re.search(r"codec|decode|encoding", reason):
            return ParseFailure(f"cannot decode the file: {reason}")
        return ParseFailure(f"syntax error: {reason}", getattr(error, "lineno", None) or 1)
    except (RecursionError, MemoryError):
        return ParseFailure("file too deeply nested to parse")


@contextmanager
def _nodes_unvalidated() -> Iterator[None]:
    """Build nodes without libcst's per-node validation, a sixth of the parse.

    Validation guards nodes built by hand; the parser builds only what its grammar accepts (libcst's
    own comment on ``CSTNode.__post_init__`` calls validating parsed trees wasted work).  Mutated
    corpus files parse to the same trees or fail with the same errors either way."""
    validate = cst.CSTNode.__post_init__
    cst.CSTNode.__post_init__ = _accept
    try:
        yield
    finally:
        cst.CSTNode.__post_init__ = validate


def _accept(node: cst.CSTNode) -> None:
    pass


def positions(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[int, Span]:
    """1-based line/column spans of ``nodes`` (one position pass over the module)."""
    wanted = {id(n) for n in nodes}
    if not wanted:
        return {}
    resolved = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {
        id(node): Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)
        for node, r in resolved.items()
        if id(node) in wanted
    }

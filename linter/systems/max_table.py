"""Modular MAX's promotion table as its documentation prints it (``max.graph.type_promotion``).

The ``max`` system follows MAX's prose instead (``promolint.systems.max``): this table contradicts
the prose in four cells, which ``promolint lattice check --system max`` lists.  Each row is its
label's cells, in the order of ``LABELS``, as printed.
"""

from __future__ import annotations

# fmt: off
LABELS = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "index", "address", "float16",
    "bfloat16", "float32", "tensor_float32", "float64",
)
ROWS: dict[str, tuple[str, ...]] = {
    "bool": (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int64", "int64", "float16",
        "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "int8": (
        "int8", "int8", "int16", "int32", "int64", "int16", "int32", "int64", "float16", "index", "address", "float16",
        "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "int16": (
        "int16", "int16", "int16", "int32", "int64", "int16", "int32", "int64", "float16", "float16", "float16",
        "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "int32": (
        "int32", "int32", "int32", "int32", "int64", "int32", "int32", "int64", "float16", "float16", "float16",
        "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "int64": (
        "int64", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "float16", "float16", "float16",
        "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "uint8": (
        "uint8", "int16", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "uint64", "uint64",
        "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "uint16": (
        "uint16", "int32", "int32", "int32", "int64", "uint16", "uint16", "uint32", "uint64", "uint64", "uint64",
        "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "uint32": (
        "uint32", "int64", "int64", "int64", "int64", "uint32", "uint32", "uint32", "uint64", "uint64", "uint64",
        "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "uint64": (
        "uint64", "float16", "float16", "float16", "float16", "uint64", "uint64", "uint64", "uint64", "uint64",
        "uint64", "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "index": (
        "uint64", "float16", "float16", "float16", "float16", "uint64", "uint64", "uint64", "uint64", "index",
        "uint64", "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "address": (
        "uint64", "float16", "float16", "float16", "float16", "uint64", "uint64", "uint64", "uint64", "uint64",
        "address", "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "float16": (
        "float16", "float16", "float16", "float16", "float16", "float16", "float16", "float16", "float16", "float16",
        "float16", "float16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "bfloat16": (
        "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16",
        "bfloat16", "bfloat16", "bfloat16", "bfloat16", "float32", "tensor_float32", "float64",
    ),
    "float32": (
        "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32",
        "float32", "float32", "float32", "float32", "tensor_float32", "float64",
    ),
    "tensor_float32": (
        "tensor_float32", "tensor_float32", "tensor_float32", "tensor_float32", "tensor_float32", "tensor_float32",
        "tensor_float32", "tensor_float32", "tensor_float32", "tensor_float32", "tensor_float32", "tensor_float32",
        "tensor_float32", "tensor_float32", "tensor_float32", "float64",
    ),
    "float64": (
        "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64",
        "float64", "float64", "float64", "float64", "float64", "float64",
    ),
}
# fmt: on

"""The dtype catalog and its spellings against NumPy, ml_dtypes and JAX, read at test time."""

from __future__ import annotations

import importlib
import warnings

import jax.numpy as jnp
import ml_dtypes  # noqa: F401  (registers bfloat16, float8_*, int4... as NumPy dtype names)
import numpy as np
import pytest
from jax._src import dtypes as jax_dtypes

from promolint.core import dtypes as catalog
from promolint.core.dtypes import DTYPES, MODULE_DTYPE_ATTRIBUTES, resolve_attribute, resolve_string

PREFIXES = ("<", ">", "=", "|")
# Spellings that are no catalog dtype: NumPy rejects them, or reads them as a dtype JAX lacks.
FOREIGN = ["float31", "int128", "i3", "u16", "c4", "float8", "bfloat", "Float32", "b2", "", "<",
           "g", "O", "S8", "M8[s]", "complex32", "bcomplex32"]  # fmt: skip


def numpy_reading(spelling: str) -> str | None:
    """The catalog dtype NumPy reads ``spelling`` as, or None."""
    try:
        name = np.dtype(spelling).name
    except TypeError:
        return None
    return name if name in DTYPES else None


def names(dtypes) -> set[str]:
    return {np.dtype(d).name for d in dtypes}


def test_catalog_is_jaxs_promotion_lattice():
    assert set(DTYPES) == names(jax_dtypes._jax_types)
    assert len(DTYPES) == len(jax_dtypes._jax_types) == 32


@pytest.mark.parametrize(
    ("family", "jaxs"),
    [
        (catalog.FLOAT8, jax_dtypes._float8_dtypes),
        (catalog.FLOAT6, jax_dtypes._float6_dtypes),
        (catalog.FLOAT4, jax_dtypes._float4_dtypes),
        (catalog.INTN, jax_dtypes._intn_dtypes),
        (catalog.CUSTOM_FLOATS, jax_dtypes._custom_float_dtypes),
    ],
    ids=["float8", "float6", "float4", "intN", "custom floats"],
)
def test_families_are_jaxs(family, jaxs):
    assert family == names(jaxs)


def test_x32_narrowing_is_jaxs():
    assert catalog.X64_NARROWING == {a.name: b.name for a, b in jax_dtypes._dtype_to_32bit_dtype.items()}


def test_numpy_native_dtypes_are_those_with_numpy_scalar_types():
    assert catalog.NUMPY_NATIVE == {n for n in DTYPES if np.dtype(n).type.__module__ == "numpy"}


def test_builtin_types_read_as_numpy_reads_them():
    assert catalog.BUILTIN_TYPE_DTYPES == {t.__name__: np.dtype(t).name for t in (bool, int, float, complex)}


KINDS = {"b": "bool", "u": "unsigned integer", "i": "signed integer", "f": "real floating", "c": "complex floating"}


@pytest.mark.parametrize("name", DTYPES)
def test_kind_and_bits(name):
    dtype, entry = np.dtype(name), DTYPES[name]
    assert [k for k, category in KINDS.items() if jnp.isdtype(dtype, category)] == [entry.kind]
    if entry.kind in "ui":
        bits = jnp.iinfo(dtype).bits
    elif entry.kind == "f":
        bits = jnp.finfo(dtype).bits
    else:
        bits = dtype.itemsize * 8
    assert entry.bits == bits


@pytest.mark.parametrize("module", MODULE_DTYPE_ATTRIBUTES)
def test_module_attributes_are_the_dtypes_they_name(module):
    namespace, table = importlib.import_module(module), MODULE_DTYPE_ATTRIBUTES[module]
    assert {attr: np.dtype(getattr(namespace, attr)).name for attr in table} == table


@pytest.mark.parametrize("module", MODULE_DTYPE_ATTRIBUTES)
def test_every_catalog_dtype_attribute_of_a_module_is_known(module):
    namespace = importlib.import_module(module)
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated aliases warn when touched
        for attr in dir(namespace):
            value = getattr(namespace, attr)
            if not isinstance(value, type):
                continue  # a string such as a version could read as a dtype, but is none
            try:
                name = np.dtype(value).name
            except TypeError:  # abstract types such as np.integer
                continue
            if name in DTYPES:
                found[attr] = name
    assert {attr: resolve_attribute(module, attr) for attr in found} == found


def test_unknown_attributes_resolve_to_none():
    assert resolve_attribute("numpy", "bfloat16") is None  # only through ml_dtypes or jax.numpy
    assert resolve_attribute("numpy", "zeros") is None
    assert resolve_attribute("torch", "float32") is None


SPELLINGS = sorted(set(DTYPES) | set(catalog._STRING_ALIASES))


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_string_spellings_read_as_numpy_reads_them(spelling):
    assert resolve_string(spelling) == numpy_reading(spelling)


@pytest.mark.parametrize("prefix", PREFIXES)
def test_byte_order_prefixes_numpy_accepts_read_the_same(prefix):
    accepted = [prefix + s for s in SPELLINGS if numpy_reading(prefix + s)]
    assert accepted  # NumPy takes a prefix on type codes ('<f4', '|b1')
    assert {s: resolve_string(s) for s in accepted} == {s: numpy_reading(s) for s in accepted}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_byte_order_prefixes_numpy_rejects_resolve_to_none(prefix):
    rejected = [prefix + s for s in SPELLINGS if numpy_reading(prefix + s) is None]
    assert {s: resolve_string(s) for s in rejected} == dict.fromkeys(rejected)


@pytest.mark.parametrize("spelling", FOREIGN)
def test_foreign_spellings_resolve_to_none(spelling):
    assert numpy_reading(spelling) is None  # the premise, checked against NumPy
    assert resolve_string(spelling) is None

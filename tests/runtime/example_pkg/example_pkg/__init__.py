"""A small package with its own tests, checked by `pytest --promolint-verify=example_pkg`."""

from example_pkg.ops import DEFAULT_SCALE, rescale, softclip

__all__ = ["DEFAULT_SCALE", "rescale", "softclip"]

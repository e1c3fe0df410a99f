"""promolint: dtype inference and type-promotion lints for NumPy and JAX code."""

__version__ = "0.1.0"

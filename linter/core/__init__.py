"""The lowest floor: dtype names and kinds, diagnostics, editor positions and atomic file writes.

Everything else may import it; it imports nothing from promolint.
"""

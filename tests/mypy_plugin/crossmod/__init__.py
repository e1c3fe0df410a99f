"""A package whose findings need types from another module: only the mypy plugin sees them."""

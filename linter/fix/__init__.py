"""Fixes: the text edits a finding proposes, with their applicability (safe, unsafe, display-only)."""

"""The command line: ``promolint check | reveal | run | table | join | lattice | ...``.

``main`` parses the flags (``options`` holds the ones commands share) and hands the work to the
driver; ``system_commands`` prints the promotion systems' tables and lattices.
"""

"""promolint inside other tools: the language server, flake8, Fixit and libcst codemods.

Each is a thin translation between the tool's objects and the driver's jobs; the paths users
configure (``promolint.fixit``, ``promolint.cst``, ``promolint.flake8_plugin``) re-export them.
"""

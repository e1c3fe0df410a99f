"""Flow: how values move through a program, whatever syntax describes it.

A front end walks its syntax in order and asks the flow to bind names, branch and merge, run
loops to a fixed point, try, define and call functions, and switch JAX's modes; it asks
``promolint.engine.expressions`` for what each expression computes.  Nothing here knows ``ast``,
libcst or mypy: syntax reaches the flow as opaque handles and front-end callbacks.
"""

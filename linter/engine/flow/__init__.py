"""Flow: how values move through a program, whatever syntax describes it.

A front end walks its syntax in order and asks the flow to bind names, branch and merge, run
loops to a fixed point, try, define and call functions, and switch JAX's modes; it asks
``promolint.engine.expressions`` for what each expression computes.  Nothing here knows ``ast``,
libcst or mypy: syntax reaches the flow as opaque handles and front-end callbacks.

One concept a module: ``flow`` (the flow of one analysis, which owns the rest), ``frames``
(names and modes at a point, and how branches merge them), ``functions`` (the program's
functions, run at their call sites), ``objects`` (objects of the program's classes) with
``classes`` (what a class definition says) and ``containers`` (dicts with literal keys, lists),
``modules`` (the program's other modules), ``higher_order`` (functions JAX calls: jit, vmap,
grad, tree maps), ``control`` (lax's loops and branches) with ``carries`` (a carry against what
a body returns), ``modes`` (switching x64 and promotion), ``trees`` (pytrees' leaves).
"""

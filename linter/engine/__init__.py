"""The dtype engine: what every expression computes, as (dtype, weak, library) under each mode.

By floor: ``values`` and ``symbolic`` (what a value is, as a function of unknown dtypes),
``catalog`` and ``calls`` (NumPy and JAX functions as data and their semantics), ``expressions``
and ``operations`` (operators), ``flow`` (names, branches, loops, functions, objects, modules),
``walker`` (the ``ast`` front end), and ``records`` (what the rules read of a run).
"""

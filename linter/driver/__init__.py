"""The driver: from paths to findings, for every command and front end.

One run over paths (``runner``): discovery, each file read once, the project pass (facts the
engine reads about other modules), the cache and its index, the prefilter, workers (``workers``);
and the jobs it runs per file (``jobs``): check, fix (``fixing`` for ``--fix``/``--diff``),
reveal, which the editors and plugins call too.  Below them, one file's diagnostics (``lint``:
the rules' findings in ``findings``, fix verification in ``verify``), ``reveal``, ``noqa``,
notebooks, the configuration and the baseline.
"""

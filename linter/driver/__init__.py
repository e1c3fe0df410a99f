"""The driver: from paths to findings, for every command and front end.

Discovery of files, the configuration, the project pass (facts the engine reads about other
modules), workers, the cache, the prefilter, ``noqa`` and the baseline; and the jobs run per file
(``lint`` for check and the editors, ``fixing`` for ``--fix``, ``reveal``).
"""

"""What the project around a module decides that the module's own text does not show.

A light pre-scan of the files of one run (``promolint.driver.project``) fills it in: which modules
switch ``jax_enable_x64`` at import, and which a module imports first.  A later full project pass
(module summaries, imports between the project's modules) can fill it in more precisely; the
engine reads only this record.
"""

from __future__ import annotations

from dataclasses import dataclass

# How many imports away from a module the engine reads the project's other modules
# (``promolint.engine.flow.modules``); the project pass hands it exactly those.
MODULE_DEPTH = 3
# At most this many modules that import a module feed its functions' parameters: each costs a run
# of its functions, and a parameter must hear from every caller or from none (a module many import
# keeps the calls of its own code only).
MAX_CALLERS = 8


@dataclass(frozen=True)
class ProjectFacts:
    """``x64_at_import``: the mode a module of the project sets at import before this module
    runs (one this module imports, or its package's ``__init__``); None when none does.
    ``x64_elsewhere``: the project may also switch x64 on where its effect here is not known (in a
    function, under a condition, from an environment variable, in a module this one does not
    import): x64 may be on or off here, whatever the module itself says.  ``module``, ``modules``
    and ``dependencies``: the module's name and the project's modules whose names its code may
    read (``promolint.engine.flow.modules``), those its imports reach.  ``callers``: the project's
    modules that import it (within ``MODULE_DEPTH`` imports) and name one of its functions,
    farthest first, whose calls of its functions feed their parameters
    (``promolint.engine.flow.functions``); none where more than ``MAX_CALLERS`` do.
    ``callers_complete``: no other module imports it (one that does may call a function another
    hands it as a value)."""

    x64_at_import: bool | None = None
    x64_elsewhere: bool = False
    module: str = ""  # the module's qualified name
    modules: tuple[tuple[str, str], ...] = ()  # (qualified name, path) of the project's modules its code may read
    dependencies: str = ""  # a digest of those modules' contents: the module's findings change with them
    callers: tuple[str, ...] = ()  # qualified names of the modules that import it, farthest first
    callers_complete: bool = True  # they are all the modules that import it within MODULE_DEPTH

    def key(self) -> str:
        """A short text that tells facts apart, for caches."""
        return f"{self.x64_at_import}|{self.x64_elsewhere}|{self.module}|{self.dependencies}"

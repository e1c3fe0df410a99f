"""promolint's mypy plugin: the engine's diagnostics in editors (see the mypy plugin issue)."""

from mypy.plugin import Plugin


class PromolintPlugin(Plugin):
    pass


def plugin(version: str) -> type[Plugin]:
    return PromolintPlugin

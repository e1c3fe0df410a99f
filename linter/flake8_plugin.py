"""promolint as a flake8 plugin, at the path earlier releases registered (``promolint.flake8_plugin:Plugin``).

The plugin lives in ``promolint.integrations.flake8``; this module keeps the path users may name.
"""

from promolint.integrations.flake8 import Plugin

__all__ = ["Plugin"]

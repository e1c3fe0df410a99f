"""Regenerate the golden files: ``python -m tests.mypy_plugin.regenerate`` from the repository root.

Runs mypy with the plugin over ``cases/`` under every configuration of ``mypy_harness.CONFIGS``
and writes ``golden/<config>/<case>.py``: the case's source with mypy's messages merged in as
``# MYPY:`` comments, under a header naming the mypy version.  Review the diff before committing.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mypy_harness as harness


def main() -> int:
    if not harness.HAS_JAXTYPING:
        print("jaxtyping is not importable: install it first (its golden files would be dropped)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="promolint-golden-"))
    try:
        for config in harness.CONFIGS:
            target = harness.GOLDEN / config
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            for case, text in harness.golden_outputs(config, work).items():
                (target / case).write_text(text)
            print(f"{config}: {len(list(target.glob('*.py')))} files", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

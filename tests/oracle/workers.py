"""Worker subprocesses, one per JAX mode (JAX fixes its mode when it is imported), each writing
its result as JSON: the oracle's and the fuzzer's tests start them together and each test waits
for its own mode's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def worker_environment(**settings: str) -> dict[str, str]:
    """This process's environment without its JAX settings, on the CPU, importing this checkout."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    environment.update(JAX_PLATFORMS="cpu", PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH")])))
    environment.update(settings)
    return environment


class ModeWorkers:
    """Workers started with ``start(mode, command)``; ``command`` gets ``--output FILE`` appended."""

    def __init__(self, environment: dict[str, str], timeout: float, prefix: str):
        self.environment, self.timeout = environment, timeout
        self._folder = tempfile.TemporaryDirectory(prefix=prefix)
        self.folder = Path(self._folder.name)  # for the workers' input files too
        self._processes: dict[str, tuple[subprocess.Popen, Path]] = {}

    def start(self, mode: str, command: list[str]) -> None:
        output = self.folder / f"{mode}.json"
        self._processes[mode] = (subprocess.Popen([sys.executable, *command, "--output", str(output)], env=self.environment,
                                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
                                 output)  # fmt: skip

    def started(self, mode: str) -> bool:
        return mode in self._processes

    def result(self, mode: str) -> dict:
        process, output = self._processes[mode]
        _, stderr = process.communicate(timeout=self.timeout)
        assert process.returncode == 0, f"worker {mode} failed:\n{stderr[-4000:]}"
        return json.loads(output.read_text())

    def close(self) -> None:
        for process, _ in self._processes.values():
            if process.poll() is None:
                process.kill()
        self._folder.cleanup()

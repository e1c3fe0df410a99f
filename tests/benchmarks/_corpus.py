"""The pinned JAX-ecosystem corpus the benchmarks lint: downloaded with pip, never committed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

# Versions pinned so figures compare across runs (about 600k lines of JAX code).
WHEELS = {
    "jax": "0.10.2",
    "flax": "0.12.8",
    "optax": "0.2.8",
    "equinox": "0.13.8",
    "diffrax": "0.7.2",
    "chex": "0.1.92",
    "orbax-checkpoint": "0.12.8",
    "dm-haiku": "0.0.17",
    "distrax": "0.1.9",
    "jraph": "0.0.6.dev0",
    "lineax": "0.1.1",
    "optimistix": "0.1.0",
    "jaxtyping": "0.3.11",
}
DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".bench_cache" / "corpus"


def fetch(cache: Path = DEFAULT_CACHE, names: list[str] | None = None) -> Path:
    """Download and unpack the wheels into ``cache``/src; return that folder."""
    wheels, source = cache / "wheels", cache / "src"
    wheels.mkdir(parents=True, exist_ok=True)
    for name in names or list(WHEELS):
        target = source / name
        if target.exists():
            continue
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "-d", str(wheels), f"{name}=={WHEELS[name]}"], check=True)  # fmt: skip
        prefix = name.replace("-", "_").lower()
        wheel = next(w for w in sorted(wheels.glob("*.whl")) if w.name.lower().startswith(f"{prefix}-{WHEELS[name]}"))
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.namelist() if m.endswith(".py") and ".dist-info/" not in m]
            archive.extractall(target, members)
    return source


def python_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))

"""The primer's projects (projects.toml): load them, download each once with pip, check its sha256
and unpack its Python files into a gitignored cache.  Downloaded code is never committed."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PROJECTS = HERE / "projects.toml"
# Projects kept out of development: linted and judged, never read to change a rule (docs/primer.md).
HELD_OUT = HERE / "held_out.toml"
DEFAULT_CACHE = ROOT / ".primer_cache"


class FetchError(Exception):
    """A project that could not be downloaded, verified or unpacked: reported, never fatal."""


@dataclass(frozen=True)
class Project:
    name: str
    version: str
    file: str  # the wheel or sdist pip downloads
    sha256: str
    packages: tuple[str, ...]  # folders linted, relative to the unpacked root
    style: str = ""

    @property
    def is_wheel(self) -> bool:
        return self.file.endswith(".whl")


def load_projects(path: Path = PROJECTS) -> list[Project]:
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    return [Project(p["name"], p["version"], p["file"], p["sha256"], tuple(p["packages"]), p.get("style", ""))
            for p in table["project"]]  # fmt: skip


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download(project: Project, cache: Path = DEFAULT_CACHE) -> Path:
    """The project's file in ``cache``/downloads, fetched with pip when missing, its sha256 checked."""
    target = cache / "downloads" / project.file
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            kind = "--only-binary=:all:" if project.is_wheel else "--no-binary=:all:"
            done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", kind, "-d", scratch,
                                   f"{project.name}=={project.version}"], capture_output=True, text=True)  # fmt: skip
            fetched = Path(scratch) / project.file
            if done.returncode != 0 or not fetched.exists():
                reason = (done.stderr.strip().splitlines() or ["no file of that name"])[-1]
                raise FetchError(f"pip download {project.name}=={project.version} gave no {project.file}: {reason}")
            fetched.replace(target)
    actual = _sha256(target)
    if actual != project.sha256:
        raise FetchError(f"{project.file}: sha256 {actual} is not the pinned {project.sha256}")
    return target


def fetch(project: Project, cache: Path = DEFAULT_CACHE) -> Path:
    """The folder holding the project's unpacked Python files (its packages inside), unpacked once."""
    root = cache / "src" / f"{project.name}-{project.version}"
    if (root / ".unpacked").exists():
        return root
    archive = download(project, cache)
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    try:
        _unpack(archive, root, project.is_wheel)
    except (OSError, zipfile.BadZipFile, tarfile.TarError) as error:
        raise FetchError(f"cannot unpack {archive.name}: {error}") from None
    missing = [p for p in project.packages if not (root / p).is_dir()]
    if missing:
        raise FetchError(f"{archive.name} has no folder {', '.join(missing)}")
    (root / ".unpacked").write_text(project.sha256 + "\n")
    return root


def _unpack(archive: Path, root: Path, is_wheel: bool) -> None:
    """Python files only; an sdist loses its top folder (``name-version/``)."""
    if is_wheel:
        with zipfile.ZipFile(archive) as wheel:
            for name in wheel.namelist():
                if name.endswith(".py") and ".dist-info/" not in name and _inside(name):
                    _write(root / name, wheel.read(name))
        return
    with tarfile.open(archive) as sdist:
        for member in sdist.getmembers():
            _, _, inner = member.name.partition("/")
            if member.isfile() and inner.endswith(".py") and _inside(inner):
                _write(root / inner, sdist.extractfile(member).read())


def _inside(name: str) -> bool:
    """A member name that stays inside the folder it is unpacked into."""
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def python_files(root: Path, project: Project) -> list[Path]:
    return sorted(f for package in project.packages for f in (root / package).rglob("*.py"))

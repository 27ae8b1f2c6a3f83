"""One writer at a time on a Chroma server: a lease held in the server itself.

An embedded index is locked with ``flock`` on its folder; a server has no folder we share, and two writers there
deleted each other's new generations ("unexpected NotFoundError", both updates lost). The lease is a small
collection ``<prefix>-writer-lease`` whose metadata names its owner and when it expires; creating a collection is
atomic on the server, so only one writer creates it. The owner renews it every minute while it writes; a writer
that died stops renewing, and after ``LEASE_SECONDS`` another may take over, through a second atomic create (a
takeover marker) so two writers cannot both take over the same expired lease.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

from rag.errors import RagError

LEASE_SUFFIX = "-writer-lease"
LEASE_SECONDS = 300.0
RENEW_SECONDS = 60.0


def _when(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="seconds")


def _held(client: Any, name: str) -> dict[str, Any] | None:
    try:
        return dict(client.get_collection(name).metadata or {})
    except Exception:  # not there (any chromadb error type)
        return None


def _create(client: Any, name: str, metadata: dict[str, Any]) -> bool:
    """Create ``name`` if nobody has: True if this call made it."""
    try:
        client.create_collection(name, metadata=metadata)
        return True
    except Exception:  # already exists (the error type differs between chromadb versions)
        return False


def acquire(client: Any, prefix: str, location: str, seconds: float = LEASE_SECONDS) -> dict[str, Any]:
    """Take the lease or raise ``RagError`` naming who holds it; returns this writer's lease."""
    name = prefix + LEASE_SUFFIX
    now = time.time()
    mine = {"owner": uuid.uuid4().hex, "host": socket.gethostname(), "pid": os.getpid(), "since": now,
            "expires": now + seconds}
    if _create(client, name, mine):
        return mine
    held = _held(client, name) or {}
    if float(held.get("expires", 0)) > now:
        raise RagError(f"another `rag ingest` (host {held.get('host')}, pid {held.get('pid')}, since "
                       f"{_when(float(held.get('since', now)))}) is writing {location}; wait for it to finish "
                       f"(if it died, its lease expires at {_when(float(held['expires']))})")
    marker = f"{name}-takeover-{held.get('owner', 'none')}"
    if not _create(client, marker, {"owner": mine["owner"]}):
        raise RagError(f"another `rag ingest` is taking over the expired writer lease of {location}; try again")
    try:
        client.delete_collection(name)
        if not _create(client, name, mine):
            raise RagError(f"another `rag ingest` took the writer lease of {location}; try again")
    finally:
        client.delete_collection(marker)
    return mine


def release(client: Any, prefix: str, lease: dict[str, Any]) -> None:
    name = prefix + LEASE_SUFFIX
    held = _held(client, name)
    if held is not None and held.get("owner") == lease["owner"]:
        client.delete_collection(name)


@contextmanager
def server_lease(client: Any, prefix: str, location: str) -> Iterator[None]:
    """Hold the lease while the block runs, renewing it in the background."""
    lease = acquire(client, prefix, location)
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(RENEW_SECONDS):
            try:
                collection = client.get_collection(prefix + LEASE_SUFFIX)
                if (collection.metadata or {}).get("owner") == lease["owner"]:
                    collection.modify(metadata={**lease, "expires": time.time() + LEASE_SECONDS})
            except Exception:  # the server is briefly unreachable: the next renewal tries again
                pass

    renewer = threading.Thread(target=renew, name="chroma-lease", daemon=True)
    renewer.start()
    try:
        yield
    finally:
        stop.set()
        renewer.join()
        release(client, prefix, lease)

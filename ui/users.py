"""Who may log in to ``rag serve``, and where each person's conversations are kept.

A users file (``RAG_UI_USERS``) holds one ``name:hash`` line per person, written by ``rag users add NAME`` (which
prompts for the password). The hash is scrypt from the standard library (a memory-hard password KDF, RFC 7914)
with a random salt: ``scrypt$<n>$<r>$<p>$<salt>$<key>``. ``RAG_UI_AUTH=user:password`` stays for one person.
Each logged-in person's conversations live in ``<history>/users/<name>/`` (folder 700, files 600); without a
login (loopback, one person) they stay in ``<history>/`` as before.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag.errors import InputError, RagError

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
_SCRYPT = (2**14, 8, 1)  # n, r, p: ~16 MB and ~50 ms a check here
_USERS_HELP = "Add users with `rag users add NAME --file PATH`"


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    n, r, p = _SCRYPT
    key = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(key)}"


def verify_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, key = stored.split("$")
        expected = base64.b64decode(key)
        got = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(expected))
    except (ValueError, TypeError, UnicodeEncodeError):
        return False
    return kind == "scrypt" and hmac.compare_digest(got, expected)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def read_users(path: Path) -> dict[str, str]:
    """name → stored hash, from a users file (``InputError`` with the line for a malformed one)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read the users file ({exc})", _USERS_HELP) from exc
    users: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, stored = line.strip().partition(":")
        if not sep or not NAME.match(name) or not stored.startswith("scrypt$") or stored.count("$") != 5:
            raise InputError(path, "not a `name:scrypt$…` line", _USERS_HELP, line=number)
        if name in users:
            raise InputError(path, f"user {name!r} is listed twice", "Keep one line per user", line=number)
        users[name] = stored
    if not users:
        raise InputError(path, "lists no users", _USERS_HELP)
    return users


def add_user(path: Path, name: str, password: str) -> bool:
    """Add ``name`` (or set a new password); the file is rewritten whole (mode 600). True if the user is new."""
    from ui.history import write_atomic

    if not NAME.match(name):
        raise RagError(f"user name {name!r}: use 1-64 letters, digits, '.', '_' or '-', "
                       "starting with a letter or digit")
    if len(password) < 8:
        raise RagError("the password must have at least 8 characters")
    users = read_users(path) if Path(path).is_file() and Path(path).read_text(encoding="utf-8").strip() else {}
    new = name not in users
    users[name] = hash_password(password)
    write_atomic(Path(path), "".join(f"{n}:{h}\n" for n, h in users.items()), mode=0o600)
    return new


def parse_auth(value: str | None) -> tuple[str, str] | None:
    """``RAG_UI_AUTH``: one ``user:password``."""
    if not value:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user or not password:
        raise RagError("RAG_UI_AUTH must be user:password (both non-empty)")
    if re.search(r",\s*[\w.-]+:", password):
        raise RagError("RAG_UI_AUTH holds one user:password; for several people use a users file "
                       "(RAG_UI_USERS=PATH, filled by `rag users add NAME --file PATH`)")
    if not NAME.match(user):
        raise RagError(f"RAG_UI_AUTH user {user!r}: use letters, digits, '.', '_' or '-' (its folder is named by it)")
    return user, password


def login_check(auth: str | None, users_file: Path | None) -> Callable[[str, str], bool] | None:
    """The check Gradio asks at login, from a users file and/or ``RAG_UI_AUTH``; None: no login."""
    single = parse_auth(auth)
    users = read_users(users_file) if users_file else {}
    if single is None and not users:
        return None

    def check(name: str, password: str) -> bool:
        given, wanted = (f"{a}:{b}".encode("utf-8", "surrogatepass") for a, b in ((name, password), single or ("", "")))
        if single is not None and hmac.compare_digest(given, wanted):  # bytes: str must be ASCII there
            return True
        stored = users.get(name)
        return stored is not None and verify_password(password, stored)

    return check


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def user_dir(root: Path, name: str | None) -> Path:
    """Where this person's conversations live (created 700): ``root`` without a login."""
    if not name:
        return Path(root)
    if not NAME.match(name):
        raise RagError(f"not a user name: {name!r}")
    folder = Path(root) / "users" / name
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    os.chmod(folder.parent, 0o700)
    return folder


def users_parser(commands: Any) -> None:
    users = commands.add_parser("users", help="logins for `rag serve` (a users file, see RAG_UI_USERS)")
    users.add_argument("action", choices=["add"], help="add a user, or set a new password (prompted for)")
    users.add_argument("name")
    users.add_argument("--file", dest="ui_users", type=Path, metavar="PATH", help="users file (default: $RAG_UI_USERS)")


def cmd_users(args: Any) -> int:
    """``rag users add NAME``: the password is prompted for twice on a terminal, else read from one stdin line."""
    from rag.settings import Settings

    path = args.ui_users or Settings().ui.ui_users
    if path is None:
        raise RagError("no users file: pass --file PATH or set RAG_UI_USERS=PATH")
    if sys.stdin.isatty():
        password = getpass.getpass(f"password for {args.name}: ")
        if getpass.getpass("again: ") != password:
            raise RagError("the two passwords differ; nothing was changed")
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    new = add_user(Path(path), args.name, password)
    print(f"{'added' if new else 'updated'} {args.name} in {path}; serve with RAG_UI_USERS={path} rag serve")
    return 0

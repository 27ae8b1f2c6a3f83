"""Logins for a team (ui.users): a users file of scrypt hashes written by `rag users add`, and each person's
conversations private to them, checked against the real Gradio server and its API."""

from __future__ import annotations

import io
import json
import stat
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from rag.errors import InputError, RagError
from ui.users import add_user, hash_password, login_check, parse_auth, read_users, verify_password

from test_cli import run_cli
from ui_server import TRIM_KV, client, running_app

ALICE, BOB = ("alice", "alice-pw-1"), ("bob", "bob-pw-22")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_passwords_are_salted_scrypt_hashes() -> None:
    first, second = hash_password("s3cret-pw"), hash_password("s3cret-pw")
    assert first.startswith("scrypt$16384$8$1$") and first != second and "s3cret" not in first
    assert verify_password("s3cret-pw", first) and verify_password("s3cret-pw", second)
    assert not verify_password("s3cret-pX", first) and not verify_password("s3cret-pw", "scrypt$bad")


def test_rag_users_add_writes_a_private_file_and_updates_a_password(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    users = tmp_path / "users"
    for name, password in (ALICE, BOB, ("alice", "alice-new-pw")):
        monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
        code, out, _ = run_cli(capsys, "users", "add", name, "--file", str(users))
        assert code == 0 and name in out
    assert "updated alice" in out and _mode(users) == 0o600
    stored = read_users(users)
    assert list(stored) == ["alice", "bob"] and verify_password("alice-new-pw", stored["alice"])
    check = login_check(None, users)
    assert check("bob", BOB[1]) and not check("alice", ALICE[1]) and not check("carol", BOB[1])
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    code, _, err = run_cli(capsys, "users", "add", "carol", "--file", str(users))
    assert code == 2 and "at least 8 characters" in err and list(read_users(users)) == ["alice", "bob"]


@pytest.mark.parametrize(("text", "message"), [("alice:plain-password\n", "not a `name:scrypt"),
                                                ("../x:scrypt$1$2$3$4$5\n", "not a `name:scrypt"), ("", "lists no users")])
def test_a_malformed_users_file_names_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "users"
    path.write_text("# team\n" + text)
    with pytest.raises(InputError, match=message) as error:
        read_users(path)
    assert error.value.line in (2, None)


def test_several_users_in_rag_ui_auth_is_an_error_not_one_odd_password() -> None:
    with pytest.raises(RagError, match="RAG_UI_USERS"):
        parse_auth("alice:pw1,bob:pw2")
    assert parse_auth("ann:s3cret:x") == ("ann", "s3cret:x")
    check = login_check("ann:pässwört", None)
    assert check("ann", "pässwört") and not check("ann", "passwort") and not check("ann", "p\udcffss")


def test_each_user_sees_only_their_own_conversations(seed_index: Path, tmp_path: Path) -> None:
    users = tmp_path / "users"
    for name, password in (ALICE, BOB):
        add_user(users, name, password)
    with tempfile.TemporaryDirectory(prefix="ui-history-") as folder, running_app(
            seed_index, Path(folder), auth=login_check(None, users), ui_users=users) as app:
        history = Path(folder)
        with pytest.raises(Exception):
            client(app.url, ("alice", "wrong-password")).predict("What is TRIM-KV?", api_name="/ask")
        alice, bob = client(app.url, ALICE), client(app.url, BOB)
        first = alice.predict("What is TRIM-KV?", "new", api_name="/ask")
        mine = first["conversation_id"]
        follow = alice.predict("How is it trained?", mine, api_name="/ask")
        assert TRIM_KV in [c["paper_id"] for c in follow["citations"]] and follow["conversation_id"] == mine
        saved = history / "users" / "alice" / f"{mine}.json"
        stored = json.loads(saved.read_text(encoding="utf-8"))
        assert [t["question"] for t in stored["turns"]] == ["What is TRIM-KV?", "How is it trained?"]
        assert _mode(saved) == 0o600 and _mode(saved.parent) == 0o700 and _mode(history / "users") == 0o700

        with pytest.raises(Exception, match="no conversation"):  # bob cannot append to (or read) alice's
            bob.predict("And how fast is it?", mine, api_name="/ask")
        theirs = bob.predict("What is Tactic?", "new", api_name="/ask")["conversation_id"]
        assert theirs != mine and (history / "users" / "bob" / f"{theirs}.json").is_file()
        assert [t["question"] for t in json.loads(saved.read_text(encoding="utf-8"))["turns"]] == [
            "What is TRIM-KV?", "How is it trained?"]  # unchanged by bob's attempt
        assert not list(history.glob("*.json"))  # nothing in the shared folder

        from ui.app import ChatApp

        handlers = ChatApp(app.engine)  # the handlers' view: each user's list, and what the other's id opens
        as_alice, as_bob = SimpleNamespace(username="alice"), SimpleNamespace(username="bob")
        assert [c.id for c in handlers.conversations(as_alice).saved()] == [mine]
        assert [c.id for c in handlers.conversations(as_bob).saved()] == [theirs]
        opened = handlers.conversations(as_bob).open(mine)
        assert opened.id != mine and not opened.record.turns
        assert "<mark>" in handlers.paper_view(mine, 0, 1, TRIM_KV, as_alice)  # her answer's quoted sentences
        assert "<mark>" not in handlers.paper_view(mine, 0, 1, TRIM_KV, as_bob)  # nothing of hers for bob

"""kit/principal.py: whether a caller is a connected app is one answer, told by the
credential's id, that a stored row of its calls and the caller agree on."""

from __future__ import annotations

from skillgate.api_keys.policy import Ruling
from skillgate.db.base import new_id
from skillgate.executor.service import denied
from skillgate.kit.principal import GRANT_ID_PREFIX, KeyIdentity, Principal, is_grant_id


def _identity(key_id: str) -> KeyIdentity:
    return KeyIdentity(
        key_id=key_id, name="n", key_prefix="sk_abcd", scopes=("sample",), expires_at=None,
        revoked=False, user_id="usr_1", email="a@example.com", display_name="A", plan="free",
    )  # fmt: skip


def test_a_grants_id_makes_a_connected_app_and_a_keys_an_api_key() -> None:
    grant = Principal.of_key(_identity(new_id(GRANT_ID_PREFIX)))
    assert grant.via == "oauth"
    assert grant.connected_app is True
    assert grant.budget == "oauth:usr_1"  # one budget for all of the user's apps
    key_id = new_id("key")
    key = Principal.of_key(_identity(key_id))
    assert key.via == "api_key"
    assert key.connected_app is False
    assert key.budget == key_id
    person = Principal("usr_1", "a@example.com", "A", "free", "session")
    assert person.connected_app is False
    assert person.budget == "usr_1"


def test_only_the_grant_prefix_is_a_grant_id() -> None:
    assert is_grant_id(f"{GRANT_ID_PREFIX}_abc")
    assert not is_grant_id("key_abc")
    assert not is_grant_id(f"{GRANT_ID_PREFIX}abc")  # the underscore is part of it
    assert not is_grant_id("")


def test_a_refusal_names_the_holder_and_its_steps_from_the_same_answer() -> None:
    ruling = Ruling("deny", None)
    app = denied(Principal.of_key(_identity(new_id(GRANT_ID_PREFIX))), ruling, "s", "e")
    assert app.message == "The policy's default of this connected app's policy denies s e."
    assert "Connected apps" in app.steps["http"]
    key = denied(Principal.of_key(_identity(new_id("key"))), ruling, "s", "e", "too big")
    assert key.message == "The policy's default of this API key's policy refuses s e: too big."
    assert "Connected apps" not in key.steps["http"]
    assert "key's owner" in key.steps["http"]

"""`covers(parent, child)`: a key may only create keys no broader than itself."""

from __future__ import annotations

import pytest

from skillgate.api_keys.scopes import covers
from skillgate.api_keys.service import ApiKeys
from skillgate.db.session import commit
from skillgate.errors import ScopeNotAllowed
from tests.conftest import Harness


@pytest.mark.parametrize(
    ("parent", "child", "expected"),
    [
        (["*"], ["*"], True),
        (["*"], ["github", "slack:read"], True),
        (["github"], ["github"], True),
        (["github"], ["github:read"], True),
        (["github", "slack:read"], ["slack:read", "github"], True),
        (["github:read"], ["github:read"], True),
        (["github"], ["*"], False),
        (["github:read"], ["github"], False),
        (["github:read"], ["*"], False),
        (["github"], ["slack"], False),
        (["github"], ["github", "slack:read"], False),
        (["slack:read"], ["github:read"], False),
    ],
)
def test_covers(parent: list[str], child: list[str], expected: bool) -> None:
    assert covers(parent, child) is expected


async def test_service_refuses_a_key_broader_than_its_parent(harness: Harness) -> None:
    """Defence in depth below the route's `*` check: the service itself compares scopes."""
    user = await harness.user(plan="pro")
    service = harness.service(ApiKeys)
    async with harness.sessionmaker() as s:
        for parent, child in ((["sample:read"], ["sample"]), (["sample"], None)):
            with pytest.raises(ScopeNotAllowed) as caught:
                await service.create(s, user.id, "k", child, parent_scopes=parent)
            assert caught.value.message.startswith("scopes: ")
        key, _ = await service.create(s, user.id, "k", ["sample:read"], parent_scopes=["sample"])
        assert key.scopes == ["sample:read"]
        await commit(s)

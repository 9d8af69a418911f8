"""The device flow's logic: start, poll (with pacing), look up and approve user codes.

Wrong user codes are throttled per user and per IP (20 in 15 minutes); once
throttled, even a correct code is refused until the window passes. Starting a
flow is throttled per client address (30 in 10 minutes) and refused while the
table holds too many pending codes.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.models import ApiKey
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.api_keys.service import ApiKeys
from skillgate.db.base import utcnow
from skillgate.device import codes
from skillgate.device.models import DeviceCode
from skillgate.device.repository import DeviceCodeRepository
from skillgate.device.schemas import DevicePoll, DeviceStart, DeviceUser
from skillgate.errors import (
    BadRequest,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    SkillGateError,
)
from skillgate.kit.public import PublicUrls
from skillgate.kit.ratecount import Counter, Window, release, spend
from skillgate.kit.vault import Binding, Vault
from skillgate.users.repository import UserRepository

log = structlog.get_logger(__name__)
MAX_WRONG_CODES = 20
WRONG_CODE_WINDOW = 900
_KEY_ID = re.compile(r"key_[A-Za-z0-9]{1,60}")
_WRONG_BY_USER = Window("device:wrong:user", MAX_WRONG_CODES, WRONG_CODE_WINDOW)
_WRONG_BY_IP = Window("device:wrong:ip", MAX_WRONG_CODES, WRONG_CODE_WINDOW)
_STARTS = Window("device:start", codes.STARTS_PER_ADDRESS, codes.START_WINDOW_SECONDS)
_INVALID = "That code is invalid or expired: check the code your terminal shows, or start again."


class DeviceError(SkillGateError):
    """A token-endpoint answer with its own status word (`expired`, `already_used`)."""

    status = 400

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        self.code = code
        super().__init__(message, extra=extra)


class KeyNotReplaceable(BadRequest):
    """The key picked for replacement is not one of the user's active keys (any more)."""


def _binding(device: DeviceCode) -> Binding:
    return Binding(device.id, device.user_id or "", "device")


class DeviceFlow:
    """One per app; every call takes the request's database session (which commits).

    `counter`: the shared fixed-window counter (start and wrong-code throttles);
    `redis`: paces polls across instances when set (else the row paces them);
    `vault`: seals a device's new API key until its first `complete` poll;
    `keys`: creating and replacing that key (a replaced key leaves the verifier's
    cache once the transaction commits: ApiKeys.revoke registers it).
    """

    def __init__(
        self,
        *,
        public: PublicUrls,
        counter: Counter,
        redis: Any,
        vault: Vault,
        keys: ApiKeys,
    ) -> None:
        self.public = public  # the links' address, for the request being served
        self.counter = counter
        self.redis = redis
        self.vault = vault
        self.keys = keys

    # --- the client side (no authentication) -----------------------------------

    async def start(self, db: AsyncSession, client_name: str | None, ip: str) -> DeviceStart:
        await self._throttle_start(ip)
        repo = DeviceCodeRepository(db)
        await repo.purge_expired_before(
            utcnow() - timedelta(seconds=codes.PURGE_AFTER_EXPIRY_SECONDS)
        )
        now = utcnow()
        await self._refuse_when_full(repo, now)
        for _ in range(5):  # a user-code collision is astronomically rare; retry anyway
            device_code, user_code = codes.new_device_code(), codes.new_user_code()
            row = DeviceCode(
                device_code_hash=codes.digest(device_code),
                user_code_hash=codes.digest(user_code),
                client_name=(client_name or "").strip()[:100] or None,
                interval=codes.INTERVAL_SECONDS,
                created_at=now,
                expires_at=now + timedelta(seconds=codes.LIFETIME_SECONDS),
            )
            if not await repo.insert(row):
                continue
            shown = codes.display(user_code)
            return DeviceStart(
                device_code=device_code,
                user_code=shown,
                verification_uri=f"{self.public.app}/device",
                verification_uri_complete=f"{self.public.app}/device?user_code={shown}",
                expires_in=codes.LIFETIME_SECONDS,
                interval=codes.INTERVAL_SECONDS,
            )
        raise BadRequest("Could not allocate a device code; retry.")

    async def _throttle_start(self, ip: str) -> None:
        """A fixed window per client address, on the shared counter (Redis when set)."""
        spent = await spend(self.counter, [(_STARTS, ip)])
        if not spent.allowed:
            raise RateLimited(
                f"Too many sign-ins started from this address; retry in {spent.retry_after} s.",
                retry_after=spent.retry_after,
            )

    async def _refuse_when_full(self, repo: DeviceCodeRepository, now: datetime) -> None:
        """Bound the table: expired codes are purged, unexpired pending ones are capped."""
        pending = await repo.count_pending(now)
        if pending >= codes.MAX_PENDING_CODES:
            log.warning("device sign-ins refused: too many pending codes", pending=pending)
            raise ServiceUnavailable(
                "Too many sign-ins are pending; retry in a minute.",
                headers={"Retry-After": str(codes.FULL_RETRY_AFTER_SECONDS)},
            )

    async def poll(self, db: AsyncSession, device_code: object) -> DevicePoll:
        if not codes.is_device_code(device_code):
            raise BadRequest(
                "device_code: expected the 40-character hex code from /auth/device/code."
            )
        assert isinstance(device_code, str)
        repo = DeviceCodeRepository(db)
        row = await repo.by_device_code(codes.digest(device_code.lower()))
        if row is None:
            raise NotFound("Unknown device code; start again with POST /auth/device/code.")
        now = utcnow()
        if row.status == "consumed":
            raise DeviceError("already_used", "This device code was already used; start again.")
        if row.status == "denied":
            raise DeviceError(
                "access_denied", "The sign-in was denied in the browser.", status="denied"
            )

        if row.expires_at <= now:
            raise DeviceError(
                "expired_token", "The device code expired; start again.", status="expired"
            )
        if await self._too_fast(repo, row, now):
            row.interval += codes.SLOW_DOWN_STEP
            await repo.save()
            return DevicePoll(status="pending", error="slow_down", interval=row.interval)
        if row.status != "authorized":
            return DevicePoll(status="pending", error="authorization_pending")
        return await self._consume(db, repo, row)

    async def _too_fast(self, repo: DeviceCodeRepository, row: DeviceCode, now: datetime) -> bool:
        """Polled sooner than the interval? Paced in Redis when configured, else in the row."""
        if self.redis is not None:
            try:
                # SET NX answers None (not False) when the key is still there.
                first = await self.redis.set(
                    f"sg:device:poll:{row.id}", "1", nx=True, px=row.interval * 1000
                )
            except Exception:  # Redis down: pace in the row instead
                log.warning("device poll pacing falls back to the database")
            else:
                return not first

        last = row.last_polled_at
        row.last_polled_at = now
        await repo.save()
        return last is not None and (now - last).total_seconds() < row.interval

    async def _consume(
        self, db: AsyncSession, repo: DeviceCodeRepository, row: DeviceCode
    ) -> DevicePoll:
        sealed = row.api_key_sealed  # read first: the UPDATE below also clears the loaded row
        # Only the first poll that sees `authorized` wins; a racing one gets already_used.
        if not await repo.consume(row.id):
            raise DeviceError("already_used", "This device code was already used; start again.")
        user = await UserRepository(db).get(row.user_id or "")
        if user is None:
            raise NotFound("The approving account no longer exists; start again.")
        key = self.vault.open(sealed, _binding(row))["key"] if sealed else None
        return DevicePoll(
            status="complete",
            user=DeviceUser(email=user.email, display_name=user.display_name),
            api_keys_url=f"{self.public.app}/keys",
            api_key=key,
            access_token=key,
            token_type="Bearer" if key else None,
        )

    # --- the browser side (a signed-in user) ------------------------------------

    async def lookup(self, db: AsyncSession, user_id: str, user_code: str, ip: str) -> DeviceCode:
        """Reserve a guess on the user's and the address's counters first (atomic: no
        more than MAX_WRONG_CODES guesses are evaluated, however many arrive at once),
        evaluate, and give the reservation back when the code was right."""
        counter = self.counter
        spent = await spend(counter, [(_WRONG_BY_USER, user_id), (_WRONG_BY_IP, ip)])
        if not spent.allowed:
            await release(counter, spent)  # refused unevaluated: the count stays at the limit
            raise RateLimited(
                "Too many wrong codes; wait 15 minutes and try again.",
                retry_after=spent.retry_after,
            )
        normalized = codes.normalize_user_code(user_code)
        row = None
        if normalized is not None:
            row = await DeviceCodeRepository(db).by_user_code(codes.digest(normalized))
        if row is None or row.status != "pending" or row.expires_at <= utcnow():
            raise BadRequest(_INVALID)  # the reservation stays: a wrong guess counts
        await release(counter, spent)
        assert normalized is not None
        row.user_code_display = codes.display(normalized)
        return row

    async def authorize(
        self,
        db: AsyncSession,
        user_id: str,
        user_code: str,
        ip: str,
        *,
        create_key: bool = False,
        key_name: str | None = None,
        replace_key: str | None = None,
    ) -> ApiKey | None:
        """Approve the code, optionally creating an API key the device receives once;
        `replace_key` (one of the user's active keys) is revoked first, in the same
        transaction, so the new key fits the plan's limit. Answers the replaced key."""
        replaced = await self._replace_key(db, user_id, replace_key) if replace_key else None
        row = await self.lookup(db, user_id, user_code, ip)
        row.status = "authorized"
        row.user_id = user_id
        if create_key:
            name = (key_name or "").strip() or f"Device: {row.client_name or 'svc'}"
            _, full_key = await self.keys.create(db, user_id, name[:200], None)
            row.api_key_sealed = self.vault.seal({"key": full_key}, _binding(row))
        await DeviceCodeRepository(db).save()
        return replaced

    async def _replace_key(self, db: AsyncSession, user_id: str, key_id: str) -> ApiKey:
        key = None
        if _KEY_ID.fullmatch(key_id):  # never hand the database a stray byte (NUL, ...)
            key = await ApiKeyRepository(db).get_for_user(key_id, user_id)
        if key is None or not key.is_active(utcnow()):
            raise KeyNotReplaceable(
                "The key to replace is no longer one of your active keys; choose again."
            )
        return await self.keys.revoke(db, user_id, key.id)

    async def deny(self, db: AsyncSession, user_id: str, user_code: str, ip: str) -> None:
        """Refuse the code: the polling client is told `access_denied` and stops."""
        row = await self.lookup(db, user_id, user_code, ip)
        row.status = "denied"
        await DeviceCodeRepository(db).save()

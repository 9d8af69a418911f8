"""The device flow's logic: start, poll (with pacing), look up and approve user codes.

Wrong user codes are throttled per user and per IP (20 in 15 minutes); once
throttled, even a correct code is refused until the window passes. Starting a
flow is throttled per client address (30 in 10 minutes) and refused while the
table holds too many pending codes.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import structlog
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.service import ApiKeys
from skillgate.db.base import utcnow
from skillgate.device import codes
from skillgate.device.models import DeviceCode
from skillgate.errors import (
    BadRequest,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    SkillGateError,
)
from skillgate.http.state import AppState
from skillgate.kit.ratecount import Window, release, spend
from skillgate.kit.vault import Binding
from skillgate.users.repository import UserRepository

log = structlog.get_logger(__name__)
MAX_WRONG_CODES = 20
WRONG_CODE_WINDOW = 900
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


def _binding(device: DeviceCode) -> Binding:
    return Binding(device.id, device.user_id or "", "device")


class DeviceService:
    def __init__(self, db: AsyncSession, state: AppState) -> None:
        self.db = db
        self.state = state

    # --- the client side (no authentication) -----------------------------------

    async def start(self, client_name: str | None, ip: str) -> dict[str, Any]:
        await self._throttle_start(ip)
        await self._purge()
        now = utcnow()
        await self._refuse_when_full(now)
        app_url = self.state.settings.resolved_app_url
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
            try:
                async with self.db.begin_nested():
                    self.db.add(row)
            except IntegrityError:
                continue
            shown = codes.display(user_code)
            return {
                "device_code": device_code,
                "user_code": shown,
                "verification_uri": f"{app_url}/device",
                "verification_uri_complete": f"{app_url}/device?user_code={shown}",
                "expires_in": codes.LIFETIME_SECONDS,
                "interval": codes.INTERVAL_SECONDS,
            }
        raise BadRequest("Could not allocate a device code; retry.")

    async def _throttle_start(self, ip: str) -> None:
        """A fixed window per client address, on the shared counter (Redis when set)."""
        spent = await spend(self.state.limiter.counter, [(_STARTS, ip)])
        if not spent.allowed:
            raise RateLimited(
                f"Too many sign-ins started from this address; retry in {spent.retry_after} s.",
                retry_after=spent.retry_after,
            )

    async def _refuse_when_full(self, now: Any) -> None:
        """Bound the table: expired codes are purged, unexpired pending ones are capped."""
        pending = await self.db.scalar(
            select(func.count())
            .select_from(DeviceCode)
            .where(DeviceCode.status == "pending", DeviceCode.expires_at > now)
        )
        if (pending or 0) >= codes.MAX_PENDING_CODES:
            log.warning("device sign-ins refused: too many pending codes", pending=pending)
            raise ServiceUnavailable(
                "Too many sign-ins are pending; retry in a minute.",
                headers={"Retry-After": str(codes.FULL_RETRY_AFTER_SECONDS)},
            )

    async def poll(self, device_code: object) -> dict[str, Any]:
        if not codes.is_device_code(device_code):
            raise BadRequest(
                "device_code: expected the 40-character hex code from /auth/device/code."
            )
        assert isinstance(device_code, str)
        result = await self.db.execute(
            select(DeviceCode).where(
                DeviceCode.device_code_hash == codes.digest(device_code.lower())
            )
        )
        row = result.scalar_one_or_none()
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
        if await self._too_fast(row, now):
            row.interval += codes.SLOW_DOWN_STEP
            await self.db.flush()
            return {"status": "pending", "error": "slow_down", "interval": row.interval}
        if row.status != "authorized":
            return {"status": "pending", "error": "authorization_pending"}
        return await self._consume(row)

    async def _too_fast(self, row: DeviceCode, now: Any) -> bool:
        """Polled sooner than the interval? Paced in Redis when configured, else in the row."""
        redis = self.state.redis
        if redis is not None:
            try:
                # SET NX answers None (not False) when the key is still there.
                first = await redis.set(
                    f"sg:device:poll:{row.id}", "1", nx=True, px=row.interval * 1000
                )
            except Exception:  # Redis down: pace in the row instead
                log.warning("device poll pacing falls back to the database")
            else:
                return not first

        last = row.last_polled_at
        row.last_polled_at = now
        await self.db.flush()
        return last is not None and (now - last).total_seconds() < row.interval

    async def _consume(self, row: DeviceCode) -> dict[str, Any]:
        sealed = row.api_key_sealed  # read first: the UPDATE below also clears the loaded row
        # Only the first poll that sees `authorized` wins; a racing one gets already_used.
        done = await self.db.execute(
            update(DeviceCode)
            .where(DeviceCode.id == row.id, DeviceCode.status == "authorized")
            .values(status="consumed", api_key_sealed=None)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise DeviceError("already_used", "This device code was already used; start again.")
        user = await UserRepository(self.db).get(row.user_id or "")
        if user is None:
            raise NotFound("The approving account no longer exists; start again.")
        answer: dict[str, Any] = {
            "status": "complete",
            "user": {"email": user.email, "display_name": user.display_name},
            "api_keys_url": f"{self.state.settings.resolved_app_url}/keys",
        }
        if sealed:
            answer["api_key"] = self.state.vault.open(sealed, _binding(row))["key"]
        return answer

    # --- the browser side (a signed-in user) ------------------------------------

    async def lookup(self, user_id: str, user_code: str, ip: str) -> DeviceCode:
        """Reserve a guess on the user's and the address's counters first (atomic: no
        more than MAX_WRONG_CODES guesses are evaluated, however many arrive at once),
        evaluate, and give the reservation back when the code was right."""
        counter = self.state.limiter.counter
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
            result = await self.db.execute(
                select(DeviceCode).where(DeviceCode.user_code_hash == codes.digest(normalized))
            )
            row = result.scalar_one_or_none()
        if row is None or row.status != "pending" or row.expires_at <= utcnow():
            raise BadRequest(_INVALID)  # the reservation stays: a wrong guess counts
        await release(counter, spent)
        assert normalized is not None
        row.user_code_display = codes.display(normalized)
        return row

    async def authorize(
        self,
        user_id: str,
        user_code: str,
        ip: str,
        *,
        create_key: bool = False,
        key_name: str | None = None,
    ) -> None:
        row = await self.lookup(user_id, user_code, ip)
        row.status = "authorized"
        row.user_id = user_id
        if create_key:
            name = (key_name or "").strip() or f"Device: {row.client_name or 'svc'}"
            keys = ApiKeys(pepper=self.state.pepper, slugs=self.state.catalog.slugs, verifier=None)
            _, full_key = await keys.create(self.db, user_id, name[:200], None)
            row.api_key_sealed = self.state.vault.seal({"key": full_key}, _binding(row))
        await self.db.flush()

    async def deny(self, user_id: str, user_code: str, ip: str) -> None:
        """Refuse the code: the polling client is told `access_denied` and stops."""
        row = await self.lookup(user_id, user_code, ip)
        row.status = "denied"
        await self.db.flush()

    async def _purge(self) -> None:

        cutoff = utcnow() - timedelta(seconds=codes.PURGE_AFTER_EXPIRY_SECONDS)
        await self.db.execute(delete(DeviceCode).where(DeviceCode.expires_at < cutoff))

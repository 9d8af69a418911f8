"""Creating users and changing plans: used by the operator CLI and the dashboard."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.db.session import insert_new
from skillgate.errors import BadRequest, Conflict, NotFound
from skillgate.users import passwords
from skillgate.users.models import User
from skillgate.users.plans import PLANS
from skillgate.users.repository import UserRepository

_EMAIL_RE = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}\.[^@\s.]{2,}$")


def normalize_email(email: str) -> str:
    value = email.strip().lower()
    if not _EMAIL_RE.match(value):
        raise BadRequest("email: not a valid email address.")
    return value


def check_password(password: str) -> None:
    if len(password) < passwords.MIN_LENGTH:
        raise BadRequest(f"password: use at least {passwords.MIN_LENGTH} characters.")
    if len(password) > passwords.MAX_LENGTH:
        raise BadRequest(f"password: use at most {passwords.MAX_LENGTH} characters.")


class UserService:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.users = UserRepository(session)

    async def create(
        self, email: str, password: str, *, plan: str = "free", display_name: str | None = None
    ) -> User:
        email = normalize_email(email)
        check_password(password)
        if plan not in PLANS:
            raise BadRequest(f"plan: must be one of {', '.join(PLANS)}.")
        name = (display_name or "").strip() or email.split("@")[0]
        if len(name) > 200:
            raise BadRequest("display_name: use at most 200 characters.")
        if await self.users.by_email(email) is not None:
            raise Conflict("email: an account with this email already exists.")
        user = User(
            email=email,
            display_name=name,
            password_hash=await passwords.hash_password(password),
            plan=plan,
        )
        if not await insert_new(self.session, user):  # a sign-up of the same email won
            raise Conflict("email: an account with this email already exists.")
        return user

    async def authenticate(self, email: str, password: str) -> User | None:
        """The user when email and password match; None otherwise, in constant-ish time."""
        try:
            normalized = normalize_email(email)
        except BadRequest:
            normalized = None
        user = await self.users.by_email(normalized) if normalized else None
        ok = await passwords.verify_password(user.password_hash if user else None, password)
        return user if ok and user is not None else None

    async def set_plan(self, email: str, plan: str) -> User:
        if plan not in PLANS:
            raise BadRequest(f"plan: must be one of {', '.join(PLANS)}.")
        user = await self.users.by_email(normalize_email(email))
        if user is None:
            raise NotFound(f"no user with email {email!r}.")
        user.plan = plan
        await self.session.flush()
        return user

    async def list(self) -> Sequence[User]:
        return await self.users.list()

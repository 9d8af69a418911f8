"""Alembic environment: always given a connection by `skillgate.db.migrate`."""

from __future__ import annotations

from alembic import context

from skillgate.db.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `skillgate db upgrade`")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()

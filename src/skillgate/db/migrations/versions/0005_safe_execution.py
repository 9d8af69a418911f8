"""safe execution: per-key confirmation policy, confirmation tokens, idempotency keys

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Keys made before confirmation existed keep working as they did ("never");
    # keys created from now on default to "destructive" (api_keys.service).
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("confirm", sa.String(length=16), nullable=False, server_default="never")
        )
    op.create_table(
        "confirmations",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_confirmations_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_confirmations")),
    )
    with op.batch_alter_table("confirmations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_confirmations_expires_at"), ["expires_at"], unique=False
        )
    op.create_table(
        "idempotency_keys",
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("upstream_status", sa.Integer(), nullable=True),
        sa.Column("envelope", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_idempotency_keys_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "key_hash", name=op.f("pk_idempotency_keys")),
    )
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_idempotency_keys_expires_at"), ["expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_keys_expires_at"))
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("confirmations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_confirmations_expires_at"))
    op.drop_table("confirmations")
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.drop_column("confirm")

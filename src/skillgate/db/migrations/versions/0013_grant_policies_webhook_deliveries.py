"""grant policies and webhook deliveries: a policy per OAuth grant; a held call's
approval may be an OAuth grant's (approvals.key_id names a key or a grant); the
outbox of approval webhooks, retried until delivered

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 00:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Null for every existing grant: no policy, every call in its scopes allowed as before.
    with op.batch_alter_table("oauth_grants", schema=None) as batch_op:
        batch_op.add_column(sa.Column("policy", sa.JSON(), nullable=True))
    # key_id is the API key's id or the OAuth grant's (`grt_...`); the user's row still
    # cascades.
    with op.batch_alter_table("approvals", schema=None) as batch_op:
        batch_op.drop_constraint("fk_approvals_key_id_api_keys", type_="foreignkey")
        batch_op.create_index("ix_approvals_state_expires", ["state", "expires_at"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("event_type", sa.String(length=40), nullable=False),
        sa.Column("msg_id", sa.String(length=40), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=True),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_webhook_deliveries_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
    )
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.create_index("ix_webhook_deliveries_due", ["state", "next_attempt_at"])
        batch_op.create_index("ix_webhook_deliveries_user", ["user_id", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.drop_index("ix_webhook_deliveries_user")
        batch_op.drop_index("ix_webhook_deliveries_due")
    op.drop_table("webhook_deliveries")
    with op.batch_alter_table("approvals", schema=None) as batch_op:
        batch_op.drop_index("ix_approvals_state_expires")
        batch_op.create_foreign_key(
            "fk_approvals_key_id_api_keys", "api_keys", ["key_id"], ["id"], ondelete="CASCADE"
        )
    with op.batch_alter_table("oauth_grants", schema=None) as batch_op:
        batch_op.drop_column("policy")

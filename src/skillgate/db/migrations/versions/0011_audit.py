"""audit: the approval a logged decision concerns, and who decided it

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25 22:25:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("executions") as batch:
        batch.add_column(sa.Column("approval_id", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("decided_by", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("executions") as batch:
        batch.drop_column("decided_by")
        batch.drop_column("approval_id")

"""connection variables: per-connection host values (Jira site, Mailchimp data centre)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Connections made before variables existed have none ({}): their integrations
    # had no variables to give.
    for table in ("connections", "connect_requests"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column("variables", sa.JSON(), nullable=False, server_default="{}")
            )


def downgrade() -> None:
    for table in ("connect_requests", "connections"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("variables")

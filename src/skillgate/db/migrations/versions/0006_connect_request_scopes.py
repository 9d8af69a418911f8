"""connect requests remember the OAuth scopes they asked for (incremental authorization)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # What the authorization asked for: the granted scopes when the provider's token
    # answer does not list them (a scope set added on demand included).
    with op.batch_alter_table("connect_requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("scopes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("connect_requests", schema=None) as batch_op:
        batch_op.drop_column("scopes")

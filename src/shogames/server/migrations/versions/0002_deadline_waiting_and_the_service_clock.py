"""Games record their clock's deadline and who is to move; the service clock table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24 05:00:00.000000
"""

from __future__ import annotations

import datetime

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("waiting", sa.String(length=8), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_deadline"), ["deadline"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_waiting"), ["waiting"], unique=False)
    service_clock = op.create_table(
        "service_clock",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("alive_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    # The one row exists from the start, so that server processes starting together never race to add it.
    op.bulk_insert(service_clock, [{"id": 1, "alive_at": datetime.datetime.now(datetime.UTC)}])


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("service_clock")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_waiting"))
        batch_op.drop_index(batch_op.f("ix_games_deadline"))
        batch_op.drop_column("waiting")
        batch_op.drop_column("deadline")

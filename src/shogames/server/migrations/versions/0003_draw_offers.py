"""Games remember a standing draw offer (the seat that made it).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 06:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("draw_offer", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("draw_offer")

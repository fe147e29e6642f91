"""Quota buckets shared by every server process on one database (``serve --workers N``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27 16:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "quota_buckets",
        sa.Column("name", sa.String(length=16), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", "client"),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("quota_buckets")

"""Puzzle ratings: each puzzle's Glicko-2 rating, moved by the solvers' first tries (server/puzzles.py).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27 18:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "puzzle_ratings",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("puzzle", sa.String(length=16), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "puzzle"),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("puzzle_ratings")

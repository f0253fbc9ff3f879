import sqlite3
from dataclasses import dataclass


@dataclass
class SaleRow:
    region: str
    month: str
    total_cents: int


def monthly_sales(conn: sqlite3.Connection) -> list[SaleRow]:
    cursor = conn.execute(
        "SELECT region, month, SUM(total_cents) FROM sales GROUP BY region, month ORDER BY month"
    )
    return [SaleRow(*row) for row in cursor.fetchall()]

from datetime import date


def invoice_number(day: date, sequence: int) -> str:
    """INV-2026-0042: the year and a four-digit sequence within it."""
    if sequence < 1:
        raise ValueError("sequence starts at 1")
    return f"INV-{day.year}-{sequence:04d}"

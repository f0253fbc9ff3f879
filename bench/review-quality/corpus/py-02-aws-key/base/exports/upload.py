from pathlib import Path

EXPORT_BUCKET = "acme-nightly-exports"


def export_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.glob("*.csv") if path.stat().st_size > 0)

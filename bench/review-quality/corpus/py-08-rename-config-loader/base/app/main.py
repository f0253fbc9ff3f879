from pathlib import Path

from app.settings import load


def main() -> None:
    settings = load(Path("settings.json"))
    print(f"starting {settings['workers']} workers")


if __name__ == "__main__":
    main()

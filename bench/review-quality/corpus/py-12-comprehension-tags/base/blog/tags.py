"""Tags of blog posts: cleaned, counted and ranked."""


def normalise_tags(raw: list[str]) -> list[str]:
    tags = []
    for tag in raw:
        cleaned = tag.strip().lower()
        if cleaned:
            tags.append(cleaned)
    return tags


def tag_counts(posts: list[list[str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for tags in posts:
        for tag in normalise_tags(tags):
            counts[tag] = counts.get(tag, 0) + 1
    return counts


def top_tags(posts: list[list[str]], count: int = 10) -> list[str]:
    counts = tag_counts(posts)
    return sorted(counts, key=lambda tag: (-counts[tag], tag))[:count]

/**
 * Display formatters shared by screens (docs/product.md#display-rules). Pure and locale-stable, so the
 * server render and the browser render agree.
 */

/** "org_admin" → "Org Admin": split on underscores, capitalise each word, drop empty parts. */
export function formatSnakeWords(value: string): string {
  return value
    .split("_")
    .map((word) => word.trim())
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(" ");
}

/** A role as the product shows it; an empty role shows as "User". */
export function formatRole(role: string | null | undefined): string {
  return formatSnakeWords(role ?? "") || "User";
}

/** The last `length` characters of an id (the full id belongs in a title attribute). */
export function shortId(id: string, length = 8): string {
  return id.length <= length ? id : id.slice(-length);
}

/** The first letter of a name, upper-cased, for avatars; "?" when there is none. */
export function initialOf(name: string | null | undefined): string {
  const first = Array.from((name ?? "").trim())[0];
  return first ? first.toUpperCase() : "?";
}

/** A cost in micro-dollars as text: `$0.0123`; under a dollar keeps four decimals, so a cheap review does not read as free. */
export function costText(micros: number): string {
  const dollars = micros / 1_000_000;
  return `$${dollars >= 1 ? dollars.toFixed(2) : dollars.toFixed(4)}`;
}

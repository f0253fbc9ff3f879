/** Display names as the backend stores them and puts into session tokens: tidy and bounded. */

/** Bidirectional overrides and isolates: they can make a name display as something else. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * A name fit to show: control characters become spaces, white-space runs one space, bidirectional
 * controls are dropped, the ends trimmed; then cut to `max` (string length, as zod's `.max` counts)
 * without splitting a character. Undefined when nothing is left.
 */
export function tidyName(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  const tidy = value
    .replace(BIDI_CONTROLS, "")
    .replace(/[\p{Cc}\s]+/gu, " ")
    .trim();
  const capped = capLength(tidy, max).trimEnd();
  return capped === "" ? undefined : capped;
}

/** `value` cut to at most `max` UTF-16 code units, never between the two halves of a surrogate pair. */
export function capLength(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * How a posted comment carries the fingerprints of its findings: a hidden HTML comment at its end,
 * which code hosts do not render, so a later run reads back what was posted (`postedFingerprints`)
 * from the comments themselves and posts nothing twice.
 */
const MARKER = /<!-- argus-fingerprint: ([0-9a-f]{64}) -->/g;

export const fingerprintMarker = (fingerprint: string) => `<!-- argus-fingerprint: ${fingerprint} -->`;

export const withFingerprint = (body: string, fingerprint: string) =>
  `${body}\n\n${fingerprintMarker(fingerprint)}`;

export const fingerprintsIn = (text: string): string[] =>
  [...text.matchAll(MARKER)].map((match) => match[1] as string);

/** The text as a code host shows it: without the markers. */
export const withoutFingerprints = (text: string) => text.replace(MARKER, "").trimEnd();

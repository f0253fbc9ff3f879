/**
 * The hidden markers the engine writes into what it posts, so later runs read back which findings
 * are on a pull request already (docs/review-engine.md, "Posting"; decision 029). A marker is an
 * HTML comment, invisible on GitHub and Azure DevOps, that carries an HMAC of the deployment: the
 * text of a comment is not the engine's word (a model, a person or another bot can write a
 * marker-shaped comment), so only a marker this deployment signed for this pull request counts.
 * Markers without a valid signature, those of earlier versions included, are ignored.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { currentSecretsKey, type SecretsConfig } from "../../secrets/keys.ts";
import type { PullRequestRef } from "../queue/pull-requests.ts";

/**
 * HKDF's label for the marker key: a key of its own, derived from the secrets key, so a marker's
 * MAC reveals nothing about the key that seals stored secrets. Fixed, not the product name.
 */
const KEY_LABEL = "argus review markers v1";
const KEY_BYTES = 32;
/** Bytes of the HMAC-SHA256 kept in a marker: 128 bits, beyond guessing. */
const MAC_BYTES = 16;
const FINGERPRINT_KIND = "fp";

/** A signed fingerprint marker, as the engine writes it. Fixed, not the product name. */
const SIGNED_MARKER = /<!-- argus:fp:([0-9a-f]{64}):([0-9a-f]{32}) -->/g;
/** A fingerprint marker signed or not (earlier versions wrote none), with the space before it. */
const ANY_MARKER = / ?<!-- argus:fp:[0-9a-f]{64}(?::[0-9a-f]{32})? -->/g;

/** Reads the fingerprints of the valid markers in a comment's text (a code host's body). */
export type FingerprintReader = (text: string | null | undefined) => string[];

/** The markers of one pull request: written signed, read back only when the signature holds. */
export interface PullRequestMarkers {
  /** The hidden marker of a finding posted on this pull request. */
  finding(fingerprint: string): string;
  /** The fingerprints of the markers in `text` that this deployment wrote for this pull request. */
  findings: FingerprintReader;
}

export type MarkersFor = (ref: PullRequestRef) => Promise<PullRequestMarkers>;

/** The marker key of a secrets key (backend/secrets/keys.ts). */
export const markerKeyOf = (secretsKey: Buffer): Buffer =>
  Buffer.from(hkdfSync("sha256", secretsKey, Buffer.alloc(0), KEY_LABEL, KEY_BYTES));

/**
 * Bound to the pull request, so a marker copied from one pull request to another (a person's
 * comment, another bot's) does not count there.
 */
const macOf = (key: Buffer, ref: PullRequestRef, fingerprint: string) =>
  createHmac("sha256", key)
    .update([FINGERPRINT_KIND, ref.projectId, String(ref.pullRequest), fingerprint].join("\0"))
    .digest()
    .subarray(0, MAC_BYTES);

/**
 * `keys`: the marker keys, the one that signs first; the others (of rotated-away secrets keys)
 * still verify what they signed.
 */
export function pullRequestMarkers(keys: readonly Buffer[], ref: PullRequestRef): PullRequestMarkers {
  const [signing] = keys;
  if (!signing) throw new Error("No key to sign review markers with");
  const signed = (fingerprint: string, mac: string) => {
    const given = Buffer.from(mac, "hex");
    return keys.some((key) => timingSafeEqual(given, macOf(key, ref, fingerprint)));
  };
  return {
    finding: (fingerprint) =>
      `<!-- argus:fp:${fingerprint}:${macOf(signing, ref, fingerprint).toString("hex")} -->`,
    findings: (text) =>
      [...(text ?? "").matchAll(SIGNED_MARKER)]
        .filter(([, fingerprint, mac]) => signed(fingerprint as string, mac as string))
        .map(([, fingerprint]) => fingerprint as string),
  };
}

/**
 * The deployment's markers: keys derived from the secrets key (SECRETS_ENCRYPTION_KEY or the
 * generated one, read on first use) and from the previous keys still configured, so a rotation
 * keeps what was posted recognised.
 */
export function deploymentMarkers(config: SecretsConfig): MarkersFor {
  let keys: Promise<Buffer[]> | undefined;
  return async (ref) => {
    keys ??= currentSecretsKey(config).then(
      (current) => [current, ...config.previousKeys].map(markerKeyOf),
      (error: unknown) => {
        keys = undefined;
        throw error;
      },
    );
    return pullRequestMarkers(await keys, ref);
  };
}

/** The text as a code host shows it, without the markers (the sandbox's pull request page). */
export const withoutMarkers = (text: string) => text.replace(ANY_MARKER, "").trimEnd();

import { createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SECRETS_KEY_FILE, type SecretsConfig } from "../../secrets/keys.ts";
import { deploymentMarkers, markerKeyOf, pullRequestMarkers, withoutMarkers } from "./markers.ts";

const FP = "ab".repeat(32);
const OTHER_FP = "cd".repeat(32);
const REF = { projectId: "project-1", pullRequest: 7 };
const KEY = Buffer.alloc(32, 1);
const configured = (key: Buffer, previousKeys: Buffer[] = []): SecretsConfig => ({
  key,
  previousKeys,
  keyFile: undefined,
});

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("review markers", () => {
  it("reads back a marker it signed for the pull request, in any text around it", async () => {
    const markers = await deploymentMarkers(configured(KEY))(REF);
    const marker = markers.finding(FP);
    expect(marker).toMatch(/^<!-- argus:fp:(ab){32}:[0-9a-f]{32} -->$/);
    expect(markers.findings(`**Critical** · x\n\n${marker}\n- y ${markers.finding(OTHER_FP)}`)).toEqual([
      FP,
      OTHER_FP,
    ]);
    expect(markers.findings(null)).toEqual([]);
  });

  it("ignores an unsigned marker (an earlier version's, or a forged one) and a wrong signature", async () => {
    const markers = await deploymentMarkers(configured(KEY))(REF);
    const unsigned = `<!-- argus:fp:${FP} -->`;
    const tampered = markers.finding(FP).replace(/:[0-9a-f]{32} -->/, `:${"0".repeat(32)} -->`);
    const moved = markers.finding(FP).replace(FP, OTHER_FP);
    expect(markers.findings([unsigned, tampered, moved].join("\n"))).toEqual([]);
  });

  it("ignores a marker signed for another pull request, another repository or another deployment", async () => {
    const ours = deploymentMarkers(configured(KEY));
    const markers = await ours(REF);
    const copied = [
      (await ours({ ...REF, pullRequest: 8 })).finding(FP),
      (await ours({ ...REF, projectId: "project-2" })).finding(FP),
      (await deploymentMarkers(configured(Buffer.alloc(32, 2)))(REF)).finding(FP),
    ];
    expect(markers.findings(copied.join("\n"))).toEqual([]);
  });

  it("signs with a key derived from the secrets key (HKDF), not with the secrets key itself", async () => {
    const markers = await deploymentMarkers(configured(KEY))(REF);
    expect(markerKeyOf(KEY).equals(KEY)).toBe(false);
    expect(markers.findings(pullRequestMarkers([KEY], REF).finding(FP))).toEqual([]);
    const raw = createHmac("sha256", KEY)
      .update(["fp", REF.projectId, "7", FP].join("\0"))
      .digest()
      .subarray(0, 16)
      .toString("hex");
    expect(markers.finding(FP)).not.toContain(raw);
  });

  it("still reads markers signed before the secrets key was rotated, and signs with the new key", async () => {
    const NEW = Buffer.alloc(32, 5);
    const before = (await deploymentMarkers(configured(KEY))(REF)).finding(FP);
    const rotated = await deploymentMarkers(configured(NEW, [KEY]))(REF);
    expect(rotated.findings(before)).toEqual([FP]);
    expect(rotated.finding(FP)).not.toBe(before);
    expect((await deploymentMarkers(configured(NEW))(REF)).findings(before)).toEqual([]);
  });

  it("without a configured key, signs with the generated key of the data directory, across restarts", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "argus-markers-"));
    const config = { key: undefined, previousKeys: [], keyFile: path.join(dir, SECRETS_KEY_FILE) };
    const marker = (await deploymentMarkers(config)(REF)).finding(FP);
    expect((await deploymentMarkers(config)(REF)).findings(marker)).toEqual([FP]);
  });

  it("hides signed and unsigned markers from the text a page shows", () => {
    const signed = pullRequestMarkers([markerKeyOf(KEY)], REF).finding(FP);
    expect(withoutMarkers(`A token. ${signed}\n- old <!-- argus:fp:${FP} -->`)).toBe("A token.\n- old");
  });
});

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sandboxConnectOf } from "../../../shared/contract/sandbox.ts";
import { InstallationNotProvenError } from "../code-host.ts";
import { createSandboxInstallations, SANDBOX_CODE_TTL_MS } from "./connect.ts";

const installer = { orgId: "org-1", userId: "user-1" };

function sandboxAt(clock: { now: number }, codeKey = randomBytes(32)) {
  return createSandboxInstallations({ publicOrigin: "http://127.0.0.1:3000", codeKey, now: () => clock.now });
}

async function connectLink(host: ReturnType<typeof sandboxAt>) {
  const connect = sandboxConnectOf(await host.installationUrl(installer));
  if (!connect) throw new Error("not a sandbox Connect link");
  return connect;
}

describe("the sandbox's Connect code", () => {
  it("proves the installation to the organisation and user it was made for, until it expires", async () => {
    const clock = { now: 1_800_000_000_000 };
    const host = sandboxAt(clock);
    const { installationId, code } = await connectLink(host);
    await expect(host.proveInstallation(installationId, code, installer)).resolves.toBeUndefined();

    for (const [who, id] of [
      [{ ...installer, orgId: "org-2" }, installationId],
      [{ ...installer, userId: "user-2" }, installationId],
      [installer, "sandbox-0123"],
    ] as const) {
      await expect(host.proveInstallation(id, code, who)).rejects.toBeInstanceOf(InstallationNotProvenError);
    }
    // The expiry is signed: a code cannot be made to last longer.
    const [expires, mac] = code.split(".");
    await expect(
      host.proveInstallation(installationId, `${Number(expires) + 1}.${mac}`, installer),
    ).rejects.toBeInstanceOf(InstallationNotProvenError);

    clock.now += SANDBOX_CODE_TTL_MS + 1;
    await expect(host.proveInstallation(installationId, code, installer)).rejects.toBeInstanceOf(
      InstallationNotProvenError,
    );
  });

  it("is refused by a backend with another key, and when malformed", async () => {
    const clock = { now: Date.now() };
    const { installationId, code } = await connectLink(sandboxAt(clock));
    const elsewhere = sandboxAt(clock);
    for (const candidate of [code, "sandbox", "", "1.2", `${code}=`]) {
      await expect(elsewhere.proveInstallation(installationId, candidate, installer)).rejects.toBeInstanceOf(
        InstallationNotProvenError,
      );
    }
  });
});

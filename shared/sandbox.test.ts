import { describe, expect, it } from "vitest";
import { sandboxInstallationCallback, sandboxInstallationOf } from "./sandbox.ts";

describe("sandboxInstallationOf", () => {
  it("reads the installation id of the sandbox's Connect link", () => {
    expect(sandboxInstallationOf("http://127.0.0.1:3000/sandbox/install?installation_id=sandbox-0a1b")).toBe(
      "sandbox-0a1b",
    );
  });

  it("is null for any other link", () => {
    for (const link of [
      undefined,
      "",
      "not a url",
      "https://github.com/apps/argus/installations/new",
      "http://127.0.0.1:3000/installation?installation_id=sandbox-0a1b",
      "http://127.0.0.1:3000/sandbox/install",
      "http://127.0.0.1:3000/sandbox/install?installation_id=4242",
      "http://127.0.0.1:3000/sandbox/install?installation_id=sandbox-XYZ",
    ]) {
      expect(sandboxInstallationOf(link), String(link)).toBeNull();
    }
  });
});

describe("sandboxInstallationCallback", () => {
  it("is what GitHub sends the browser back with", () => {
    expect(sandboxInstallationCallback("sandbox-0a1b")).toBe(
      "/installation?setup_action=install&installation_id=sandbox-0a1b&code=sandbox",
    );
  });
});

import { describe, expect, it } from "vitest";
import { SANDBOX_ACTIVE_PEOPLE, SANDBOX_PEOPLE } from "../sandbox-samples.ts";
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
    expect(sandboxInstallationCallback("sandbox-0a1b", "1700000000000.abc_-")).toBe(
      "/installation?setup_action=install&installation_id=sandbox-0a1b&code=1700000000000.abc_-",
    );
  });
});

describe("SANDBOX_PEOPLE", () => {
  it("are 30 people with distinct GitHub-style usernames, the first SANDBOX_ACTIVE_PEOPLE of them active", () => {
    expect(SANDBOX_PEOPLE).toHaveLength(30);
    const logins = SANDBOX_PEOPLE.map((person) => person.login);
    expect(new Set(logins).size).toBe(30);
    for (const login of logins) expect(login).toMatch(/^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}$/);
    expect(SANDBOX_PEOPLE.map((person) => person.active_days_ago !== null)).toEqual(
      logins.map((_, index) => index < SANDBOX_ACTIVE_PEOPLE),
    );
  });
});

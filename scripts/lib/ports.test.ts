import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { claimPort, retryOnPortRace } from "./ports.ts";

const portTaken = (error: unknown) => error instanceof Error && error.message === "port taken";

/** A start that always fails with `message`, and how often it was called. */
function alwaysFailing(message: string) {
  let calls = 0;
  const start = async (): Promise<never> => {
    calls += 1;
    throw new Error(message);
  };
  return { start, calls: () => calls };
}

describe("claimPort", () => {
  it("finds a free port, and refuses one that is taken", async () => {
    const port = await claimPort();
    expect(port).toBeGreaterThan(0);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    try {
      await expect(claimPort(port)).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      holder.close();
    }
  });

  it("never hands one port out twice in a process, though the kernel gives released ports again", async () => {
    const ports = [];
    for (let claim = 0; claim < 500; claim += 1) ports.push(await claimPort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe("retryOnPortRace", () => {
  it("starts again while a port was taken, and answers what the first good start gave", async () => {
    const outcomes = ["port taken", "port taken", "started"];
    let calls = 0;
    const start = async () => {
      const outcome = outcomes[calls++];
      if (outcome !== "started") throw new Error(outcome);
      return outcome;
    };
    await expect(retryOnPortRace(start, portTaken)).resolves.toBe("started");
    expect(calls).toBe(3);
  });

  it("gives up after the attempts allowed, with the last error", async () => {
    const failing = alwaysFailing("port taken");
    await expect(retryOnPortRace(failing.start, portTaken, 2)).rejects.toThrow("port taken");
    expect(failing.calls()).toBe(2);
  });

  it("does not start again after any other failure", async () => {
    const failing = alwaysFailing("emulator crashed");
    await expect(retryOnPortRace(failing.start, portTaken)).rejects.toThrow("emulator crashed");
    expect(failing.calls()).toBe(1);
  });
});

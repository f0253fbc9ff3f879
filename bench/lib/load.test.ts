import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type autocannon from "autocannon";
import { describe, expect, it } from "vitest";
import { figuresOf, medianFigures, runLoad } from "./load.ts";

describe("figuresOf", () => {
  it("takes throughput from the answers over the run's length, and counts every kind of failure", () => {
    const result = {
      duration: 5,
      requests: { total: 5000 },
      latency: { p50: 1, p99: 9 },
      errors: 1,
      timeouts: 2,
      non2xx: 3,
    } as autocannon.Result;
    expect(figuresOf(result, { p50: 0.42, p99: 3.1 })).toEqual({
      rps: 1000,
      p50: 0.42,
      p99: 3.1,
      failures: 6,
    });
  });
});

describe("medianFigures", () => {
  it("takes each figure's median and sums the failures", () => {
    expect(
      medianFigures([
        { rps: 900, p50: 2, p99: 30, failures: 0 },
        { rps: 1100, p50: 1, p99: 10, failures: 1 },
        { rps: 1000, p50: 3, p99: 20, failures: 0 },
      ]),
    ).toEqual({ rps: 1000, p50: 2, p99: 20, failures: 1 });
  });
});

describe("startLoadGenerator", () => {
  it("fails with the reason when a scenario gets no 2xx answer at all", async () => {
    const server = createServer((_req, res) => res.writeHead(404).end());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/missing`;
    try {
      await expect(runLoad({ url, connections: 1, duration: 1 })).rejects.toThrow(
        new RegExp(`no 2xx answer from ${url}: [1-9]\\d* other answers, 0 errors`),
      );
    } finally {
      server.close();
    }
  }, 20_000);
});

import { createServer } from "node:http";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { clientAddress, requestProtocol } from "./forwarded.ts";

/** What Express makes of a request with `trust proxy` set to `hops`, and what forwarded.ts makes of it. */
function readers(hops: number) {
  const app = express();
  app.set("trust proxy", hops);
  app.get("/", (req, res) => {
    res.json({ ip: req.ip, protocol: req.protocol });
  });
  const plain = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ ip: clientAddress(req, hops), protocol: requestProtocol(req, hops) }));
  });
  return { express: app, plain };
}

const HEADERS: Array<Record<string, string>> = [
  {},
  { "X-Forwarded-For": "203.0.113.7" },
  { "X-Forwarded-For": "198.51.100.1, 203.0.113.7" },
  { "X-Forwarded-For": "192.0.2.9,198.51.100.1 , 203.0.113.7" },
  { "X-Forwarded-Proto": "https" },
  { "X-Forwarded-Proto": "https, http", "X-Forwarded-For": "203.0.113.7" },
  { "X-Forwarded-Proto": "gopher" },
];

describe("the client's address and protocol without Express", () => {
  it.each([0, 1, 2, 3])("read X-Forwarded-* as Express does with trust proxy %i", async (hops) => {
    const { express: app, plain } = readers(hops);
    for (const headers of HEADERS) {
      const byExpress = await request(app).get("/").set(headers);
      const byPlain = await request(plain).get("/").set(headers);
      expect(byPlain.body, JSON.stringify(headers)).toEqual(byExpress.body);
    }
  });

  it("trust nothing a client says when no proxy is trusted", async () => {
    const { plain } = readers(0);
    const response = await request(plain)
      .get("/")
      .set({ "X-Forwarded-For": "6.6.6.6", "X-Forwarded-Proto": "https" });
    expect(response.body.ip).not.toBe("6.6.6.6");
    expect(response.body.protocol).toBe("http");
  });
});

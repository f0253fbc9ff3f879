/**
 * Gateway benchmark: latency and throughput of a health probe, a proxied API call and a server
 * render, against the fake backend on loopback. Bounded: a fixed number of requests per scenario.
 *   npm run bench   (NODE_ENV=production, as deployed; builds the bundle if it is stale)
 */
import { performance } from "node:perf_hooks";
import { ensureBuild } from "../scripts/lib/build.ts";
import { createApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { startServer } from "../shared/http-server.ts";
import { createLogger } from "../shared/logging.ts";
import { startFakeBackend } from "../tests/support/fake-backend.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

ensureBuild();
const backend = await startFakeBackend();
const config = loadConfig({
  NODE_ENV: "production",
  // As deployed: behind TLS under its own name.
  PUBLIC_ORIGIN: "https://argus.example.com",
  BACKEND_URL: backend.url,
  FIREBASE_API_KEY: "bench",
  LOG_LEVEL: "silent",
});
const { app, readiness, logger } = createApp(config, {
  logger: createLogger({ name: "gateway", level: "silent" }),
});
const running = await startServer(app, {
  host: "127.0.0.1",
  port: 0,
  shutdownTimeoutMs: 2000,
  readiness,
  logger,
});
const cookie = `auth_token=${await backend.mint({ exp: Math.floor(Date.now() / 1000) + 3600 })}`;

async function scenario(name: string, path: string, signedIn = true, origin = running.url) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  async function worker() {
    while (next < REQUESTS) {
      next += 1;
      const begin = performance.now();
      const response = await fetch(`${origin}${path}`, {
        headers: { ...(signedIn ? { cookie } : {}), "accept-encoding": "gzip" },
        redirect: "manual",
      });
      await response.arrayBuffer();
      if (!response.ok) failures += 1;
      latencies.push(performance.now() - begin);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  return {
    scenario: name,
    requests: REQUESTS,
    failures,
    "req/s": Math.round(REQUESTS / seconds),
    "p50 ms": at(0.5),
    "p95 ms": at(0.95),
    "p99 ms": at(0.99),
  };
}

const results = [
  await scenario("GET /healthz", "/healthz"),
  await scenario("GET /api/projects (backend direct, baseline)", "/api/projects", true, backend.url),
  await scenario("GET /api/projects (proxied)", "/api/projects?integrationType=git&integrationName=github"),
  await scenario("GET /home (SSR, signed in)", "/home"),
  await scenario("GET /login (SSR, guest page)", "/login", false),
];
console.table(results);
await running.shutdown();
await backend.close();

/**
 * No Docker engine runs here, so the Dockerfile is checked against the repository and the services'
 * configuration instead (tests/support/dockerfile.ts), and each kind of mistake is shown to be caught.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { loadConfig as loadBackendConfig } from "../../backend/config.ts";
import { SERVICE_RUNTIME } from "../../scripts/lib/stack.ts";
import { loadConfig as loadGatewayConfig } from "../../server/config.ts";
import { checkDockerfile, type Service } from "../support/dockerfile.ts";
import { createTestGateway } from "../support/gateway.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCKERFILE = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const HEALTH_PATH = "/healthz";
const EMULATOR = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

const refuses = (load: () => unknown) => {
  try {
    load();
    return false;
  } catch {
    return true;
  }
};

/** Each service with the least an operator must add to the image's environment. */
const SERVICES: Service[] = [
  {
    target: "gateway",
    healthPath: HEALTH_PATH,
    runtime: SERVICE_RUNTIME.gateway,
    facts(env) {
      const deployed = {
        ...env,
        PUBLIC_ORIGIN: "https://argus.example.com",
        FIREBASE_API_KEY: "public-web-key",
        FIREBASE_PROJECT_ID: "argus-prod",
      };
      const config = loadGatewayConfig(deployed);
      return {
        host: config.host,
        port: config.port,
        reads: [
          path.posix.join(config.buildDir, "server", "index.js"),
          path.posix.join(config.buildDir, "client"),
        ],
        writes: [],
        refusesEmulator: refuses(() => loadGatewayConfig({ ...deployed, ...EMULATOR })),
      };
    },
  },
  {
    target: "backend",
    healthPath: HEALTH_PATH,
    runtime: SERVICE_RUNTIME.backend,
    facts(env) {
      const deployed = {
        ...env,
        FIREBASE_PROJECT_ID: "argus-prod",
        FIREBASE_API_KEY: "public-web-key",
        PUBLIC_ORIGIN: "https://argus.example.com",
        SMTP_URL: "smtp://mail.example.com:587",
        SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
        STRIPE_SECRET_KEY: "sk_live_abc",
        STRIPE_PRICE_ID: "price_123",
      };
      const config = loadBackendConfig(deployed);
      return {
        host: config.host,
        port: config.port,
        reads: [],
        writes: config.dataDir ? [config.dataDir] : [],
        refusesEmulator: refuses(() => loadBackendConfig({ ...deployed, ...EMULATOR })),
      };
    },
  },
];

const check = (text: string) => checkDockerfile(text, ROOT, SERVICES);

function broken(from: string, to: string): string {
  expect(DOCKERFILE).toContain(from);
  return DOCKERFILE.replace(from, to);
}

describe("Dockerfile", () => {
  it("builds images that hold what the services run, read and write, on the configured ports", () => {
    expect(check(DOCKERFILE)).toEqual([]);
  });

  // The backend's answer at /healthz is tested with its routes (backend/routes/projects.test.ts);
  // starting a database here only for that would cost seconds.
  it("probes a path the gateway answers", async () => {
    const gateway = createTestGateway("http://127.0.0.1:9");
    expect((await request(gateway.app).get(HEALTH_PATH)).status).toBe(200);
  });

  it.each<[string, string, string, string]>([
    [
      "a source missing from the repository",
      "COPY server ./server",
      "COPY servers ./server",
      "COPY servers: not in the repository",
    ],
    [
      "a source that .dockerignore leaves out",
      "COPY server ./server",
      "COPY server ./server\nCOPY node_modules ./node_modules",
      "COPY node_modules: excluded by .dockerignore",
    ],
    [
      "a module the start command imports but the image lacks",
      "COPY --from=build /app/shared ./shared\n",
      "",
      "gateway: server/app.ts imports shared/node/logging.ts, which is not in the image",
    ],
    [
      "a start command that does not exist",
      '"server/index.ts"]',
      '"server/main.ts"]',
      "gateway: CMD runs server/main.ts, which is not in the image",
    ],
    [
      "an exposed port the gateway does not use",
      "EXPOSE 3000",
      "EXPOSE 8080",
      "gateway: EXPOSE 8080, but the service listens on 3000",
    ],
    [
      "a port changed without EXPOSE and HEALTHCHECK",
      "PORT=3000",
      "PORT=8080",
      "gateway: HEALTHCHECK asks port 3000, but the service listens on 8080",
    ],
    [
      "a health check on a path the backend does not answer",
      "3001/healthz",
      "3001/health",
      "backend: HEALTHCHECK asks /health, the service answers /healthz",
    ],
    [
      "a V8 flag that npm start passes and the image does not",
      '"--expose-gc", "server/index.ts"',
      '"server/index.ts"',
      'gateway: CMD passes node "--max-semi-space-size=4 --heap-growing-percent=100 --gc-memory-reducer-start-delay-ms=2000", npm start "--max-semi-space-size=4 --heap-growing-percent=100 --gc-memory-reducer-start-delay-ms=2000 --expose-gc"',
    ],
    [
      "a malloc setting that npm start makes and the image does not",
      "ENV HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2",
      "ENV HOST=0.0.0.0 PORT=3000",
      "gateway: MALLOC_ARENA_MAX is undefined in the image, 2 under npm start",
    ],
    [
      "application files owned by the user",
      "COPY server ./server",
      "COPY --chown=node:node server ./server",
      "COPY --chown=node:node: application files stay root's",
    ],
    [
      "a service running as root",
      "MALLOC_ARENA_MAX=2\nUSER node\n",
      "MALLOC_ARENA_MAX=2\n",
      "gateway: runs as root",
    ],
    [
      "an install command that is not CI's",
      "npm install --no-audit --no-fund --ignore-scripts",
      "npm ci --ignore-scripts",
      "not the install command CI uses (npm install --no-audit --no-fund)",
    ],
    [
      "a client build that is never made",
      "RUN npx react-router build && ",
      "RUN ",
      "gateway: reads build/server/index.js, which is not in the image",
    ],
    [
      "an npm script that does not exist",
      "npx react-router build",
      "npm run bundle",
      "RUN npm run bundle: no such script",
    ],
    [
      "local mode in the image",
      "ENV NODE_ENV=production",
      "ENV NODE_ENV=production LOCAL_MODE=true",
      "backend: accepts the Firebase emulator",
    ],
    [
      "sandbox billing chosen in the image",
      "ENV NODE_ENV=production",
      "ENV NODE_ENV=production BILLING_SANDBOX=true",
      "BILLING_SANDBOX: is set together with STRIPE_SECRET_KEY",
    ],
    [
      "development mode in the image",
      "ENV NODE_ENV=production\n",
      "",
      "gateway: NODE_ENV is undefined, not production",
    ],
    [
      "the whole application writable",
      "chown node:node /app/.data",
      "chown -R node:node /app",
      "backend: /app holds application files and is writable by node",
    ],
    [
      "a data folder the user cannot write",
      "RUN mkdir -p /app/.data && chown node:node /app/.data\n",
      "",
      "backend: writes to /app/.data, which node cannot write",
    ],
  ])("catches %s", (_name, from, to, problem) => {
    expect(check(broken(from, to))).toContainEqual(expect.stringContaining(problem));
  });
});

import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_TRIAL_DAYS, SESSION_COOKIE_MAX_AGE_SECONDS } from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract/accounts.ts";
import { configErrorOf } from "../tests/support/config-error.ts";
import { loadConfig } from "./config.ts";

const SECRET_32 = "0123456789abcdef0123456789abcdef";
/** What a real deployment must set besides its Firebase project. */
const DEPLOYED = {
  NODE_ENV: "production",
  PUBLIC_ORIGIN: "https://argus.example.com",
  SMTP_URL: "smtp://mailer:secret@smtp.example.com:587",
  FIREBASE_API_KEY: "web-api-key",
  SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  STRIPE_SECRET_KEY: "sk_live_abc",
  STRIPE_PRICE_ID: "price_123",
};

const configError = (env: NodeJS.ProcessEnv) => configErrorOf(loadConfig, env);

describe("loadConfig", () => {
  it("runs with no configuration: PGlite under ./.data, the demo project, ES256 keys, 7-day tokens", () => {
    const config = loadConfig({});
    expect(config.host).toBe("127.0.0.1");
    expect(config.port).toBe(3001);
    expect(config.database).toEqual({ kind: "pglite", dataDir: path.resolve(".data", "pglite") });
    expect(config.firebase).toEqual({ projectId: "demo-argus", authEmulatorHost: undefined });
    expect(config.session).toEqual({
      secret: undefined,
      issuer: SESSION_ISSUER_DEFAULT,
      audience: SESSION_AUDIENCE_DEFAULT,
      ttlSeconds: SESSION_COOKIE_MAX_AGE_SECONDS,
    });
  });

  it("uses Postgres when DATABASE_URL is set, and memory for DATA_DIR=memory://", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@db:5432/argus" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db:5432/argus",
    });
    expect(loadConfig({ DATA_DIR: "memory://" }).database).toEqual({ kind: "pglite", dataDir: undefined });
  });

  it("keeps a data directory only where files live: the embedded database or a generated secrets key", () => {
    expect(loadConfig({ DATA_DIR: "./here" }).dataDir).toBe(path.resolve("here"));
    expect(loadConfig({ DATA_DIR: "memory://" }).dataDir).toBeUndefined();
    const postgres = { DATABASE_URL: "postgres://u:p@db:5432/argus", DATA_DIR: "./here" };
    expect(loadConfig(postgres).dataDir).toBe(path.resolve("here"));
    const key = Buffer.alloc(32, 3).toString("base64");
    expect(loadConfig({ ...postgres, SECRETS_ENCRYPTION_KEY: key }).dataDir).toBeUndefined();
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", BACKEND_PORT: "" }).port).toBe(3001);
  });

  it("refuses a SESSION_SECRET that is set but empty", () => {
    expect(configError({ SESSION_SECRET: "" })).toContain("SESSION_SECRET: must be at least 32 bytes long");
  });

  it("accepts a 32-byte SESSION_SECRET and rejects a shorter one", () => {
    expect(loadConfig({ SESSION_SECRET: SECRET_32 }).session.secret).toBe(SECRET_32);
    expect(configError({ SESSION_SECRET: SECRET_32.slice(1) })).toContain(
      "SESSION_SECRET: must be at least 32 bytes long",
    );
  });

  it("names every bad variable in one message", () => {
    const message = configError({
      BACKEND_PORT: "http",
      DATABASE_URL: "mysql://x/y",
      SESSION_TTL_SECONDS: "-1",
    });
    expect(message).toContain("BACKEND_PORT: must be a port number");
    expect(message).toContain("DATABASE_URL: must be a postgres:// or postgresql:// URL");
    expect(message).toContain("SESSION_TTL_SECONDS: must be a whole number of seconds");
  });

  it("refuses the Firebase emulator and demo projects in production, but allows them elsewhere", () => {
    const emulator = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };
    expect(loadConfig({ ...emulator, NODE_ENV: "development" }).firebase.authEmulatorHost).toBe(
      "127.0.0.1:9099",
    );
    expect(configError({ ...emulator, ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod" })).toContain(
      "FIREBASE_AUTH_EMULATOR_HOST: must not be set in production",
    );
    expect(configError(DEPLOYED)).toContain("FIREBASE_PROJECT_ID: a demo- project");
    expect(loadConfig({ ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod" }).firebase.projectId).toBe(
      "argus-prod",
    );
  });

  it("accepts only development, production and test as NODE_ENV, so a near-miss is not development", () => {
    expect(configError({ NODE_ENV: "prod", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" })).toContain(
      "NODE_ENV:",
    );
  });

  it("lets production use the emulator and its demo- project with LOCAL_MODE=true only", () => {
    const local = {
      NODE_ENV: "production",
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      PUBLIC_ORIGIN: "https://argus.example.com",
    };
    expect(configError(local)).toContain("FIREBASE_AUTH_EMULATOR_HOST: must not be set in production");
    const config = loadConfig({ ...local, LOCAL_MODE: "true" });
    expect(config).toMatchObject({ nodeEnv: "production", localMode: true });
    expect(config.firebase).toEqual({ projectId: "demo-argus", authEmulatorHost: "127.0.0.1:9099" });
    expect(config.mail.transport).toEqual({ kind: "outbox" });
    // Local mode without the emulator: a demo- project would reach for Google and fail there.
    expect(configError({ ...local, FIREBASE_AUTH_EMULATOR_HOST: "", LOCAL_MODE: "true" })).toContain(
      "FIREBASE_PROJECT_ID: a demo- project",
    );
    expect(loadConfig({}).localMode).toBe(false);
  });

  it("mails through SMTP_URL when set, else to the local outbox, which production allows only in local mode", () => {
    expect(loadConfig({}).mail).toEqual({
      transport: { kind: "outbox" },
      from: "Argus <no-reply@localhost>",
    });
    expect(loadConfig({ PRODUCT_NAME: "Lens" }).mail.from).toBe("Lens <no-reply@localhost>");
    const smtp = loadConfig({
      SMTP_URL: "smtps://u:p@mail.example.com:465",
      MAIL_FROM: "Ops <ops@example.com>",
    });
    expect(smtp.mail).toEqual({
      transport: { kind: "smtp", url: "smtps://u:p@mail.example.com:465" },
      from: "Ops <ops@example.com>",
    });
    expect(configError({ SMTP_URL: "https://mail.example.com" })).toContain("SMTP_URL: must be an smtp://");
    const production = { ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod" };
    expect(configError({ ...production, SMTP_URL: "" })).toContain("SMTP_URL: is required in production");
    expect(configError({ ...production, FIREBASE_API_KEY: "" })).toContain(
      "FIREBASE_API_KEY: is required in production",
    );
    expect(loadConfig(production).firebase.apiKey).toBe("web-api-key");
  });

  it("takes PUBLIC_ORIGIN by the gateway's rules: default http://127.0.0.1:3000, required and https in production", () => {
    expect(loadConfig({}).publicOrigin).toBe("http://127.0.0.1:3000");
    expect(loadConfig({ PUBLIC_ORIGIN: "https://argus.example.com" }).publicOrigin).toBe(
      "https://argus.example.com",
    );
    expect(configError({ PUBLIC_ORIGIN: "https://argus.example.com/app" })).toContain(
      "PUBLIC_ORIGIN: must be an origin only",
    );
    const production = { ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod" };
    expect(configError({ ...production, PUBLIC_ORIGIN: "" })).toContain(
      "PUBLIC_ORIGIN: is required in production",
    );
    expect(configError({ ...production, PUBLIC_ORIGIN: "http://127.0.0.1:3000" })).toContain(
      "PUBLIC_ORIGIN: must be https:// in production",
    );
    expect(
      loadConfig({ ...production, PUBLIC_ORIGIN: "http://127.0.0.1:3000", ALLOW_HTTP_ORIGIN: "true" })
        .publicOrigin,
    ).toBe("http://127.0.0.1:3000");
  });

  it("reads the GitHub settings: API and OAuth URLs with GitHub's defaults, client id and secret together", () => {
    expect(loadConfig({}).github).toEqual({
      clientId: undefined,
      clientSecret: undefined,
      apiUrl: "https://api.github.com",
      oauthUrl: "https://github.com",
    });
    const local = loadConfig({
      GITHUB_CLIENT_ID: "id",
      GITHUB_CLIENT_SECRET: "secret",
      GITHUB_API_URL: "http://127.0.0.1:9000/",
      GITHUB_OAUTH_URL: "http://127.0.0.1:9000",
    }).github;
    expect(local).toEqual({
      clientId: "id",
      clientSecret: "secret",
      apiUrl: "http://127.0.0.1:9000",
      oauthUrl: "http://127.0.0.1:9000",
    });
    expect(configError({ GITHUB_CLIENT_ID: "id" })).toContain("GITHUB_CLIENT_SECRET: GITHUB_CLIENT_ID and");
  });

  it("takes a GitHub App as id, one-line PEM key and OAuth client together, else the sandbox code host", () => {
    expect(loadConfig({}).github.app).toBeUndefined();
    const key = "-----BEGIN RSA PRIVATE KEY-----\\nMIIabc\\n-----END RSA PRIVATE KEY-----";
    const client = { GITHUB_APP_CLIENT_ID: "Iv23.app", GITHUB_APP_CLIENT_SECRET: "app-secret" };
    expect(loadConfig({ GITHUB_APP_ID: "123", GITHUB_APP_PRIVATE_KEY: key, ...client }).github.app).toEqual({
      id: "123",
      privateKey: "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----",
      clientId: "Iv23.app",
      clientSecret: "app-secret",
    });
    expect(configError({ GITHUB_APP_ID: "123", ...client })).toContain(
      "GITHUB_APP_PRIVATE_KEY: GITHUB_APP_ID and",
    );
    expect(configError({ GITHUB_APP_ID: "app", GITHUB_APP_PRIVATE_KEY: key, ...client })).toContain(
      "GITHUB_APP_ID: must be the GitHub App's numeric id",
    );
    expect(configError({ GITHUB_APP_ID: "1", GITHUB_APP_PRIVATE_KEY: "secret", ...client })).toContain(
      "GITHUB_APP_PRIVATE_KEY: must be the GitHub App's PEM private key",
    );
    // Without its OAuth client no installation could be proven to be the user's.
    const withoutClient = configError({ GITHUB_APP_ID: "123", GITHUB_APP_PRIVATE_KEY: key });
    expect(withoutClient).toContain("GITHUB_APP_CLIENT_ID: is required with GITHUB_APP_ID");
    expect(withoutClient).toContain("GITHUB_APP_CLIENT_SECRET: is required with GITHUB_APP_ID");
    expect(configError({ GITHUB_APP_CLIENT_ID: "Iv23.app" })).toContain(
      "GITHUB_APP_CLIENT_ID: is the GitHub App's OAuth client",
    );
  });

  it("bills with the sandbox, a 14-day trial and 15.00 per seat by default; Stripe's key and price together", () => {
    expect(loadConfig({}).billing).toEqual({
      trialDays: DEFAULT_TRIAL_DAYS,
      seatPriceCents: 1500,
      currency: "USD",
      stripe: undefined,
    });
    const stripe = loadConfig({
      TRIAL_DAYS: "30",
      PRO_SEAT_PRICE_CENTS: "2000",
      STRIPE_SECRET_KEY: "sk_test_abc",
      STRIPE_PRICE_ID: "price_123",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      STRIPE_API_URL: "http://127.0.0.1:12111",
    }).billing;
    expect(stripe).toMatchObject({ trialDays: 30, seatPriceCents: 2000 });
    expect(stripe.stripe).toEqual({
      secretKey: "sk_test_abc",
      priceId: "price_123",
      webhookSecret: "whsec_abc",
      apiUrl: "http://127.0.0.1:12111",
    });
    expect(configError({ STRIPE_SECRET_KEY: "sk_test_abc" })).toContain(
      "STRIPE_PRICE_ID: STRIPE_SECRET_KEY and STRIPE_PRICE_ID are set together",
    );
    expect(configError({ STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_PRICE_ID: "price_1" })).toContain(
      "STRIPE_SECRET_KEY: must be a Stripe secret key",
    );
    expect(configError({ TRIAL_DAYS: "0" })).toContain("TRIAL_DAYS: must be a whole number of days");
    expect(configError({ PRO_SEAT_PRICE_CENTS: "9.99" })).toContain(
      "PRO_SEAT_PRICE_CENTS: must be a whole number",
    );
  });

  it("refuses sandbox billing in production outside local mode unless BILLING_SANDBOX=true chooses it", () => {
    const { STRIPE_SECRET_KEY: _key, STRIPE_PRICE_ID: _price, ...withoutStripe } = DEPLOYED;
    const production = { ...withoutStripe, FIREBASE_PROJECT_ID: "argus-prod" };
    expect(configError(production)).toContain(
      "STRIPE_SECRET_KEY: is required in production unless LOCAL_MODE=true or BILLING_SANDBOX=true",
    );
    expect(loadConfig({ ...production, BILLING_SANDBOX: "true" }).billing.stripe).toBeUndefined();
    expect(loadConfig({ ...production, LOCAL_MODE: "true" }).billing.stripe).toBeUndefined();
    expect(loadConfig({ ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod" }).billing.stripe).toMatchObject({
      secretKey: "sk_live_abc",
    });
    // Outside production the sandbox stands in by default.
    expect(loadConfig({}).billing.stripe).toBeUndefined();
    // Both at once is no choice.
    expect(
      configError({ BILLING_SANDBOX: "true", STRIPE_SECRET_KEY: "sk_test_a", STRIPE_PRICE_ID: "price_1" }),
    ).toContain("BILLING_SANDBOX: is set together with STRIPE_SECRET_KEY");
    expect(configError({ BILLING_SANDBOX: "yes" })).toContain('BILLING_SANDBOX: must be "true" or "false"');
  });

  it("takes AZURE_DEVOPS_ALLOW_HTTP off by default, and refuses it in production outside local mode", () => {
    expect(loadConfig({}).azureDevOps.allowHttp).toBe(false);
    expect(loadConfig({ AZURE_DEVOPS_ALLOW_HTTP: "true" }).azureDevOps.allowHttp).toBe(true);
    expect(configError({ AZURE_DEVOPS_ALLOW_HTTP: "yes" })).toContain("AZURE_DEVOPS_ALLOW_HTTP: must be");
    const production = { ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod", AZURE_DEVOPS_ALLOW_HTTP: "true" };
    expect(configError(production)).toContain("AZURE_DEVOPS_ALLOW_HTTP: is refused in production");
    expect(loadConfig({ ...production, LOCAL_MODE: "true" }).azureDevOps.allowHttp).toBe(true);
  });

  it("allows no private organisation URL addresses by default, and loopback and private ones when told", () => {
    expect(loadConfig({}).azureDevOps.allowPrivateAddresses).toBe(false);
    expect(
      loadConfig({ AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true" }).azureDevOps.allowPrivateAddresses,
    ).toBe(true);
    expect(configError({ AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "loopback" })).toContain(
      'AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: must be "true" or "false"',
    );
  });

  it("runs two review workers by default, from 0 to 32", () => {
    expect(loadConfig({}).review.workers).toBe(2);
    expect(loadConfig({ REVIEW_WORKERS: "0" }).review.workers).toBe(0);
    expect(loadConfig({ REVIEW_WORKERS: "8" }).review.workers).toBe(8);
    for (const value of ["-1", "33", "1.5", "many"]) {
      expect(configError({ REVIEW_WORKERS: value }), value).toContain(
        "REVIEW_WORKERS: must be a whole number from 0 to 32",
      );
    }
  });

  it("caps event streams at 10 per session and 100 per organisation by default, refusing a count that is not one", () => {
    expect(loadConfig({}).eventStreams).toEqual({ perSession: 10, perOrg: 100 });
    expect(loadConfig({ EVENT_STREAMS_PER_SESSION: "4", EVENT_STREAMS_PER_ORG: "40" }).eventStreams).toEqual({
      perSession: 4,
      perOrg: 40,
    });
    for (const value of ["0", "-1", "1.5", "many"]) {
      const message = configError({ EVENT_STREAMS_PER_SESSION: value, EVENT_STREAMS_PER_ORG: value });
      expect(message, value).toContain("EVENT_STREAMS_PER_SESSION: must be a whole number above 0");
      expect(message, value).toContain("EVENT_STREAMS_PER_ORG: must be a whole number above 0");
    }
  });

  it("calls AI models on private addresses by default only in local mode or outside production", () => {
    const production = { ...DEPLOYED, FIREBASE_PROJECT_ID: "argus-prod" };
    expect(loadConfig(production).aiModel.allowPrivateAddresses).toBe(false);
    expect(loadConfig({ ...production, AI_MODEL_ALLOW_PRIVATE_ADDRESSES: "true" }).aiModel).toMatchObject({
      allowPrivateAddresses: true,
    });
    expect(loadConfig({ ...production, LOCAL_MODE: "true" }).aiModel.allowPrivateAddresses).toBe(true);
    expect(loadConfig({}).aiModel.allowPrivateAddresses).toBe(true);
    expect(loadConfig({ AI_MODEL_ALLOW_PRIVATE_ADDRESSES: "false" }).aiModel.allowPrivateAddresses).toBe(
      false,
    );
    expect(configError({ AI_MODEL_ALLOW_PRIVATE_ADDRESSES: "yes" })).toContain(
      'AI_MODEL_ALLOW_PRIVATE_ADDRESSES: must be "true" or "false"',
    );
  });

  it("runs at most 100 AI passes an hour per organisation by default, from 1 to 100000", () => {
    expect(loadConfig({}).aiModel.reviewsPerHour).toBe(100);
    expect(loadConfig({ AI_MODEL_REVIEWS_PER_HOUR: "500" }).aiModel.reviewsPerHour).toBe(500);
    for (const value of ["0", "100001", "2.5", "lots"]) {
      expect(configError({ AI_MODEL_REVIEWS_PER_HOUR: value }), value).toContain(
        "AI_MODEL_REVIEWS_PER_HOUR: must be a whole number from 1 to 100000",
      );
    }
  });

  it("reads AI model prices as JSON, none by default, and says what is wrong with a bad table", () => {
    expect(loadConfig({}).review.modelPrices).toEqual({});
    expect(
      loadConfig({ AI_MODEL_PRICES: '{"gpt-4o-mini": {"input": 0.15, "output": 0.6}}' }).review.modelPrices,
    ).toEqual({ "gpt-4o-mini": { input: 0.15, output: 0.6 } });
    expect(configError({ AI_MODEL_PRICES: "gpt-4o-mini=0.15" })).toContain("AI_MODEL_PRICES: must be JSON");
    expect(configError({ AI_MODEL_PRICES: '{"m": {"input": -1, "output": 1}}' })).toContain(
      "AI_MODEL_PRICES",
    );
  });
});

describe("SECRETS_ENCRYPTION_KEY", () => {
  const KEY = Buffer.alloc(32, 9);

  it("is 32 base64 bytes; previous keys are a comma-separated list of such keys", () => {
    const config = loadConfig({
      SECRETS_ENCRYPTION_KEY: KEY.toString("base64"),
      SECRETS_ENCRYPTION_PREVIOUS_KEYS: `${Buffer.alloc(32, 1).toString("base64")},${Buffer.alloc(32, 2).toString("base64")}`,
    });
    expect(config.secrets.key?.equals(KEY)).toBe(true);
    expect(config.secrets.previousKeys).toEqual([Buffer.alloc(32, 1), Buffer.alloc(32, 2)]);
    for (const bad of ["short", Buffer.alloc(16).toString("base64"), "not base64!"]) {
      const message = configError({ SECRETS_ENCRYPTION_KEY: bad });
      expect(message).toContain("SECRETS_ENCRYPTION_KEY: must be 32 random bytes in base64");
      expect(message).not.toContain(bad);
    }
  });

  it("unset, is generated into DATA_DIR, or kept in memory with the database", () => {
    expect(loadConfig({ DATA_DIR: "./here" }).secrets).toEqual({
      key: undefined,
      previousKeys: [],
      keyFile: path.resolve("here", "secrets-encryption.key"),
    });
    expect(loadConfig({ DATA_DIR: "memory://" }).secrets.keyFile).toBeUndefined();
  });

  it("is required in production unless LOCAL_MODE=true", () => {
    const { SECRETS_ENCRYPTION_KEY: _key, ...unset } = DEPLOYED;
    const env = { ...unset, FIREBASE_PROJECT_ID: "argus-prod" };
    expect(configError(env)).toContain(
      "SECRETS_ENCRYPTION_KEY: is required in production unless LOCAL_MODE=true",
    );
    expect(loadConfig({ ...env, LOCAL_MODE: "true" }).secrets.key).toBeUndefined();
  });
});

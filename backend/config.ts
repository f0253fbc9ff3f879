/**
 * Backend configuration: the environment, validated once at start-up. Every problem is reported
 * together, one line per variable, so an operator fixes them in one go.
 */
import path from "node:path";
import { z } from "zod";
import {
  DEFAULT_CURRENCY,
  DEFAULT_PRODUCT_NAME,
  DEFAULT_TRIAL_DAYS,
  EVENT_STREAMS_PER_ORG_DEFAULT,
  SESSION_COOKIE_MAX_AGE_SECONDS,
} from "../shared/constants.ts";
import { SESSION_AUDIENCE_DEFAULT, SESSION_ISSUER_DEFAULT } from "../shared/contract/accounts.ts";
import {
  booleanFlagSchema,
  ConfigError,
  checkPublicOrigin,
  emulatorHostSchema,
  eventStreamsPerSessionSchema,
  firebaseProjectIdSchema,
  isDemoProject,
  type LogLevel,
  localModeSchema,
  logLevelSchema,
  type NodeEnv,
  nodeEnvSchema,
  parseEnv,
  portSchema,
  positiveCountSchema,
  publicOriginSchema,
  sessionSecretSchema,
} from "../shared/node/env.ts";
import { httpUrl } from "../shared/node/http-server.ts";
import type { StripeSettings } from "./billing/stripe.ts";
import type { EventStreamLimits } from "./http/event-streams.ts";
import { type PriceTable, priceTableSchema } from "./review/reviewers/ai/pricing.ts";
import { SECRETS_KEY_FILE, type SecretsConfig, secretsKeySchema } from "./secrets/keys.ts";

/** What Pro costs per seat and month unless PRO_SEAT_PRICE_CENTS says otherwise: 15.00 USD. */
export const DEFAULT_SEAT_PRICE_CENTS = 1500;

/** AI passes an organisation's reviews may run an hour unless AI_MODEL_REVIEWS_PER_HOUR says otherwise. */
export const DEFAULT_AI_REVIEWS_PER_HOUR = 100;

/** DATA_DIR value that keeps the embedded database in memory (tests, throw-away demos). */
export const IN_MEMORY_DATA_DIR = "memory://";

export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "pglite"; dataDir: string | undefined };

/** Where the gateway listens by default: the backend cannot know it, so outside production it assumes this. */
const DEFAULT_GATEWAY = { host: "127.0.0.1", port: 3000 };

/** How e-mail leaves: an SMTP server, or the local outbox (local mode and development only). */
export type MailTransport = { kind: "smtp"; url: string } | { kind: "outbox" };

export interface BackendConfig {
  nodeEnv: NodeEnv;
  /** LOCAL_MODE: local stand-ins (the Firebase Auth emulator) are allowed even in production. */
  localMode: boolean;
  logLevel: LogLevel;
  host: string;
  port: number;
  /**
   * DATA_DIR, resolved, when the backend keeps files there (the embedded database, a generated
   * secrets key): its private folder, 0700. Undefined with DATA_DIR=memory://, or on Postgres with
   * SECRETS_ENCRYPTION_KEY set.
   */
  dataDir: string | undefined;
  /** Postgres when DATABASE_URL is set, else embedded PGlite (`dataDir` undefined = in memory). */
  database: DatabaseTarget;
  firebase: {
    projectId: string;
    authEmulatorHost: string | undefined;
    /** FIREBASE_API_KEY: the Identity Toolkit REST calls (password reset) need it outside the emulator. */
    apiKey?: string | undefined;
  };
  /** PUBLIC_ORIGIN: where the links in e-mails point (the gateway's origin). */
  publicOrigin: string;
  productName: string;
  mail: { transport: MailTransport; from: string };
  /** GitHub OAuth app (sign-in by code) and the API that says which addresses are verified. */
  github: {
    clientId?: string | undefined;
    clientSecret?: string | undefined;
    apiUrl: string;
    oauthUrl: string;
    /**
     * GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY: the GitHub App that code-host installations are
     * made with; GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET: its own OAuth client, which
     * turns the `code` of its setup redirect into a user token, the proof that the user can reach
     * the installation (docs/decisions/027-installation-ownership.md). Unset: the sandbox code host
     * stands in (docs/decisions/009-code-hosts.md).
     */
    app?: { id: string; privateKey: string; clientId: string; clientSecret: string } | undefined;
    /** GITHUB_WEBHOOK_SECRET: checks the signature of GitHub's webhook deliveries. */
    webhookSecret?: string | undefined;
  };
  /**
   * AZURE_DEVOPS_ALLOW_HTTP: an Azure DevOps setup may name an http organisation URL (the local
   * fake of the tests); refused in production outside local mode.
   */
  azureDevOps: {
    allowHttp: boolean;
    /**
     * AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: an organisation URL may resolve to loopback or a private
     * network (off by default): a company's Azure DevOps Server on its own network, or the tests'
     * fake on loopback. Link-local and metadata addresses never (backend/net/outbound-address.ts).
     */
    allowPrivateAddresses: boolean;
  };
  /**
   * REVIEW_WORKERS: review jobs run at once by this backend on Postgres (embedded PGlite runs one).
   * AI_MODEL_PRICES: USD per million input and output tokens by model name, for the AI pass's cost.
   */
  review: { workers: number; modelPrices: PriceTable };
  /**
   * EVENT_STREAMS_PER_SESSION and EVENT_STREAMS_PER_ORG: event streams one session, and one
   * organisation, may hold open at once (docs/decisions/032-event-stream-limits.md).
   */
  eventStreams: EventStreamLimits;
  /** The organisations' AI models (docs/decisions/030-model-outbound-calls.md). */
  aiModel: {
    /**
     * AI_MODEL_ALLOW_PRIVATE_ADDRESSES: a base URL may resolve to loopback or a private network (a
     * model server beside the backend). Default: on in local mode and outside production, off in
     * production. Link-local and cloud metadata addresses are refused either way.
     */
    allowPrivateAddresses: boolean;
    /** AI_MODEL_REVIEWS_PER_HOUR: the AI passes one organisation's reviews may run an hour. */
    reviewsPerHour: number;
  };
  billing: {
    /** TRIAL_DAYS: how long a new organisation's Pro trial lasts. */
    trialDays: number;
    /** PRO_SEAT_PRICE_CENTS: Pro's price per seat and month as shown (with Stripe, match the price). */
    seatPriceCents: number;
    currency: string;
    /**
     * STRIPE_SECRET_KEY and STRIPE_PRICE_ID (with STRIPE_WEBHOOK_SECRET, STRIPE_API_URL): billing
     * through Stripe. Unset: the sandbox stands in (docs/decisions/011-billing.md), which
     * production outside local mode allows only with BILLING_SANDBOX=true.
     */
    stripe?: StripeSettings | undefined;
  };
  /** The key stored secrets (AI model API keys, the session signing key) are encrypted with: backend/secrets/keys.ts. */
  secrets: SecretsConfig;
  session: {
    /** Set: tokens are HS256 with this secret. Unset: ES256 with a key pair kept in the database. */
    secret: string | undefined;
    issuer: string;
    audience: string;
    ttlSeconds: number;
  };
}

const envSchema = z
  .object({
    NODE_ENV: nodeEnvSchema,
    LOCAL_MODE: localModeSchema,
    LOG_LEVEL: logLevelSchema,
    BACKEND_HOST: z.string().default("127.0.0.1"),
    BACKEND_PORT: portSchema(3001),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
    DATA_DIR: z.string().default("./.data"),
    FIREBASE_PROJECT_ID: firebaseProjectIdSchema,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHostSchema,
    FIREBASE_API_KEY: z.string().min(1).optional(),
    PUBLIC_ORIGIN: publicOriginSchema,
    ALLOW_HTTP_ORIGIN: booleanFlagSchema,
    PRODUCT_NAME: z.string().trim().min(1).default(DEFAULT_PRODUCT_NAME),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
    MAIL_FROM: z.string().trim().min(1).optional(),
    GITHUB_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.github.com"),
    GITHUB_OAUTH_URL: z.url({ protocol: /^https?$/ }).default("https://github.com"),
    GITHUB_APP_ID: z.string().regex(/^\d+$/, "must be the GitHub App's numeric id").optional(),
    GITHUB_APP_PRIVATE_KEY: z
      .string()
      // One line in .env files and container settings: "\n" stands for a line break.
      .transform((key) => key.replaceAll("\\n", "\n").trim())
      .refine((key) => key.startsWith("-----BEGIN"), "must be the GitHub App's PEM private key")
      .optional(),
    GITHUB_APP_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_APP_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_WEBHOOK_SECRET: z.string().min(1).optional(),
    AZURE_DEVOPS_ALLOW_HTTP: booleanFlagSchema,
    TRIAL_DAYS: z.coerce
      .number({ error: "must be a whole number of days" })
      .int("must be a whole number of days")
      .min(1, "must be a whole number of days")
      .max(365, "must be at most 365 days")
      .default(DEFAULT_TRIAL_DAYS),
    PRO_SEAT_PRICE_CENTS: z.coerce
      .number({ error: "must be a whole number of cents" })
      .int("must be a whole number of cents")
      .positive("must be a whole number of cents")
      .default(DEFAULT_SEAT_PRICE_CENTS),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_... or rk_...)")
      .optional(),
    STRIPE_PRICE_ID: z
      .string()
      .regex(/^price_/, "must be a Stripe price id (price_...)")
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, "must be a webhook signing secret (whsec_...)")
      .optional(),
    STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: booleanFlagSchema,
    BILLING_SANDBOX: booleanFlagSchema,
    AI_MODEL_PRICES: z
      .string()
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({
            code: "custom",
            message: 'must be JSON: {"<model>": {"input": 0.15, "output": 0.6}}',
          });
          return z.NEVER;
        }
      })
      .pipe(priceTableSchema)
      .default({}),
    AI_MODEL_ALLOW_PRIVATE_ADDRESSES: z
      .enum(["true", "false"], { error: 'must be "true" or "false"' })
      .transform((value) => value === "true")
      .optional(),
    AI_MODEL_REVIEWS_PER_HOUR: z.coerce
      .number({ error: "must be a whole number from 1 to 100000" })
      .int("must be a whole number from 1 to 100000")
      .min(1, "must be a whole number from 1 to 100000")
      .max(100_000, "must be a whole number from 1 to 100000")
      .default(DEFAULT_AI_REVIEWS_PER_HOUR),
    REVIEW_WORKERS: z.coerce
      .number({ error: "must be a whole number from 0 to 32" })
      .int("must be a whole number from 0 to 32")
      .min(0, "must be a whole number from 0 to 32")
      .max(32, "must be a whole number from 0 to 32")
      .default(2),
    EVENT_STREAMS_PER_SESSION: eventStreamsPerSessionSchema,
    EVENT_STREAMS_PER_ORG: positiveCountSchema(EVENT_STREAMS_PER_ORG_DEFAULT),
    SESSION_SECRET: sessionSecretSchema,
    SECRETS_ENCRYPTION_KEY: secretsKeySchema.optional(),
    SECRETS_ENCRYPTION_PREVIOUS_KEYS: z
      .string()
      .transform((keys) => keys.split(",").filter(Boolean))
      .pipe(z.array(secretsKeySchema))
      .optional(),
    SESSION_ISSUER: z.string().default(SESSION_ISSUER_DEFAULT),
    SESSION_AUDIENCE: z.string().default(SESSION_AUDIENCE_DEFAULT),
    SESSION_TTL_SECONDS: z.coerce
      .number({ error: "must be a whole number of seconds" })
      .int("must be a whole number of seconds")
      .positive("must be a whole number of seconds")
      .default(SESSION_COOKIE_MAX_AGE_SECONDS),
  })
  .superRefine((env, ctx) => {
    checkPublicOrigin(env, ctx);
    if (Boolean(env.GITHUB_CLIENT_ID) !== Boolean(env.GITHUB_CLIENT_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.GITHUB_CLIENT_ID ? "GITHUB_CLIENT_SECRET" : "GITHUB_CLIENT_ID"],
        message: "GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are set together or not at all",
      });
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_PRICE_ID)) {
      ctx.addIssue({
        code: "custom",
        path: [env.STRIPE_SECRET_KEY ? "STRIPE_PRICE_ID" : "STRIPE_SECRET_KEY"],
        message: "STRIPE_SECRET_KEY and STRIPE_PRICE_ID are set together or not at all",
      });
    }
    if (env.BILLING_SANDBOX && env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["BILLING_SANDBOX"],
        message: "is set together with STRIPE_SECRET_KEY: choose sandbox billing or Stripe, not both",
      });
    }
    if (Boolean(env.GITHUB_APP_ID) !== Boolean(env.GITHUB_APP_PRIVATE_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [env.GITHUB_APP_ID ? "GITHUB_APP_PRIVATE_KEY" : "GITHUB_APP_ID"],
        message: "GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY are set together or not at all",
      });
    }
    // Without its OAuth client an installation could not be proven to be the user's: any
    // organisation could claim any installation by its id.
    const appClient = {
      GITHUB_APP_CLIENT_ID: env.GITHUB_APP_CLIENT_ID,
      GITHUB_APP_CLIENT_SECRET: env.GITHUB_APP_CLIENT_SECRET,
    };
    for (const [name, value] of Object.entries(appClient)) {
      if (Boolean(env.GITHUB_APP_ID) !== Boolean(value)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: env.GITHUB_APP_ID
            ? "is required with GITHUB_APP_ID (the App's OAuth client proves who installed it)"
            : "is the GitHub App's OAuth client: set it with GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY",
        });
      }
    }
    // Outside local mode, production has no place for local stand-ins: mail must really leave,
    // and password resets go to the real Identity Toolkit API, which needs the project's key.
    if (env.NODE_ENV === "production" && !env.LOCAL_MODE) {
      // A personal access token would cross the network in the clear.
      if (env.AZURE_DEVOPS_ALLOW_HTTP) {
        ctx.addIssue({
          code: "custom",
          path: ["AZURE_DEVOPS_ALLOW_HTTP"],
          message: "is refused in production unless LOCAL_MODE=true (tokens would travel unencrypted)",
        });
      }
      if (!env.SMTP_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["SMTP_URL"],
          message: "is required in production unless LOCAL_MODE=true (the local outbox sends nothing)",
        });
      }
      if (!env.SECRETS_ENCRYPTION_KEY) {
        ctx.addIssue({
          code: "custom",
          path: ["SECRETS_ENCRYPTION_KEY"],
          message:
            "is required in production unless LOCAL_MODE=true (32 random bytes, base64: openssl rand -base64 32)",
        });
      }
      if (!env.FIREBASE_API_KEY) {
        ctx.addIssue({
          code: "custom",
          path: ["FIREBASE_API_KEY"],
          message: "is required in production unless LOCAL_MODE=true (password resets need it)",
        });
      }
      // The sandbox charges nothing: anyone signed in could buy every seat for free. A deployment
      // may still choose it (a demo), but never by leaving Stripe out.
      if (!env.STRIPE_SECRET_KEY && !env.BILLING_SANDBOX) {
        ctx.addIssue({
          code: "custom",
          path: ["STRIPE_SECRET_KEY"],
          message:
            "is required in production unless LOCAL_MODE=true or BILLING_SANDBOX=true (sandbox billing charges nothing)",
        });
      }
    }
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production" || !isDemoProject(env.FIREBASE_PROJECT_ID)) return;
    // Local mode may run production code against the emulator, which is where demo- projects live.
    if (env.LOCAL_MODE && env.FIREBASE_AUTH_EMULATOR_HOST) return;
    ctx.addIssue({
      code: "custom",
      path: ["FIREBASE_PROJECT_ID"],
      message: "a demo- project only works with the emulator; set your Firebase project id in production",
    });
  });

export { ConfigError };

/** Reads and validates the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const e = parseEnv(envSchema, env, "backend", { keepEmpty: ["SESSION_SECRET"] });
  const dataDir = e.DATA_DIR === IN_MEMORY_DATA_DIR ? undefined : path.resolve(e.DATA_DIR);
  const keepsFiles = !e.DATABASE_URL || !e.SECRETS_ENCRYPTION_KEY;
  return {
    nodeEnv: e.NODE_ENV,
    localMode: e.LOCAL_MODE,
    logLevel: e.LOG_LEVEL,
    host: e.BACKEND_HOST,
    port: e.BACKEND_PORT,
    dataDir: keepsFiles ? dataDir : undefined,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dataDir: dataDir && path.join(dataDir, "pglite") },
    firebase: {
      projectId: e.FIREBASE_PROJECT_ID,
      authEmulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST,
      apiKey: e.FIREBASE_API_KEY,
    },
    publicOrigin: new URL(e.PUBLIC_ORIGIN ?? httpUrl(DEFAULT_GATEWAY.host, DEFAULT_GATEWAY.port)).origin,
    productName: e.PRODUCT_NAME,
    mail: {
      transport: e.SMTP_URL ? { kind: "smtp", url: e.SMTP_URL } : { kind: "outbox" },
      from: e.MAIL_FROM ?? `${e.PRODUCT_NAME} <no-reply@localhost>`,
    },
    github: {
      clientId: e.GITHUB_CLIENT_ID,
      clientSecret: e.GITHUB_CLIENT_SECRET,
      apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ""),
      oauthUrl: e.GITHUB_OAUTH_URL.replace(/\/+$/, ""),
      app:
        e.GITHUB_APP_ID && e.GITHUB_APP_PRIVATE_KEY && e.GITHUB_APP_CLIENT_ID && e.GITHUB_APP_CLIENT_SECRET
          ? {
              id: e.GITHUB_APP_ID,
              privateKey: e.GITHUB_APP_PRIVATE_KEY,
              clientId: e.GITHUB_APP_CLIENT_ID,
              clientSecret: e.GITHUB_APP_CLIENT_SECRET,
            }
          : undefined,
      webhookSecret: e.GITHUB_WEBHOOK_SECRET,
    },
    azureDevOps: {
      allowHttp: e.AZURE_DEVOPS_ALLOW_HTTP,
      allowPrivateAddresses: e.AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES,
    },
    billing: {
      trialDays: e.TRIAL_DAYS,
      seatPriceCents: e.PRO_SEAT_PRICE_CENTS,
      currency: DEFAULT_CURRENCY,
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_PRICE_ID
          ? {
              secretKey: e.STRIPE_SECRET_KEY,
              priceId: e.STRIPE_PRICE_ID,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
              apiUrl: e.STRIPE_API_URL,
            }
          : undefined,
    },
    review: { workers: e.REVIEW_WORKERS, modelPrices: e.AI_MODEL_PRICES },
    eventStreams: { perSession: e.EVENT_STREAMS_PER_SESSION, perOrg: e.EVENT_STREAMS_PER_ORG },
    aiModel: {
      // `npm start` (local mode) and development talk to a model on localhost; a deployment says so.
      allowPrivateAddresses:
        e.AI_MODEL_ALLOW_PRIVATE_ADDRESSES ?? (e.LOCAL_MODE || e.NODE_ENV !== "production"),
      reviewsPerHour: e.AI_MODEL_REVIEWS_PER_HOUR,
    },
    secrets: {
      key: e.SECRETS_ENCRYPTION_KEY,
      previousKeys: e.SECRETS_ENCRYPTION_PREVIOUS_KEYS ?? [],
      keyFile: dataDir && path.join(dataDir, SECRETS_KEY_FILE),
    },
    session: {
      secret: e.SESSION_SECRET,
      issuer: e.SESSION_ISSUER,
      audience: e.SESSION_AUDIENCE,
      ttlSeconds: e.SESSION_TTL_SECONDS,
    },
  };
}

/**
 * The backend as an Express app without a listening socket (index.ts listens; tests use
 * supertest). Opening it connects the database, applies migrations and loads the signing key.
 */
import express, { type Express } from "express";
import { createLogger, type Logger, requestLogger } from "../shared/node/logging.ts";
import { modelSettingsReader } from "./ai-models/reader.ts";
import { requireSession } from "./auth/require-session.ts";
import { createSessionTokens, type SessionTokens } from "./auth/session-tokens.ts";
import { loadSessionKey } from "./auth/signing-key.ts";
import type { BillingDeps } from "./billing/billing-deps.ts";
import { type Clock, systemClock } from "./billing/clock.ts";
import { createSandboxBilling } from "./billing/sandbox.ts";
import { createStripeBilling, createStripeClient } from "./billing/stripe.ts";
import type { TrialTerms } from "./billing/subscriptions.ts";
import { sealStoredPersonalAccessTokens } from "./code-hosts/azure-devops/connection.ts";
import { azureDevOpsWebhooksRouter } from "./code-hosts/azure-devops/webhook-route.ts";
import { createGitHubClient } from "./code-hosts/github/api-client.ts";
import { githubCommandAccess } from "./code-hosts/github/command-access.ts";
import { githubReviewHosts } from "./code-hosts/github/review-adapter.ts";
import { webhooksRouter } from "./code-hosts/github/webhook-route.ts";
import { installationFlow, reviewHostFor } from "./code-hosts/registry.ts";
import { sandboxPullsRouter } from "./code-hosts/sandbox/pulls-route.ts";
import type { BackendConfig } from "./config.ts";
import { createContributorImport } from "./contributors/import.ts";
import { type Db, openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrations.ts";
import { privateFolder } from "./db/private-files.ts";
import { createBackgroundTasks } from "./http/background.ts";
import { errorHandler, notFoundHandler } from "./http/errors.ts";
import { eventStreamGate } from "./http/event-streams.ts";
import { strictRouting } from "./http/router.ts";
import { createFirebaseIdentity, type Identity } from "./identity/firebase.ts";
import { accountMailSender } from "./mail/account-mail.ts";
import { createMailer } from "./mail/mailer.ts";
import type { HostLookup } from "./net/outbound-address.ts";
import { deploymentMarkers } from "./review/pipeline/markers.ts";
import { createReviewPipeline } from "./review/pipeline/pipeline.ts";
import {
  DEFAULT_QUEUE_OPTIONS,
  openReviewQueue,
  type QueueOptions,
  type ReviewQueue,
} from "./review/queue/queue.ts";
import { type ReviewPipeline, reviewWorker } from "./review/queue/worker.ts";
import type { ReviewSettingsReader } from "./review/review-settings.ts";
import { aiSdkModelProviders, type ModelAddressPolicy } from "./review/reviewers/ai/ai-sdk-provider.ts";
import type { CreateModelProvider } from "./review/reviewers/ai/model-provider.ts";
import { accountRouter } from "./routes/account.ts";
import { aiModelRouter } from "./routes/ai-model.ts";
import { type AuthDeps, authRouter } from "./routes/auth.ts";
import { contributorsRouter } from "./routes/contributors.ts";
import { healthRouter } from "./routes/health.ts";
import { integrationsRouter } from "./routes/integrations.ts";
import { jwksRouter } from "./routes/jwks.ts";
import { outboxRouter } from "./routes/outbox.ts";
import { passwordRouter } from "./routes/password.ts";
import { sandboxBillingRouter, validateSessionRouter } from "./routes/payment-sessions.ts";
import { projectsRouter } from "./routes/projects.ts";
import { reviewsRouter } from "./routes/reviews.ts";
import { seatsRouter } from "./routes/seats.ts";
import { settingsRouter } from "./routes/settings.ts";
import { signupRouter } from "./routes/signup.ts";
import { stripeWebhooksRouter } from "./routes/stripe-webhooks.ts";
import { subscriptionRouter } from "./routes/subscription.ts";
import { suppressedFindingsRouter } from "./routes/suppressed-findings.ts";
import { authRateLimitRouter } from "./scale/auth-rate-limit.ts";
import { createSecretBox } from "./secrets/secret-box.ts";
import { effectiveSettings } from "./settings/effective.ts";

export interface Backend {
  app: Express;
  db: Db;
  /** Mints and verifies this backend's session tokens (tests, tooling). */
  tokens: SessionTokens;
  /** The terms new organisations start their Pro trial on (tests create accounts with them). */
  trial: TrialTerms;
  /** The review queue: ingest sends to it, its workers run the review pipeline. */
  queue: ReviewQueue;
  /** Resolves once the work requests left running after their answer (e-mails) is done. */
  settled(): Promise<void>;
  /**
   * Waits for that work, stops the review workers (a review still running past their stop timeout
   * is taken again by the next start), then releases the database and the clients; call after the
   * server stopped.
   */
  close(): Promise<void>;
}

/** Request bodies are small JSON documents; anything larger is refused with 413. */
const JSON_BODY_LIMIT = "100kb";

export interface BackendOptions {
  logger?: Logger;
  /**
   * The identity provider; default Firebase as `config.firebase` says. Tests without the Firebase
   * emulator pass one of their own (and close it themselves).
   */
  identity?: Identity;
  /** The billing clock (trials, periods, cancellations); the real time by default. Tests set it. */
  clock?: Clock;
  /**
   * What a review run does once started. Default: the review pipeline (review/pipeline/pipeline.ts: triage,
   * diff, the built-in reviewer, posting); tests may hold runs with a pipeline of their own.
   */
  pipeline?: ReviewPipeline;
  /** The review settings of an organisation's project; default `effectiveSettings` (settings/effective.ts). */
  reviewSettings?: ReviewSettingsReader;
  /** Queue timings (tests shorten the heartbeat to see a dead worker's job come back). */
  queue?: Partial<QueueOptions>;
  /** Makes the model a connection test and the reviews' AI pass ask; default the AI SDK one. */
  createModelProvider?: CreateModelProvider;
  /**
   * How the host names of model base URLs resolve before their addresses are checked
   * (net/outbound-address.ts); default the system resolver. Tests point a name at any address.
   */
  lookupHost?: HostLookup;
}

export async function createBackend(config: BackendConfig, options: BackendOptions = {}): Promise<Backend> {
  const logger = options.logger ?? createLogger({ name: "backend", level: config.logLevel });
  // Before anything is written there: the data directory is the backend's alone (db/private-files.ts).
  if (config.dataDir) await privateFolder(config.dataDir);
  const db = await openDatabase(config.database);
  // Stored secrets (the session signing key, AI model API keys, Azure DevOps tokens) are sealed and
  // opened with it (docs/security.md#secrets-at-rest).
  const secrets = createSecretBox(config.secrets);
  let tokens: SessionTokens;
  let queue: ReviewQueue;
  try {
    await migrateToLatest(db);
    // Tokens stored before they were sealed: a migration cannot seal them, it has no key.
    await sealStoredPersonalAccessTokens({ db, secrets, logger });
    tokens = createSessionTokens(await loadSessionKey(config.session, db, secrets), config.session);
    queue = await openReviewQueue(
      db,
      config.database,
      { ...DEFAULT_QUEUE_OPTIONS, ...options.queue },
      (error) => logger.error({ err: error }, "review queue failed"),
    );
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const clock = options.clock ?? systemClock;
  // The review markers are signed with a key derived from the same secret (decision 029); the
  // workers write them, the sandbox's reactions read them.
  const markers = deploymentMarkers(config.secrets);
  const modelAddresses: ModelAddressPolicy = {
    policy: { allowPrivate: config.aiModel.allowPrivateAddresses },
    lookupHost: options.lookupHost,
  };
  const createModelProvider = options.createModelProvider ?? aiSdkModelProviders(modelAddresses);
  // REVIEW_WORKERS=0: this backend takes webhooks in and leaves the reviews to other processes.
  if (config.review.workers > 0) {
    const pipeline =
      options.pipeline ??
      createReviewPipeline({
        db,
        hostFor: reviewHostFor({
          db,
          secrets,
          logger,
          github:
            config.github.app &&
            githubReviewHosts({
              appId: config.github.app.id,
              privateKey: config.github.app.privateKey,
              apiUrl: config.github.apiUrl,
            }),
        }),
        settings: options.reviewSettings ?? effectiveSettings,
        clock,
        productName: config.productName,
        publicOrigin: config.publicOrigin,
        markers,
        models: {
          settingsFor: modelSettingsReader({ db, secrets, logger }),
          create: createModelProvider,
          prices: config.review.modelPrices,
          reviewsPerHour: config.aiModel.reviewsPerHour,
        },
      });
    await queue.start(reviewWorker(db, pipeline, logger), { workers: config.review.workers });
  }
  const identity = options.identity ?? createFirebaseIdentity(config.firebase);
  const ownsIdentity = options.identity === undefined;
  const mailer = createMailer(config.mail, db, logger);
  const background = createBackgroundTasks();
  // Without a GitHub App the sandbox stands in, so connecting works on one machine (decision 009).
  const installations = await installationFlow(config);
  const contributorImport = createContributorImport(db, installations);
  const trial: TrialTerms = { clock, days: config.billing.trialDays };
  // Without Stripe keys the sandbox stands in, so billing works on one machine (decision 011).
  const stripeSettings = config.billing.stripe;
  const stripe = stripeSettings && createStripeClient(stripeSettings);
  const billing: BillingDeps = {
    db,
    provider:
      stripe && stripeSettings
        ? createStripeBilling(stripe, stripeSettings, config.publicOrigin)
        : createSandboxBilling(config.publicOrigin, clock),
    clock,
    prices: { seatPriceCents: config.billing.seatPriceCents, currency: config.billing.currency },
    publicOrigin: config.publicOrigin,
  };
  const auth: AuthDeps = {
    db,
    identity,
    tokens,
    github: createGitHubClient(config.github),
    background,
    sendAccountMail: accountMailSender({
      identity,
      mailer,
      publicOrigin: config.publicOrigin,
      productName: config.productName,
    }),
    trial,
  };

  const app = express();
  // Before any route: /auth/LOGIN and /auth/login/ are not /auth/login (http/router.ts).
  strictRouting(app);
  app.disable("x-powered-by");
  // Every answer below the health check and the public keys is an organisation's data, a session
  // or a webhook's receipt: no browser or shared cache (a CDN or proxy in front of a self-hosted
  // instance) may keep one, so none is revalidated and an ETag would only cost a hash per answer.
  app.set("etag", false);
  // The gateway sends its request id; keeping it ties both log lines of one request together.
  app.use(requestLogger(logger, { trustIncomingId: true }));
  app.use(healthRouter(db));
  app.use(jwksRouter(tokens));
  app.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  // Before express.json: the signature is checked over the raw body.
  app.use(
    webhooksRouter({
      db,
      github: config.github,
      queue,
      productName: config.productName,
      commandAccess:
        config.github.app &&
        githubCommandAccess({
          appId: config.github.app.id,
          privateKey: config.github.app.privateKey,
          apiUrl: config.github.apiUrl,
        }),
    }),
  );
  app.use(
    stripeWebhooksRouter(
      billing,
      stripe && stripeSettings?.webhookSecret
        ? { client: stripe, webhookSecret: stripeSettings.webhookSecret }
        : undefined,
    ),
  );
  app.use(azureDevOpsWebhooksRouter({ db, secrets, logger, queue, productName: config.productName }));
  app.use(express.json({ limit: JSON_BODY_LIMIT }));
  app.use(authRateLimitRouter(db));
  app.use(authRouter(auth));
  app.use(signupRouter(auth));
  app.use(passwordRouter(auth));
  // Only where config.ts allows the outbox: local mode or outside production.
  if (config.mail.transport.kind === "outbox") app.use(outboxRouter(db));
  // The one public /api call (PUBLIC_API_PATTERN): the browser may come back from checkout signed out.
  app.use(validateSessionRouter(billing, tokens));
  app.use("/api", requireSession(db, tokens));
  app.use(projectsRouter(db));
  app.use(
    integrationsRouter(db, installations, {
      azureDevOpsAllowHttp: config.azureDevOps.allowHttp,
      azureDevOpsAllowPrivateAddresses: config.azureDevOps.allowPrivateAddresses,
      lookupHost: options.lookupHost,
      contributorImport,
      secrets,
      logger,
      publicOrigin: config.publicOrigin,
    }),
  );
  app.use(contributorsRouter(db, installations, contributorImport));
  app.use(seatsRouter(db, clock));
  // Sandbox pull requests answer for sandbox repositories only, whatever the code host is now.
  app.use(sandboxPullsRouter(db, queue, markers, config.productName));
  app.use(accountRouter(db));
  app.use(reviewsRouter(db, queue, eventStreamGate(config.eventStreams)));
  app.use(suppressedFindingsRouter(db));
  app.use(subscriptionRouter(billing));
  if (billing.provider.kind === "sandbox") app.use(sandboxBillingRouter(billing));
  app.use(settingsRouter(db));
  app.use(
    aiModelRouter({
      db,
      secrets,
      logger,
      createModelProvider,
      addresses: modelAddresses,
      clock,
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler);

  return {
    app,
    db,
    tokens,
    trial,
    queue,
    settled: () => background.settled(),
    async close() {
      await background.settled();
      await queue.stop();
      mailer.close();
      if (ownsIdentity) await identity.close();
      await db.destroy();
    },
  };
}

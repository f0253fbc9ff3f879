/**
 * The backend as an Express app without a listening socket (index.ts listens; tests use
 * supertest). Opening it connects the database, applies migrations and loads the signing key.
 */
import express, { type Express } from "express";
import { createLogger, type Logger, requestLogger } from "../shared/logging.ts";
import { requireSession } from "./auth/require-session.ts";
import { createSessionTokens, type SessionTokens } from "./auth/session-tokens.ts";
import { loadSessionKey } from "./auth/signing-key.ts";
import type { BackendConfig } from "./config.ts";
import { type Db, openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrations.ts";
import { createGitHubClient } from "./github/client.ts";
import { createBackgroundTasks } from "./http/background.ts";
import { errorHandler, notFoundHandler } from "./http/errors.ts";
import { strictRouting } from "./http/router.ts";
import { createFirebaseIdentity, type Identity } from "./identity/firebase.ts";
import { createGitHubApp } from "./integrations/github-app.ts";
import { createSandboxCodeHost } from "./integrations/sandbox.ts";
import { accountMailSender } from "./mail/account-mail.ts";
import { createMailer } from "./mail/mailer.ts";
import { accountRouter } from "./routes/account.ts";
import { type AuthDeps, authRouter } from "./routes/auth.ts";
import { healthRouter } from "./routes/health.ts";
import { integrationsRouter } from "./routes/integrations.ts";
import { jwksRouter } from "./routes/jwks.ts";
import { outboxRouter } from "./routes/outbox.ts";
import { passwordRouter } from "./routes/password.ts";
import { projectsRouter } from "./routes/projects.ts";
import { settingsRouter } from "./routes/settings.ts";
import { signupRouter } from "./routes/signup.ts";
import { webhooksRouter } from "./routes/webhooks.ts";

export interface Backend {
  app: Express;
  db: Db;
  /** Mints and verifies this backend's session tokens (tests, tooling). */
  tokens: SessionTokens;
  /** Resolves once the work requests left running after their answer (e-mails) is done. */
  settled(): Promise<void>;
  /** Waits for that work, then releases the database and the clients; call after the server stopped. */
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
}

export async function createBackend(config: BackendConfig, options: BackendOptions = {}): Promise<Backend> {
  const logger = options.logger ?? createLogger({ name: "backend", level: config.logLevel });
  const db = await openDatabase(config.database);
  let tokens: SessionTokens;
  try {
    await migrateToLatest(db);
    tokens = createSessionTokens(await loadSessionKey(config.session, db), config.session);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const identity = options.identity ?? createFirebaseIdentity(config.firebase);
  const ownsIdentity = options.identity === undefined;
  const mailer = createMailer(config.mail, db, logger);
  const background = createBackgroundTasks();
  // Without a GitHub App the sandbox stands in, so connecting works on one machine (decision 009).
  const codeHost = config.github.app
    ? createGitHubApp({ ...config.github.app, apiUrl: config.github.apiUrl })
    : createSandboxCodeHost(config.publicOrigin);
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
  };

  const app = express();
  // Before any route: /auth/LOGIN and /auth/login/ are not /auth/login (http/router.ts).
  strictRouting(app);
  app.disable("x-powered-by");
  // The gateway sends its request id; keeping it ties both log lines of one request together.
  app.use(requestLogger(logger, { trustIncomingId: true }));
  app.use(healthRouter(db));
  app.use(jwksRouter(tokens));
  // Before express.json: the signature is checked over the raw body.
  app.use(webhooksRouter(db, config.github));
  app.use(express.json({ limit: JSON_BODY_LIMIT }));
  app.use(authRouter(auth));
  app.use(signupRouter(auth));
  app.use(passwordRouter(auth));
  // Only where config.ts allows the outbox: local mode or outside production.
  if (config.mail.transport.kind === "outbox") app.use(outboxRouter(db));
  app.use("/api", requireSession(db, tokens));
  app.use(projectsRouter(db));
  app.use(integrationsRouter(db, codeHost, { azureDevOpsAllowHttp: config.azureDevOps.allowHttp }));
  app.use(accountRouter(db));
  app.use(settingsRouter(db));
  app.use(notFoundHandler);
  app.use(errorHandler);

  return {
    app,
    db,
    tokens,
    settled: () => background.settled(),
    async close() {
      await background.settled();
      mailer.close();
      if (ownsIdentity) await identity.close();
      await db.destroy();
    },
  };
}

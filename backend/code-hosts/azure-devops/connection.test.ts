/**
 * The Azure DevOps personal access token at rest (docs/security.md#secrets-at-rest): sealed by a
 * setup, sealed at start-up when it was stored in plain text before, and a token no configured key
 * opens is refused without a trace of it in the log.
 */
import { randomBytes } from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { createLogger } from "../../../shared/node/logging.ts";
import { signedInAccount } from "../../../tests/support/backend-sessions.ts";
import { freshDatabase, TEST_DATABASE_KINDS } from "../../../tests/support/databases.ts";
import {
  type FakeAzureDevOps,
  integrationRowBeforeHooks,
  startFakeAzureDevOps,
} from "../../../tests/support/fake-azure-devops.ts";
import { captureLogs } from "../../../tests/support/gateway.ts";
import { TEST_BACKEND_ENV, testBackends } from "../../../tests/support/test-backend.ts";
import { type Backend, createBackend } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { createSecretBox, isSealed } from "../../secrets/secret-box.ts";
import {
  AzureDevOpsTokenError,
  readAzureDevOpsConnection,
  sealPersonalAccessToken,
  sealStoredPersonalAccessTokens,
} from "./connection.ts";

const KEY = randomBytes(32);

describe.each(TEST_DATABASE_KINDS)("the Azure DevOps token on %s", (kind) => {
  const backends = testBackends(kind);
  let backend: Backend;
  let azure: FakeAzureDevOps;
  const secrets = createSecretBox({ key: KEY, previousKeys: [], keyFile: undefined });
  const logger = createLogger({ name: "test", level: "silent" });

  beforeAll(async () => {
    azure = await startFakeAzureDevOps();
    backend = await backends.start({
      AZURE_DEVOPS_ALLOW_HTTP: "true",
      AZURE_DEVOPS_ALLOW_PRIVATE_ADDRESSES: "true",
      SECRETS_ENCRYPTION_KEY: KEY.toString("base64"),
      REVIEW_WORKERS: "0",
    });
  });
  afterAll(async () => {
    await backends.stop();
    await azure?.close();
  });

  /** Everything the database keeps of the organisation's integration, as text. */
  const storedText = async (orgId: string) =>
    JSON.stringify(
      await backend.db.selectFrom("integrations").selectAll().where("org_id", "=", orgId).executeTakeFirst(),
    );

  it("is stored sealed by a setup, and opens for the organisation only", async () => {
    const { token, orgId } = await signedInAccount(backend, "sealed");
    const setup = await request(backend.app)
      .post(API_PATHS.integrationSetup("azure-devops"))
      .set("Authorization", `Bearer ${token}`)
      .send({
        organization_url: azure.organizationUrl,
        project: azure.project,
        personal_access_token: azure.personalAccessToken,
      });
    expect(setup.status).toBe(200);
    expect(await storedText(orgId)).not.toContain(azure.personalAccessToken);
    const connection = await readAzureDevOpsConnection({ db: backend.db, secrets, logger }, orgId);
    expect(connection?.personalAccessToken).toBe(azure.personalAccessToken);

    // Copied into another organisation's row, the sealed token does not open there.
    const other = await signedInAccount(backend, "copier");
    const row = await backend.db
      .selectFrom("integrations")
      .select(["properties", "secrets"])
      .where("org_id", "=", orgId)
      .executeTakeFirstOrThrow();
    await backend.db
      .insertInto("integrations")
      .values({
        org_id: other.orgId,
        name: "azure-devops",
        integration_key: "azure-devops",
        properties: JSON.stringify(row.properties),
        secrets: JSON.stringify(row.secrets),
      })
      .execute();
    await expect(readAzureDevOpsConnection({ db: backend.db, secrets, logger }, other.orgId)).rejects.toThrow(
      AzureDevOpsTokenError,
    );
  });

  it("is sealed at start-up when it was stored in plain text before", async () => {
    const { orgId } = await signedInAccount(backend, "plaintext");
    await backend.db.insertInto("integrations").values(integrationRowBeforeHooks(azure, orgId)).execute();
    expect(await storedText(orgId)).toContain(azure.personalAccessToken);

    // What createBackend runs after the migrations (backend/app.ts).
    expect(await sealStoredPersonalAccessTokens({ db: backend.db, secrets, logger })).toBe(1);
    const stored = await storedText(orgId);
    expect(stored).not.toContain(azure.personalAccessToken);
    const row = await backend.db
      .selectFrom("integrations")
      .select("secrets")
      .where("org_id", "=", orgId)
      .executeTakeFirstOrThrow();
    expect(isSealed(row.secrets.personal_access_token ?? "")).toBe(true);
    expect(
      (await readAzureDevOpsConnection({ db: backend.db, secrets, logger }, orgId))?.personalAccessToken,
    ).toBe(azure.personalAccessToken);
    // Nothing left to seal: a second start changes nothing.
    expect(await sealStoredPersonalAccessTokens({ db: backend.db, secrets, logger })).toBe(0);
  });

  it("is sealed when the backend starts", async () => {
    const database = await freshDatabase(kind, { survivesRestart: true });
    const env = {
      ...TEST_BACKEND_ENV,
      ...database.env,
      SECRETS_ENCRYPTION_KEY: KEY.toString("base64"),
      REVIEW_WORKERS: "0",
    };
    try {
      const first = await createBackend(loadConfig(env));
      const { orgId } = await signedInAccount(first, "restart");
      await first.db.insertInto("integrations").values(integrationRowBeforeHooks(azure, orgId)).execute();
      await first.close();
      const second = await createBackend(loadConfig(env));
      try {
        const row = await second.db
          .selectFrom("integrations")
          .select("secrets")
          .where("org_id", "=", orgId)
          .executeTakeFirstOrThrow();
        expect(JSON.stringify(row)).not.toContain(azure.personalAccessToken);
        expect(isSealed(row.secrets.personal_access_token ?? "")).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("is refused, without a trace of it in the log, when no configured key opens it", async () => {
    const { orgId } = await signedInAccount(backend, "rekeyed");
    const oldBox = createSecretBox({ key: randomBytes(32), previousKeys: [], keyFile: undefined });
    await backend.db
      .insertInto("integrations")
      .values(
        integrationRowBeforeHooks(
          azure,
          orgId,
          await sealPersonalAccessToken(oldBox, orgId, azure.personalAccessToken),
        ),
      )
      .execute();
    const logs = captureLogs();
    const logging = createLogger({ name: "test", level: "info" }, logs.stream);
    await expect(
      readAzureDevOpsConnection({ db: backend.db, secrets, logger: logging }, orgId),
    ).rejects.toThrow("cannot be decrypted");
    expect(logs.text()).toContain("cannot be decrypted");
    expect(logs.text()).not.toContain(azure.personalAccessToken);
  });
});

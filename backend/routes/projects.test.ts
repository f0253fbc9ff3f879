import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectsResponseSchema } from "../../shared/contract/code-hosts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  let backend: Backend;
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase(kind);
    backend = await createBackend(
      loadConfig({ LOG_LEVEL: "silent", SESSION_SECRET: "s".repeat(32), ...database.env }),
    );
  });
  afterAll(async () => {
    await backend?.close();
    await database?.drop();
  });

  const sessionToken = (name: string) => signedInAccount(backend, name, "github");

  function project(orgId: string, name: string, integrationName = "github") {
    return {
      org_id: orgId,
      name,
      integration_key: `${integrationName}-key`,
      integration_name: integrationName,
      integration_type: "git",
      external_link: `https://example.com/${name}`,
      properties: JSON.stringify({
        full_name: `acme/${name}`,
        private: true,
        description: null,
        fork: false,
      }),
    };
  }

  describe("GET /api/projects", () => {
    it("lists only the caller's organisation's projects of the asked integration, in the contract's shape", async () => {
      const mine = await sessionToken("mine");
      const theirs = await sessionToken("theirs");
      await backend.db
        .insertInto("projects")
        .values([
          project(mine.orgId, "web"),
          project(mine.orgId, "api"),
          project(mine.orgId, "infra", "azure"),
          project(theirs.orgId, "secret"),
        ])
        .execute();

      const response = await request(backend.app)
        .get(`${API_PATHS.projects}?integrationType=git&integrationName=github`)
        .set("Authorization", `Bearer ${mine.token}`);

      expect(response.status).toBe(200);
      // An organisation's data: no browser or shared cache keeps it, so there is nothing to revalidate.
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers.etag).toBeUndefined();
      const body = v.parse(projectsResponseSchema, response.body);
      expect(body.success).toBe(true);
      expect(body.data.projects.map((p) => p.name)).toEqual(["api", "web"]);
      expect(body.data.projects[0]).toEqual({
        id: expect.any(String),
        name: "api",
        integration_key: "github-key",
        integration_name: "github",
        integration_type: "git",
        external_link: "https://example.com/api",
        active: true,
        webhook_active: false,
        properties: { full_name: "acme/api", private: true, description: null, fork: false },
      });

      const all = await request(backend.app)
        .get(API_PATHS.projects)
        .set("Authorization", `Bearer ${mine.token}`);
      expect(all.body.data.projects.map((p: { name: string }) => p.name)).toEqual(["api", "infra", "web"]);
    });

    it("answers a list that was just read with every change to the organisation's projects", async () => {
      const { token, orgId } = await sessionToken("changes");
      const names = async (query = "") => {
        const response = await request(backend.app)
          .get(`${API_PATHS.projects}${query}`)
          .set("Authorization", `Bearer ${token}`);
        return v.parse(projectsResponseSchema, response.body).data.projects.map((p) => [p.name, p.active]);
      };
      expect(await names()).toEqual([]);
      await backend.db.insertInto("projects").values(project(orgId, "web")).execute();
      expect(await names()).toEqual([["web", true]]);
      expect(await names("?integrationName=github")).toEqual([["web", true]]);
      await backend.db.updateTable("projects").set({ active: false }).where("org_id", "=", orgId).execute();
      expect(await names()).toEqual([["web", false]]);
      expect(await names("?integrationName=github")).toEqual([["web", false]]);
      await backend.db.deleteFrom("projects").where("org_id", "=", orgId).execute();
      expect(await names()).toEqual([]);
    });

    it("answers 400 for a malformed filter", async () => {
      const { token } = await sessionToken("filters");
      const response = await request(backend.app)
        .get(`${API_PATHS.projects}?integrationName=a&integrationName=b`)
        .set("Authorization", `Bearer ${token}`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: "Invalid query", code: "INVALID_REQUEST" });
    });
  });

  describe("service routes", () => {
    it("answers /healthz, hides the JWKS in secret mode and gives JSON 404s", async () => {
      expect((await request(backend.app).get("/healthz")).body).toEqual({ status: "ok" });
      expect((await request(backend.app).get(API_PATHS.jwks)).status).toBe(404);
      const unknown = await request(backend.app).get("/api/nope").set("Authorization", "Bearer x");
      expect(unknown.status).toBe(401);
      const missing = await request(backend.app).get("/nope");
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: "Not found" });
    });

    it("answers malformed and oversized JSON bodies with JSON errors", async () => {
      const malformed = await request(backend.app)
        .post(API_PATHS.login)
        .set("Content-Type", "application/json")
        .send("{not json");
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: "Invalid JSON body" });
      const oversized = await request(backend.app)
        .post(API_PATHS.login)
        .send({ idToken: "x".repeat(200_000) });
      expect(oversized.status).toBe(413);
      expect(oversized.body).toEqual({ error: "Request body too large" });
    });
  });
});

import request from "supertest";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EDITABLE_NAME_MAX } from "../../shared/constants.ts";
import {
  NAME_EDIT,
  nameUpdateResponseSchema,
  refreshResponseSchema,
} from "../../shared/contract/accounts.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { signedInAccount } from "../../tests/support/backend-sessions.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import { createFakeIdentity } from "../../tests/support/fake-identity.ts";
import { type Backend, createBackend } from "../app.ts";
import { loadConfig } from "../config.ts";

describe.each(TEST_DATABASE_KINDS)("on %s", (kind) => {
  let backend: Backend;
  let database: FreshDatabase;
  // Refresh asks the identity provider whether the user is still in good standing.
  const identity = createFakeIdentity();
  beforeAll(async () => {
    database = await freshDatabase(kind);
    backend = await createBackend(
      loadConfig({ LOG_LEVEL: "silent", SESSION_SECRET: "s".repeat(32), ...database.env }),
      { identity },
    );
  });
  afterAll(async () => {
    await backend?.close();
    await identity.close();
    await database?.drop();
  });

  async function signedIn(name: string) {
    identity.addUser(`uid-${name}`);
    return signedInAccount(backend, name);
  }

  const names = async (userId: string, orgId: string) => ({
    user: (
      await backend.db.selectFrom("users").select("name").where("id", "=", userId).executeTakeFirstOrThrow()
    ).name,
    org: (
      await backend.db
        .selectFrom("organizations")
        .select("name")
        .where("id", "=", orgId)
        .executeTakeFirstOrThrow()
    ).name,
  });

  it("renames the signed-in user (trimmed), only them, and the next refresh carries the new name", async () => {
    const me = await signedIn("grace");
    const other = await signedIn("alan");
    const response = await request(backend.app)
      .post(API_PATHS.userUpdate)
      .set("Authorization", `Bearer ${me.token}`)
      .send({ updateData: { name: "  Grace Hopper  " } });
    expect(response.status).toBe(200);
    expect(v.parse(nameUpdateResponseSchema, response.body)).toEqual({
      success: true,
      message: NAME_EDIT.userNameUpdated,
    });
    expect(await names(me.userId, me.orgId)).toEqual({ user: "Grace Hopper", org: "grace's organization" });
    expect((await names(other.userId, other.orgId)).user).toBe("alan");

    const refreshed = await request(backend.app)
      .post(API_PATHS.refresh)
      .set("Authorization", `Bearer ${me.token}`);
    const claims = await backend.tokens.verify(v.parse(refreshResponseSchema, refreshed.body).token);
    expect(claims.name).toBe("Grace Hopper");
  });

  it("renames the signed-in user's organisation, only theirs", async () => {
    const me = await signedIn("ada");
    const other = await signedIn("charles");
    const response = await request(backend.app)
      .post(API_PATHS.orgUpdate)
      .set("Authorization", `Bearer ${me.token}`)
      .send({ updateData: { name: "Analytical Engines" } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: NAME_EDIT.orgNameUpdated });
    expect(await names(me.userId, me.orgId)).toEqual({ user: "ada", org: "Analytical Engines" });
    expect((await names(other.userId, other.orgId)).org).toBe("charles's organization");
  });

  it.each([
    ["a blank name", { updateData: { name: "   " } }],
    ["a name over the limit", { updateData: { name: "x".repeat(EDITABLE_NAME_MAX + 1) } }],
    ["no updateData", { name: "Flat" }],
    ["a name that is not a string", { updateData: { name: 42 } }],
  ])("answers 400 INVALID_REQUEST for %s and changes nothing", async (_label, body) => {
    const me = await signedIn(`invalid-${Math.random().toString(36).slice(2, 8)}`);
    const before = await names(me.userId, me.orgId);
    for (const path of [API_PATHS.userUpdate, API_PATHS.orgUpdate]) {
      const response = await request(backend.app)
        .post(path)
        .set("Authorization", `Bearer ${me.token}`)
        .send(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: "INVALID_REQUEST" });
    }
    expect(await names(me.userId, me.orgId)).toEqual(before);
  });

  it("accepts exactly the limit", async () => {
    const me = await signedIn("limit");
    const name = "y".repeat(EDITABLE_NAME_MAX);
    const response = await request(backend.app)
      .post(API_PATHS.userUpdate)
      .set("Authorization", `Bearer ${me.token}`)
      .send({ updateData: { name } });
    expect(response.status).toBe(200);
    expect((await names(me.userId, me.orgId)).user).toBe(name);
  });

  it("answers 401 without a session", async () => {
    for (const path of [API_PATHS.userUpdate, API_PATHS.orgUpdate]) {
      const response = await request(backend.app)
        .post(path)
        .send({ updateData: { name: "Nobody" } });
      expect(response.status).toBe(401);
    }
  });
});

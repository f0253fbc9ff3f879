/** Who may sign in to which account, on each database the backend runs on. */
import { afterEach, describe, expect, it } from "vitest";
import { PLAN_VALUES, TRIAL_SEATS } from "../../shared/constants.ts";
import { type FreshDatabase, freshDatabase, TEST_DATABASE_KINDS } from "../../tests/support/databases.ts";
import type { Db } from "../db/database.ts";
import { openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import {
  EmailNotVerifiedError,
  NoAccountError,
  type SignInIdentity,
  signInAccount as signInOrCreate,
} from "./accounts.ts";
import { epochSeconds } from "./session-tokens.ts";
import { AccountRelinkedError, startSession } from "./sessions.ts";

let db: Db | undefined;
let database: FreshDatabase | undefined;
afterEach(async () => {
  await db?.destroy();
  await database?.drop();
  db = undefined;
  database = undefined;
});

const identity = (changes: Partial<SignInIdentity> = {}): SignInIdentity => ({
  firebaseUid: "uid-a",
  email: "ada@example.com",
  emailVerified: true,
  avatarUrl: null,
  provider: "email",
  ...changes,
});

const ADA = { name: "Ada", orgName: "Ada's organization" };
/** Signs in, creating the account (named after Ada) when there is none. */
const signInAccount = (database: Db, who: SignInIdentity) => signInOrCreate(database, who, ADA);

async function count(database: Db, table: "users" | "organizations"): Promise<number> {
  const row = await database
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function liveSessions(database: Db, userId: string): Promise<number> {
  const rows = await database
    .selectFrom("sessions")
    .select("id")
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  return rows.length;
}

describe.each(TEST_DATABASE_KINDS)("accounts on %s", (kind) => {
  async function openFresh(): Promise<Db> {
    database = await freshDatabase(kind);
    db = await openDatabase(database.target);
    await migrateToLatest(db);
    return db;
  }

  it("starts the new organisation's Pro trial in the transaction that creates it, and only then", async () => {
    const db = await openFresh();
    const start = new Date("2026-05-04T09:00:00Z");
    const created = await signInOrCreate(db, identity(), ADA, { clock: () => start, days: 10 });
    const trial = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("org_id", "=", created.org.id)
      .executeTakeFirstOrThrow();
    expect(trial).toMatchObject({
      plan_code: PLAN_VALUES.proTrial,
      status: "trialing",
      seats_total: TRIAL_SEATS,
      seats_allocated: 0,
      converted_to_active: false,
      trial_ends_at: new Date("2026-05-14T09:00:00Z"),
    });
    await signInOrCreate(db, identity(), ADA, { clock: () => new Date(), days: 30 });
    const rows = await db.selectFrom("subscriptions").select("trial_ends_at").execute();
    expect(rows).toEqual([{ trial_ends_at: new Date("2026-05-14T09:00:00Z") }]);
  });

  it("creates an account only when asked to, named as asked, and consumes the identity's pending signup", async () => {
    const db = await openFresh();
    await expect(signInOrCreate(db, identity(), undefined)).rejects.toBeInstanceOf(NoAccountError);
    expect(await count(db, "users")).toBe(0);
    expect(await count(db, "organizations")).toBe(0);

    await db
      .insertInto("pending_signups")
      .values({ firebase_uid: "uid-a", email: "ada@example.com", name: "Ada", company: "Acme", source: "x" })
      .execute();
    const created = await signInOrCreate(db, identity(), { name: "Ada L.", orgName: "Acme" });
    expect(created).toMatchObject({ created: true, user: { name: "Ada L." }, org: { name: "Acme" } });
    expect(await db.selectFrom("pending_signups").select("firebase_uid").execute()).toEqual([]);
    // An existing account signs in even when the caller would not create one.
    expect(await signInOrCreate(db, identity(), undefined)).toMatchObject({ created: false });
  });

  it("never creates an account from an unverified address, whatever the provider", async () => {
    const db = await openFresh();
    for (const provider of ["email", "github"] as const) {
      await expect(signInAccount(db, identity({ emailVerified: false, provider }))).rejects.toBeInstanceOf(
        EmailNotVerifiedError,
      );
    }
    expect(await count(db, "users")).toBe(0);
    expect(await count(db, "organizations")).toBe(0);
  });

  it("refuses an unverified address even for the identity the account is linked to", async () => {
    const db = await openFresh();
    const created = await signInAccount(db, identity());
    expect(created.created).toBe(true);
    await expect(signInAccount(db, identity({ emailVerified: false }))).rejects.toBeInstanceOf(
      EmailNotVerifiedError,
    );
    const again = await signInAccount(db, identity());
    expect(again).toMatchObject({ created: false, relinked: false, user: { id: created.user.id } });
  });

  it("never links an account to an unverified identity with its address", async () => {
    const db = await openFresh();
    const created = await signInAccount(db, identity());
    await startSession(db, {
      userId: created.user.id,
      provider: "email",
      authTime: epochSeconds(),
    });
    await expect(
      signInAccount(db, identity({ firebaseUid: "uid-b", emailVerified: false, provider: "github" })),
    ).rejects.toBeInstanceOf(EmailNotVerifiedError);
    const row = await db.selectFrom("users").select("firebase_uid").executeTakeFirstOrThrow();
    expect(row.firebase_uid).toBe("uid-a");
    expect(await liveSessions(db, created.user.id)).toBe(1);
  });

  it("re-links an account to another verified identity and revokes every session of its user", async () => {
    const db = await openFresh();
    const created = await signInAccount(db, identity());
    const other = await signInAccount(db, identity({ firebaseUid: "uid-other", email: "other@example.com" }));
    for (const userId of [created.user.id, created.user.id, other.user.id]) {
      await startSession(db, { userId, provider: "email", authTime: epochSeconds() });
    }

    const relinked = await signInAccount(db, identity({ firebaseUid: "uid-b", provider: "github" }));
    expect(relinked).toMatchObject({ created: false, relinked: true, user: { id: created.user.id } });
    const row = await db
      .selectFrom("users")
      .select("firebase_uid")
      .where("id", "=", created.user.id)
      .executeTakeFirstOrThrow();
    expect(row.firebase_uid).toBe("uid-b");
    expect(await liveSessions(db, created.user.id)).toBe(0);
    expect(await liveSessions(db, other.user.id)).toBe(1);

    // The identity it is linked to now signs in without another re-link.
    expect(await signInAccount(db, identity({ firebaseUid: "uid-b" }))).toMatchObject({ relinked: false });
  });

  it("starts no session for an identity the account was re-linked away from in the meantime", async () => {
    const db = await openFresh();
    const first = await signInAccount(db, identity());
    // Identity A found the account; before A's session starts, B takes the account over.
    await signInAccount(db, identity({ firebaseUid: "uid-b" }));
    const start = (firebaseUid: string) =>
      startSession(db, { userId: first.user.id, provider: "email", authTime: epochSeconds(), firebaseUid });
    await expect(start("uid-a")).rejects.toBeInstanceOf(AccountRelinkedError);
    expect(await liveSessions(db, first.user.id)).toBe(0);
    await expect(start("uid-b")).resolves.toEqual(expect.any(String));
    expect(await liveSessions(db, first.user.id)).toBe(1);
  });
});

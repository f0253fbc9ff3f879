/** The local outbox keeps the latest OUTBOX_LIMIT messages, newest first, and logs each one. */
import { afterEach, describe, expect, it } from "vitest";
import { OUTBOX_LIMIT } from "../../shared/constants.ts";
import { createLogger } from "../../shared/node/logging.ts";
import { type Db, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { outboxMailer, outboxMessages } from "./outbox.ts";

let db: Db | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

describe("local outbox", () => {
  it("keeps only the latest messages, newest first, and logs recipient, subject and link", async () => {
    db = await openDatabase({ kind: "pglite", dataDir: undefined });
    await migrateToLatest(db);
    const lines: string[] = [];
    const mailer = outboxMailer(
      db,
      createLogger({ name: "test", level: "info" }, { write: (line: string) => lines.push(line) }),
    );
    const total = OUTBOX_LIMIT + 3;
    for (let n = 1; n <= total; n += 1) {
      await mailer.send({
        to: `u${n}@example.com`,
        subject: `Message ${n}`,
        text: `Hi ${n}`,
        links: [`https://x.test/${n}`],
      });
    }
    const messages = await outboxMessages(db);
    expect(messages).toHaveLength(OUTBOX_LIMIT);
    expect(messages[0]).toEqual({
      id: expect.any(String),
      to: `u${total}@example.com`,
      subject: `Message ${total}`,
      text: `Hi ${total}`,
      links: [`https://x.test/${total}`],
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(messages.at(-1)?.subject).toBe("Message 4");
    const rows = await db.selectFrom("outbox_messages").select("id").execute();
    expect(rows).toHaveLength(OUTBOX_LIMIT);
    expect(lines.at(-1)).toContain(`"to":"u${total}@example.com"`);
    expect(lines.at(-1)).toContain(`https://x.test/${total}`);
  });
});

/**
 * How often an organisation may call its AI model (docs/decisions/030-model-outbound-calls.md):
 * every path that calls the model takes a call first, counted per organisation and purpose in a
 * fixed window in the database (`model_call_windows`), so the limit holds across every backend
 * process on it. A fixed window lets up to twice the limit through around a window's edge; that
 * bounds the rate, which is what it is for.
 */
import type { Db } from "../db/database.ts";

export type ModelCallPurpose = "test" | "review";

export interface ModelCallLimit {
  calls: number;
  windowSeconds: number;
}

export type CallTaken = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Counts one call of `purpose` for the organisation, or refuses when its window is full. */
export async function takeModelCall(
  db: Db,
  orgId: string,
  purpose: ModelCallPurpose,
  limit: ModelCallLimit,
  now: Date,
): Promise<CallTaken> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  // One statement: concurrent callers each see the count their own increment made.
  const counted = await db
    .insertInto("model_call_windows")
    .values({ org_id: orgId, purpose, window_start: windowStart, calls: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(["org_id", "purpose", "window_start"])
        .doUpdateSet((eb) => ({ calls: eb("model_call_windows.calls", "+", 1) }))
        .where("model_call_windows.calls", "<", limit.calls),
    )
    .returning("calls")
    .executeTakeFirst();
  if (!counted) {
    const retryAfterMs = windowStart.getTime() + windowMs - now.getTime();
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }
  if (counted.calls === 1) {
    // A new window: the organisation's earlier ones count for nothing now.
    await db
      .deleteFrom("model_call_windows")
      .where("org_id", "=", orgId)
      .where("purpose", "=", purpose)
      .where("window_start", "<", windowStart)
      .execute();
  }
  return { ok: true };
}

/**
 * The name edits' calls, from the browser to the gateway (same origin, the session cookie): the
 * update, then `POST /auth/session` so the cookie's token carries the new name at once.
 *
 * Only the lazily loaded edit dialog imports it
 * (docs/decisions/006-page-weight.md).
 */

import {
  NAME_EDIT,
  type nameUpdateResponseSchema,
  type sessionResponseSchema,
} from "../../../shared/contract/accounts.ts";
import { API_PATHS } from "../../../shared/contract/common.ts";
import { ApiError } from "../../lib/api-client.ts";
import { browserApiClient } from "../../lib/browser-api";
import { NAME_EDIT_TEXT } from "../../lib/ui-text";

export type NameKind = keyof typeof NAME_EDIT_TEXT;

const api = browserApiClient();

const PATHS: Record<NameKind, string> = { user: API_PATHS.userUpdate, org: API_PATHS.orgUpdate };

/** Saves the name and renews the session; answers the message to show and whether it worked. */
export async function updateName(kind: NameKind, name: string): Promise<{ ok: boolean; message: string }> {
  const fallback = NAME_EDIT.failed(NAME_EDIT_TEXT[kind].noun);
  try {
    const answer = await api.call<typeof nameUpdateResponseSchema>(PATHS[kind], {
      method: "POST",
      body: { updateData: { name } },
    });
    if (!answer.success) return { ok: false, message: answer.message || fallback };
    // A failed renewal is a failure too: saving again is harmless and renews again.
    await api.call<typeof sessionResponseSchema>(API_PATHS.session, { method: "POST" });
    return { ok: true, message: answer.message };
  } catch (error) {
    // The server's own words when it gave some; a fixed message for answers of another shape.
    return { ok: false, message: error instanceof ApiError && error.body ? error.message : fallback };
  }
}

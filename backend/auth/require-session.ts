/**
 * Guards `/api/*`: a live session is required, and handlers read it with `sessionOf(res)`. Every
 * answer after it carries the session's names (SESSION_NAMES_HEADER), the proof the gateway's page
 * renders take that the session is live.
 */
import type { Request, RequestHandler, Response } from "express";
import { ERRORS, SESSION_NAMES_HEADER, sessionNamesHeaderValue } from "../../shared/contract/accounts.ts";
import type { Db } from "../db/database.ts";
import { bearerToken } from "../http/bearer.ts";
import { HttpError } from "../http/errors.ts";
import type { SessionTokens } from "./session-tokens.ts";
import { authenticateSession, type SessionContext, sessionIdentity } from "./sessions.ts";

export const INVALID_SESSION_MESSAGE = "Invalid or expired session";

export const missingTokenError = () => new HttpError(401, { error: ERRORS.noAuthToken });
export const invalidSessionError = () => new HttpError(401, { error: INVALID_SESSION_MESSAGE });

/** The live session of the request's bearer token; undefined without one, or for one that is not live. */
export async function sessionOfRequest(
  db: Db,
  tokens: SessionTokens,
  req: Request,
): Promise<SessionContext | undefined> {
  const token = bearerToken(req);
  return token ? authenticateSession(db, tokens, token) : undefined;
}

export function requireSession(db: Db, tokens: SessionTokens): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req);
    if (!token) throw missingTokenError();
    const session = await authenticateSession(db, tokens, token);
    if (!session) throw invalidSessionError();
    res.locals.session = session;
    // What GET /auth/session-status would answer, so the gateway's page renders need not ask it.
    const { name, orgName } = sessionIdentity(session);
    res.setHeader(SESSION_NAMES_HEADER, sessionNamesHeaderValue({ name, orgName }));
    next();
  };
}

export function sessionOf(res: Response): SessionContext {
  const session: SessionContext | undefined = res.locals.session;
  if (!session) throw new Error("requireSession must run before this handler");
  return session;
}

/** The public keys that verify session tokens (ES256 mode); a shared secret has none to publish. */
import type { Router } from "express";
import { API_PATHS } from "../../shared/contract/common.ts";
import type { SessionTokens } from "../auth/session-tokens.ts";
import { strictRouter } from "../http/router.ts";

export function jwksRouter(tokens: SessionTokens): Router {
  const router = strictRouter();
  router.get(API_PATHS.jwks, (_req, res) => {
    const jwks = tokens.jwks();
    if (!jwks) {
      res.status(404).json({ error: "Not found" });
      return;
    }
    res.set("Cache-Control", "public, max-age=300").json(jwks);
  });
  return router;
}

/** The gateway's own error answers share the contract's error shape: {error, code?, message?}. */
import type { Response } from "express";
import type { ErrorBody } from "../shared/contract.ts";

export function sendError(res: Response, status: number, body: ErrorBody): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set("Cache-Control", "no-store").json(body);
}

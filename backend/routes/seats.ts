/** Giving a contributor a seat and taking it back (docs/product.md#seats). */

import type { Router } from "express";
import type * as v from "valibot";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type seatChangeResponseSchema, seatRequestSchema } from "../../shared/contract/contributors.ts";
import { sessionOf } from "../auth/require-session.ts";
import type { Clock } from "../billing/clock.ts";
import { assignSeat, type SeatChange, unassignSeat } from "../contributors/seats.ts";
import type { Db } from "../db/database.ts";
import { strictRouter } from "../http/router.ts";
import { parseRequest } from "../http/validate.ts";

const answerOf = ({ message, seats }: SeatChange) =>
  ({ success: true, message, data: seats }) satisfies v.InferInput<typeof seatChangeResponseSchema>;

/** `clock`: billing's, so a seat change and the subscription agree on whether it has ended. */
export function seatsRouter(db: Db, clock: Clock): Router {
  const router = strictRouter();

  router.post(API_PATHS.assignSeat, async (req, res) => {
    const { userId } = parseRequest(seatRequestSchema, req.body);
    res.json(answerOf(await assignSeat(db, sessionOf(res).org.id, userId, clock())));
  });

  router.post(API_PATHS.unassignSeat, async (req, res) => {
    const { userId } = parseRequest(seatRequestSchema, req.body);
    res.json(answerOf(await unassignSeat(db, sessionOf(res).org.id, userId, clock())));
  });

  return router;
}

/** The zod schemas of shared/contract/common.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";

/** Every error body, from the gateway and from the backend, has this shape. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  message: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

export const messageResponseSchema = z.object({ message: z.string() });

export const successResponseSchema = z.object({ success: z.literal(true), message: z.string().optional() });

/** The zod schemas of the paged lists' query and page (shared/contract/common.ts has the rules). */

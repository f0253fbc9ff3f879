/**
 * The repository's instructions to the AI reviewer (docs/review-engine.md, "Instructions"): the
 * `review_instructions` setting and an optional `.argus.yaml` at the head commit, whose name
 * follows the product name as the bot's handle does. Path instructions apply to the files of the
 * diff their glob matches. An invalid file is reported and ignored: it never stops a review.
 */
import { parse } from "yaml";
import { z } from "zod";
import { botHandle } from "../../ingest/commands.ts";
import { pathPatterns } from "../../pipeline/glob.ts";

export const INSTRUCTIONS_TEXT_MAX = 4000;
export const PATH_INSTRUCTIONS_MAX = 20;
const PATH_PATTERN_MAX = 200;
/** Larger files are not parsed at all: a configuration file this big is a mistake. */
const INSTRUCTIONS_FILE_BYTES_MAX = 64_000;

/** `.argus.yaml` for the product "Argus". */
export const instructionsFileName = (productName: string) => `.${botHandle(productName)}.yaml`;

const instructionsFileSchema = z
  .object({
    instructions: z.string().max(INSTRUCTIONS_TEXT_MAX).optional(),
    path_instructions: z
      .array(
        z
          .object({
            path: z.string().trim().min(1).max(PATH_PATTERN_MAX),
            instructions: z.string().trim().min(1).max(INSTRUCTIONS_TEXT_MAX),
          })
          .strict(),
      )
      .max(PATH_INSTRUCTIONS_MAX)
      .optional(),
  })
  .strict();
export type InstructionsFile = z.infer<typeof instructionsFileSchema>;

export type ParsedInstructions = { ok: true; file: InstructionsFile } | { ok: false; error: string };

/** The file's text, parsed and checked; the error names the first problem, for the run's log. */
export function parseInstructionsFile(text: string): ParsedInstructions {
  if (Buffer.byteLength(text) > INSTRUCTIONS_FILE_BYTES_MAX) {
    return { ok: false, error: `larger than ${INSTRUCTIONS_FILE_BYTES_MAX} bytes` };
  }
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: 0 });
  } catch (error) {
    return { ok: false, error: `not valid YAML: ${error instanceof Error ? error.message : String(error)}` };
  }
  // An empty file (or one with only comments) says nothing.
  const checked = instructionsFileSchema.safeParse(data ?? {});
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { ok: false, error: `${issue?.path.join(".") || "file"}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, file: checked.data };
}

export interface RepositoryInstructions {
  /** The setting's text and the file's, in that order; empty ones left out. */
  general: string[];
  /** Path instructions with the diff's files each applies to; entries matching none left out. */
  byPath: Array<{ path: string; instructions: string; files: string[] }>;
}

export function repositoryInstructions(
  setting: string,
  file: InstructionsFile | undefined,
  paths: readonly string[],
): RepositoryInstructions {
  const general = [setting, file?.instructions ?? ""].map((text) => text.trim()).filter(Boolean);
  const byPath = (file?.path_instructions ?? []).flatMap((entry) => {
    const matches = pathPatterns([entry.path]);
    const files = paths.filter((path) => matches(path) !== undefined);
    return files.length ? [{ ...entry, files }] : [];
  });
  return { general, byPath };
}

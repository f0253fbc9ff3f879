/** The zod schemas of shared/contract/code-hosts.ts (kept apart so pages import that module without zod: docs/decisions/041-feature-folders.md). */
import { z } from "zod";
import { ID_MAX, ONE_TIME_CODE_MAX, URL_MAX } from "../constants.ts";
import { INTEGRATION_FIELDS_MAX } from "./code-hosts.ts";
import { PROJECT_SORTS } from "./paging.ts";
import { pageInfoSchema, pageQuerySchema } from "./paging-schemas.ts";

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  integration_key: z.string(),
  integration_name: z.string(),
  integration_type: z.string(),
  external_link: z.string(),
  active: z.boolean(),
  webhook_active: z.boolean(),
  properties: z.object({
    full_name: z.string().optional(),
    private: z.boolean().optional(),
    description: z.string().nullable().optional(),
    default_branch: z.string().optional(),
    fork: z.boolean().optional(),
    /** Imported from the sandbox code host (local mode without a GitHub App), not from GitHub. */
    sandbox: z.boolean().optional(),
  }),
});

export type Project = z.infer<typeof projectSchema>;

/**
 * GET /api/projects?integrationType=git&integrationName=github, one page of them
 * (`page`, `pageSize`, `search` in the full name, `sort`: shared/contract/common.ts).
 */
export const projectsQuerySchema = pageQuerySchema(PROJECT_SORTS).extend({
  integrationType: z.string().min(1).max(ID_MAX).optional(),
  integrationName: z.string().min(1).max(ID_MAX).optional(),
});

export type ProjectsQuery = z.infer<typeof projectsQuerySchema>;

export const projectsResponseSchema = z.object({
  success: z.boolean(),
  data: z.object({ projects: z.array(projectSchema) }),
  page: pageInfoSchema,
});

export type ProjectsResponse = z.infer<typeof projectsResponseSchema>;

/** How an integration's setup form asks for one value (docs/product.md#integrationsname). */
export const integrationFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** The input's type; a `password` field holds a secret, never sent back. */
  type: z.enum(["text", "url", "password"]),
  hint: z.string(),
});

export type IntegrationField = z.infer<typeof integrationFieldSchema>;

/**
 * A stored setup value as answers carry it: the value itself, or for a secret field only whether
 * it is set, so no answer ever holds a secret.
 */
export const integrationPropertySchema = z.union([z.string(), z.object({ set: z.boolean() })]);

/** One integration of the catalogue, as the caller's organisation has it (docs/product.md#entities). */
export const integrationSchema = z.object({
  name: z.string(),
  key: z.string(),
  display_name: z.string(),
  sub_title: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  links: z.object({ icon: z.string(), oauth_url: z.string().optional() }),
  fields: z.array(integrationFieldSchema),
  /** Null until the organisation has set the integration up. */
  activeIntegration: z
    .object({
      integration_key: z.string(),
      is_active: z.boolean(),
      properties: z.record(z.string(), integrationPropertySchema),
      /**
       * Azure DevOps: where its service hook posts; null until a hook secret was generated (an
       * integration set up before hooks had their own), when events are refused. Absent elsewhere.
       */
      serviceHook: z.object({ url: z.string() }).nullable().optional(),
    })
    .nullable(),
});

export type Integration = z.infer<typeof integrationSchema>;

/**
 * An Azure DevOps service hook's URL and its secret (the Basic-auth password), in the one answer
 * that makes the secret: it is stored only as a digest and never shown again.
 */
export const serviceHookSecretSchema = z.object({ url: z.string(), secret: z.string() });

export type ServiceHookSecret = z.infer<typeof serviceHookSecretSchema>;

/** GET /api/integrations */
export const integrationsResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(integrationSchema),
});

export type IntegrationsResponse = z.infer<typeof integrationsResponseSchema>;

/** GET /api/integrations/{name} */
export const integrationResponseSchema = z.object({ success: z.boolean(), data: integrationSchema });

export type IntegrationResponse = z.infer<typeof integrationResponseSchema>;

/**
 * POST /api/integrations/{name}/setup: the form's values keyed by field key. Which keys an
 * integration takes is the backend's catalogue's business; this only bounds the body.
 */
export const integrationSetupRequestSchema = z
  .record(z.string().min(1).max(ID_MAX), z.string().trim().min(1).max(URL_MAX))
  .refine((values) => Object.keys(values).length <= INTEGRATION_FIELDS_MAX, {
    message: `at most ${INTEGRATION_FIELDS_MAX} fields`,
  });

export type IntegrationSetupRequest = z.infer<typeof integrationSetupRequestSchema>;

/**
 * POST /api/integrations/github/setup, from /installation after the app installation. GitHub's
 * `installation_id` is a number; the page reads it from the query, so either form is taken.
 * `code` is the one the code host sent the browser back with: the proof that the user may connect
 * this installation (GitHub's OAuth code of the App, or the sandbox's signed code).
 */
export const githubSetupRequestSchema = z.object({
  code: z.string().trim().min(1).max(ONE_TIME_CODE_MAX),
  org_id: z.string().min(1).max(ID_MAX),
  installationId: z.union([
    z.string().trim().min(1).max(ID_MAX),
    z
      .number()
      .int()
      .positive()
      .transform((id) => String(id)),
  ]),
});

export type GithubSetupRequest = z.infer<typeof githubSetupRequestSchema>;

/** The answer of both setup calls; `serviceHook` when this setup made the hook's secret. */
export const integrationSetupResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  serviceHook: serviceHookSecretSchema.optional(),
});

export type IntegrationSetupResponse = z.infer<typeof integrationSetupResponseSchema>;

/** POST /api/integrations/azure-devops/hook-secret */
export const serviceHookSecretResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  data: serviceHookSecretSchema,
});

export type ServiceHookSecretResponse = z.infer<typeof serviceHookSecretResponseSchema>;

/**
 * Code hosts and their integrations (docs/product.md#integrations, #installation): the exact UI text
 * of their screens, then the valibot schemas of repositories, integrations and their setup, in one
 * module; a page that does not use the schemas tree-shakes them away.
 */
import * as v from "valibot";
import { ID_MAX, ONE_TIME_CODE_MAX, URL_MAX } from "../constants.ts";
import { PROJECT_SORTS, pageInfoSchema, pageQuerySchema } from "./paging.ts";
import { schema } from "./schema.ts";

/** The most fields an integration's setup form has; a longer body is not a setup. */
export const INTEGRATION_FIELDS_MAX = 20;

/**
 * Exact UI text of the code-host screens (docs/product.md#integrations, #installation). Apart from
 * shared/contract/accounts.ts so that only these pages load it (docs/decisions/006-page-weight.md).
 */
/** The integration screens (docs/product.md#integrations, #integrationsname). */
export const INTEGRATIONS = {
  noIntegrations: "No integrations found",
  notFound: "Integration not found",
  loadFailed: "Failed to load integration data",
  connected: "Connected",
  notConnected: "Not Connected",
  connect: "Connect",
  settings: "Settings",
  saveSettings: "Save Settings",
  saving: "Saving...",
  saved: "Settings saved successfully!",
  saveFailed: "Failed to save settings",
} as const;

/** The app-installation callback (docs/product.md#installation, #installation-messages). */
export const INSTALLATION = {
  pendingTitle: "Installation Pending",
  pending: "Please wait for request approval...",
  missingParameters: "Missing required parameters",
  failed: "Failed to complete installation",
  retry: "Retry Installation",
  /** The setup's code does not show that the user can reach the installation (a 403 of the setup). */
  notProven:
    "We could not confirm that you have access to this installation. Connect again from Integrations.",
  backToHome: "Back to Home",
} as const;

/** Azure DevOps: its service hook and the answers of its setup (docs/operations.md, "Azure DevOps"). */
export const AZURE_DEVOPS = {
  repositoryTaken:
    "A repository of this project is already connected to another organization. A repository can be reviewed for one organization only.",
  addressRefused:
    "The organization URL leads to a private or local network address, which this server does not call.",
  unresolvable: "The organization URL's host name could not be resolved.",
  setupRateLimited: "Too many setup attempts. Please wait a few minutes and try again.",
  hookTitle: "Service hook",
  hookUrlLabel: "Service hook URL",
  hookSecretLabel: "Service hook secret",
  hookSecretOnce:
    "Copy the secret now: it is shown only once. In Azure DevOps, create Web Hooks service hooks with this URL, any user name and this secret as the password.",
  hookSecretMissing:
    "This integration has no service-hook secret yet, so Azure DevOps events for it are refused. Generate one, then update your service hooks with the URL and secret shown.",
  hookSecretSet: "A secret is set. It is not shown again; generate a new one if it is lost.",
  generateSecret: "Generate a new secret",
  generatingSecret: "Generating...",
  generateSecretHint: "The current secret stops working at once.",
  secretGenerated: "A new service-hook secret was generated",
  secretFailed: "Failed to generate a secret",
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Could not copy; select the text and copy it instead",
} as const;

export const projectSchema = schema(() =>
  v.object({
    id: v.string(),
    name: v.string(),
    integration_key: v.string(),
    integration_name: v.string(),
    integration_type: v.string(),
    external_link: v.string(),
    active: v.boolean(),
    webhook_active: v.boolean(),
    properties: v.object({
      full_name: v.optional(v.string()),
      private: v.optional(v.boolean()),
      description: v.optional(v.nullable(v.string())),
      default_branch: v.optional(v.string()),
      fork: v.optional(v.boolean()),
      /** Imported from the sandbox code host (local mode without a GitHub App), not from GitHub. */
      sandbox: v.optional(v.boolean()),
    }),
  }),
);

export type Project = v.InferOutput<typeof projectSchema>;

/**
 * GET /api/projects?integrationType=git&integrationName=github, one page of them
 * (`page`, `pageSize`, `search` in the full name, `sort`: shared/contract/common.ts).
 */
export const projectsQuerySchema = schema(() =>
  v.object({
    ...pageQuerySchema(PROJECT_SORTS).entries,
    integrationType: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX))),
    integrationName: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX))),
  }),
);

export type ProjectsQuery = v.InferOutput<typeof projectsQuerySchema>;

export const projectsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.object({ projects: v.array(projectSchema) }),
    page: pageInfoSchema,
  }),
);

export type ProjectsResponse = v.InferOutput<typeof projectsResponseSchema>;

/** How an integration's setup form asks for one value (docs/product.md#integrationsname). */
export const integrationFieldSchema = schema(() =>
  v.object({
    key: v.string(),
    label: v.string(),
    /** The input's type; a `password` field holds a secret, never sent back. */
    type: v.picklist(["text", "url", "password"]),
    hint: v.string(),
  }),
);

export type IntegrationField = v.InferOutput<typeof integrationFieldSchema>;

/**
 * A stored setup value as answers carry it: the value itself, or for a secret field only whether
 * it is set, so no answer ever holds a secret.
 */
export const integrationPropertySchema = schema(() => v.union([v.string(), v.object({ set: v.boolean() })]));

/** One integration of the catalogue, as the caller's organisation has it (docs/product.md#entities). */
export const integrationSchema = schema(() =>
  v.object({
    name: v.string(),
    key: v.string(),
    display_name: v.string(),
    sub_title: v.string(),
    description: v.string(),
    isActive: v.boolean(),
    links: v.object({ icon: v.string(), oauth_url: v.optional(v.string()) }),
    fields: v.array(integrationFieldSchema),
    /** Null until the organisation has set the integration up. */
    activeIntegration: v.nullable(
      v.object({
        integration_key: v.string(),
        is_active: v.boolean(),
        properties: v.record(v.string(), integrationPropertySchema),
        /**
         * Azure DevOps: where its service hook posts; null until a hook secret was generated (an
         * integration set up before hooks had their own), when events are refused. Absent elsewhere.
         */
        serviceHook: v.optional(v.nullable(v.object({ url: v.string() }))),
      }),
    ),
  }),
);

export type Integration = v.InferOutput<typeof integrationSchema>;

/**
 * An Azure DevOps service hook's URL and its secret (the Basic-auth password), in the one answer
 * that makes the secret: it is stored only as a digest and never shown again.
 */
export const serviceHookSecretSchema = schema(() => v.object({ url: v.string(), secret: v.string() }));

export type ServiceHookSecret = v.InferOutput<typeof serviceHookSecretSchema>;

/** GET /api/integrations */
export const integrationsResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    data: v.array(integrationSchema),
  }),
);

export type IntegrationsResponse = v.InferOutput<typeof integrationsResponseSchema>;

/** GET /api/integrations/{name} */
export const integrationResponseSchema = schema(() =>
  v.object({ success: v.boolean(), data: integrationSchema }),
);

export type IntegrationResponse = v.InferOutput<typeof integrationResponseSchema>;

/**
 * POST /api/integrations/{name}/setup: the form's values keyed by field key. Which keys an
 * integration takes is the backend's catalogue's business; this only bounds the body.
 */
export const integrationSetupRequestSchema = schema(() =>
  v.pipe(
    v.record(
      v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)),
      v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(URL_MAX)),
    ),
    v.check(
      (values) => Object.keys(values).length <= INTEGRATION_FIELDS_MAX,
      `at most ${INTEGRATION_FIELDS_MAX} fields`,
    ),
  ),
);

export type IntegrationSetupRequest = v.InferOutput<typeof integrationSetupRequestSchema>;

/**
 * POST /api/integrations/github/setup, from /installation after the app installation. GitHub's
 * `installation_id` is a number; the page reads it from the query, so either form is taken.
 * `code` is the one the code host sent the browser back with: the proof that the user may connect
 * this installation (GitHub's OAuth code of the App, or the sandbox's signed code).
 */
export const githubSetupRequestSchema = schema(() =>
  v.object({
    code: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(ONE_TIME_CODE_MAX)),
    org_id: v.pipe(v.string(), v.minLength(1), v.maxLength(ID_MAX)),
    installationId: v.union([
      v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(ID_MAX)),
      v.pipe(
        v.number(),
        v.integer(),
        v.gtValue(0),
        v.transform((id) => String(id)),
      ),
    ]),
  }),
);

export type GithubSetupRequest = v.InferOutput<typeof githubSetupRequestSchema>;

/** The answer of both setup calls; `serviceHook` when this setup made the hook's secret. */
export const integrationSetupResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    message: v.string(),
    serviceHook: v.optional(serviceHookSecretSchema),
  }),
);

export type IntegrationSetupResponse = v.InferOutput<typeof integrationSetupResponseSchema>;

/** POST /api/integrations/azure-devops/hook-secret */
export const serviceHookSecretResponseSchema = schema(() =>
  v.object({
    success: v.boolean(),
    message: v.string(),
    data: serviceHookSecretSchema,
  }),
);

export type ServiceHookSecretResponse = v.InferOutput<typeof serviceHookSecretResponseSchema>;

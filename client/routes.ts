/**
 * The one route table, used by the server render and by hydration (docs/product.md#routes).
 * Ids are the file paths without extension ("routes/home", ...); the root route's id is "root".
 */
import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // "/" and any unknown path go to the default path (/home).
  index("routes/index.tsx"),

  // Guests only: a signed-in visitor is sent to /home.
  layout("routes/guest-layout.tsx", [
    route("login", "routes/login.tsx"),
    route("signup", "routes/signup.tsx"),
  ]),

  // Public: opened from e-mails and redirects, by anyone.
  layout("routes/public-layout.tsx", [
    route("forgot-password", "routes/forgot-password.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("email-verified", "routes/email-verified.tsx"),
    route("oauth/callback/:provider", "routes/oauth-callback.tsx"),
  ]),
  // Local mode only (404 otherwise): the e-mails the local outbox holds instead of sending them.
  route("outbox", "routes/outbox.tsx"),

  // Sign-in needed: a guest is sent to /login?redirectTo=<path and query>.
  layout("routes/app-layout.tsx", [
    route("home", "routes/home.tsx"),
    route("integrations", "routes/integrations.tsx"),
    route("integrations/:integrationName", "routes/integration.tsx"),
    // Organisation settings per code host, or one repository's with ?repositoryId.
    route("settings", "routes/settings.tsx"),
    // The organisation's AI model (docs/product.md#settingsai-model).
    route("settings/ai-model", "routes/ai-model.tsx"),
    route("installation", "routes/installation.tsx"),
    // Only while the backend's code host is the sandbox (404 otherwise): its stand-in for GitHub's
    // "Install the app" page.
    route("sandbox/install", "routes/sandbox-install.tsx"),
    // The sandbox code host's pull requests ("not found" for a repository that is not a sandbox one).
    route("sandbox/repositories/:projectId/pulls", "routes/sandbox-pulls.tsx"),
    route("sandbox/pulls/:pullId", "routes/sandbox-pull.tsx"),
    route("reviews", "routes/reviews.tsx"),
    route("reviews/:runId", "routes/review-run.tsx"),
    route("subscriptions", "routes/subscriptions.tsx"),
    route("payment-success", "routes/payment-success.tsx"),
    route("payment-cancel", "routes/payment-cancel.tsx"),
    // Only while billing is the sandbox's, without Stripe keys (404 otherwise): its stand-ins for
    // Stripe's hosted checkout and billing portal.
    route("sandbox/checkout", "routes/sandbox-checkout.tsx"),
    route("sandbox/portal", "routes/sandbox-portal.tsx"),
  ]),

  route("*", "routes/catch-all.tsx"),
] satisfies RouteConfig;

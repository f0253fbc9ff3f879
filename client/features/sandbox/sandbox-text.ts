/** The sandbox code host: its install page (/sandbox/install) and its badge. */
export const SANDBOX_TEXT = {
  badge: "Sandbox",
  title: "Sandbox code host",
  explanation:
    'This server has no GitHub App, as in local mode, so this page stands in for GitHub\'s "Install the app" page. Installing grants these sample repositories only.',
  installationId: "Installation id",
  repositories: "Repositories it will grant",
  install: "Install",
  cancel: "Cancel",
} as const;

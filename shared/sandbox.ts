/**
 * The sandbox code host (docs/decisions/009-code-hosts.md): without a GitHub App, Connect leads to
 * our own /sandbox/install page, which stands in for GitHub's "Install the app" page, and setting
 * the installation up imports these sample repositories. Shared so the backend's import and the
 * page that lists what it will grant never disagree.
 */

export const SANDBOX_INSTALLATION_PREFIX = "sandbox-";
const SANDBOX_INSTALLATION = /^sandbox-[0-9a-f]{1,64}$/;
/** The integration the sandbox stands in for. */
export const SANDBOX_INTEGRATION = "github";
/** Where the sandbox's Connect link leads, with `installation_id` and the `code` that proves it. */
export const SANDBOX_INSTALL_PATH = "/sandbox/install";
const SANDBOX_OWNER = "argus-sandbox";

/** A sample repository, in the shape a code host lists repositories. */
export interface SandboxRepository {
  id: string;
  name: string;
  full_name: string;
  private: boolean;
  description: string | null;
  default_branch: string;
  fork: boolean;
  html_url: string;
}

function sample(
  name: string,
  description: string | null,
  options: { private?: boolean; fork?: boolean; default_branch?: string } = {},
): SandboxRepository {
  const full_name = `${SANDBOX_OWNER}/${name}`;
  return {
    // The same ids for every sandbox installation: setting it up again updates, never duplicates.
    id: `${SANDBOX_INSTALLATION_PREFIX}${name}`,
    name,
    full_name,
    private: options.private ?? false,
    description,
    default_branch: options.default_branch ?? "main",
    fork: options.fork ?? false,
    html_url: `https://github.com/${full_name}`,
  };
}

export const SANDBOX_REPOSITORIES: readonly SandboxRepository[] = [
  sample("web-app", "The customer-facing web application", { private: true }),
  sample("api-server", "REST API and background workers", { private: true }),
  sample("mobile-client", null, { private: true, default_branch: "develop" }),
  sample("design-system", "Shared UI components"),
  sample("docs", "Public documentation site", { fork: true }),
];

export const isSandboxInstallationId = (id: string | null): id is string =>
  id !== null && SANDBOX_INSTALLATION.test(id);

/**
 * The installation id of a sandbox Connect link (`…/sandbox/install?installation_id=sandbox-…`);
 * null for any other link, such as a GitHub App's installation page. The one sign that the code
 * host is the sandbox.
 */
export function sandboxInstallationOf(link: string | undefined): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const id = url.searchParams.get("installation_id");
  return url.pathname === SANDBOX_INSTALL_PATH && isSandboxInstallationId(id) ? id : null;
}

/**
 * The installation id and code of a sandbox Connect link: what its install page hands back, as
 * GitHub's setup redirect does. Null for any other link.
 */
export function sandboxConnectOf(link: string | undefined): { installationId: string; code: string } | null {
  const installationId = sandboxInstallationOf(link);
  const code = installationId && new URL(link ?? "").searchParams.get("code");
  return installationId && code ? { installationId, code } : null;
}

/**
 * What GitHub sends the browser back with after an installation, for a sandbox one: its id and the
 * code of its Connect link, which the backend signed for this user (docs/decisions/027-installation-ownership.md).
 */
export function sandboxInstallationCallback(installationId: string, code: string): string {
  return `/installation?${new URLSearchParams({
    setup_action: "install",
    installation_id: installationId,
    code,
  })}`;
}

/** A person of the sandbox code host, in the shape a code host describes an account. */
export interface SandboxPerson {
  login: string;
  name: string;
  email: string;
  avatar_url: null;
  /** Whole days since their latest commit to the sample repositories; null: none. */
  active_days_ago: number | null;
}

const SANDBOX_FIRST_NAMES = ["Ada", "Grace", "Linus", "Margaret", "Dennis", "Barbara"] as const;
const SANDBOX_LAST_NAMES = ["Rivera", "Okafor", "Lindqvist", "Tanaka", "Moreau"] as const;
/** How many of the sandbox's people have committed to the sample repositories. */
export const SANDBOX_ACTIVE_PEOPLE = 8;

/**
 * Everyone the sandbox code host knows, 30 people made from fixed names, so a lookup by username
 * and an import answer the same on every machine. The first SANDBOX_ACTIVE_PEOPLE are active on
 * the sample repositories (what connecting imports); the others can be added by username.
 */
export const SANDBOX_PEOPLE: readonly SandboxPerson[] = SANDBOX_LAST_NAMES.flatMap((last) =>
  SANDBOX_FIRST_NAMES.map((first) => ({ first, last })),
).map(({ first, last }, index) => {
  const login = `${first}-${last}`.toLowerCase();
  return {
    login,
    name: `${first} ${last}`,
    email: `${login}@sandbox.example`,
    avatar_url: null,
    active_days_ago: index < SANDBOX_ACTIVE_PEOPLE ? index * 3 : null,
  };
});

/**
 * The sandbox code host's sample repositories and people (docs/decisions/016-sandbox-pull-requests.md):
 * what connecting the sandbox imports, and who Add Contributor can find there. Shared so the
 * backend's import and the tests agree; pages do not load it.
 */
import { SANDBOX_INSTALLATION_PREFIX } from "./contract/sandbox.ts";

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

/**
 * The review settings catalogue (docs/product.md#settings, docs/decisions/010-review-settings.md,
 * 020-setting-kinds-and-shadow-mode.md): every setting category, its settings and their defaults,
 * written once (the rules of each kind: shared/contract/settings.ts, shared/contract/settings.ts). The backend answers
 * these as the setting templates and checks saved values against them; the review engine reads a
 * repository's effective values by these keys (`effectiveSettings` in backend/settings/), typed
 * from this list, so a key that is renamed or removed here stops compiling there.
 *
 * Plain data, no schemas: a page may import the provider list without loading a validator.
 */

/**
 * How one setting is kept and shown: an on/off switch, a list of glob patterns, one of a few
 * choices, a whole number within bounds, or free text (such as review instructions).
 */
export type SettingType = "boolean" | "patterns" | "choice" | "number" | "text";

/** A setting's value: on/off, glob patterns (rules in shared/contract/settings.ts), a choice, a number or text. */
export type SettingValue = boolean | readonly string[] | string | number;

/** One option of a choice setting: the stored value and what the screen shows. */
export interface SettingChoiceOption {
  value: string;
  label: string;
}

interface SettingItemBase {
  /** Stable: stored values and the review engine refer to it. */
  key: string;
  label: string;
  description: string;
}

/** The default is `value`, used when neither the organisation nor the repository sets one. */
export type SettingItemDefinition =
  | (SettingItemBase & { type: "boolean"; value: boolean })
  | (SettingItemBase & { type: "patterns"; value: readonly string[] })
  | (SettingItemBase & { type: "choice"; value: string; options: readonly SettingChoiceOption[] })
  | (SettingItemBase & { type: "number"; value: number; min: number; max: number })
  | (SettingItemBase & { type: "text"; value: string; maxLength: number });

export interface SettingCategoryDefinition {
  /** Stable, snake_case; shown with underscores as spaces and each word capitalised. */
  setting_category: string;
  /** Several lines; the settings screen shows the first. */
  description: string;
  /** An inactive category keeps its stored values but is not offered (`includeInactive=false`). */
  is_active: boolean;
  default_value: readonly SettingItemDefinition[];
}

export const SETTINGS_CATALOGUE = [
  {
    setting_category: "account_preferences",
    description: [
      "When reviews run.",
      "Auto review starts a review as soon as a pull request is opened. Without it, a review runs",
      "when someone comments the bot command on a pull request.",
    ].join("\n"),
    is_active: true,
    default_value: [
      {
        key: "auto_review",
        type: "boolean",
        label: "Auto review",
        value: true,
        description: "Review every pull request automatically as soon as it is opened.",
      },
      {
        key: "review_draft_pull_requests",
        type: "boolean",
        label: "Review draft pull requests",
        value: false,
        description: "Review pull requests while they are still drafts, not only once they are ready.",
      },
      {
        key: "review_new_commits",
        type: "boolean",
        label: "Review new commits",
        value: true,
        description: "Review again when new commits are pushed to a pull request that was already reviewed.",
      },
      {
        key: "review_on_command",
        type: "boolean",
        label: "Review on request",
        value: true,
        description: "Start a review when someone comments the bot command on a pull request.",
      },
    ],
  },
  {
    setting_category: "review_scope",
    description: [
      "What a review looks at.",
      "Files and pull requests left out here are never sent for review, which keeps reviews focused",
      "and fast.",
    ].join("\n"),
    is_active: true,
    default_value: [
      {
        key: "skip_generated_files",
        type: "boolean",
        label: "Skip generated files",
        value: true,
        description: "Leave out lock files, build output, minified bundles and vendored code.",
      },
      {
        key: "skip_bot_authors",
        type: "boolean",
        label: "Skip pull requests from bots",
        value: true,
        description: "Do not review pull requests opened by bot accounts, such as dependency update bots.",
      },
      {
        key: "skip_documentation_only",
        type: "boolean",
        label: "Skip documentation-only changes",
        value: false,
        description: "Do not review pull requests that change nothing but documentation.",
      },
      {
        key: "review_test_files",
        type: "boolean",
        label: "Review test files",
        value: true,
        description: "Review changes to tests as well as the code they test.",
      },
      {
        key: "ignored_branches",
        type: "patterns",
        label: "Ignored branches",
        value: [],
        description:
          "Do not review pull requests into or from these branches: one glob pattern per line, such as release/* or dependabot/**.",
      },
      {
        key: "ignored_paths",
        type: "patterns",
        label: "Ignored paths",
        value: [],
        description:
          "Leave these files out of reviews: one glob pattern per line, such as *.snap or docs/**. A pull request that changes nothing else is not reviewed.",
      },
      {
        key: "review_instructions",
        type: "text",
        label: "Review instructions",
        value: "",
        maxLength: 4000,
        description:
          "What the AI reviewer should know about this code: conventions, what matters most, what to leave alone. A .argus.yaml file in the repository can add instructions per path.",
      },
    ],
  },
  {
    setting_category: "comment_style",
    description: [
      "How a review reports what it finds.",
      "Choose where findings appear on the pull request and how much detail they carry.",
    ].join("\n"),
    is_active: true,
    default_value: [
      {
        key: "summary_comment",
        type: "boolean",
        label: "Summary comment",
        value: true,
        description: "Post one comment that sums up the pull request and what the review found.",
      },
      {
        key: "inline_comments",
        type: "boolean",
        label: "Inline comments",
        value: true,
        description: "Comment on the lines each finding is about.",
      },
      {
        key: "suggested_changes",
        type: "boolean",
        label: "Suggested changes",
        value: true,
        description: "Offer fixes as suggestions the author can apply in one click.",
      },
      {
        key: "severity_threshold",
        type: "choice",
        label: "Lowest severity reported",
        value: "major",
        options: [
          { value: "critical", label: "Critical only" },
          { value: "major", label: "Major and above" },
          { value: "minor", label: "Minor and above" },
          { value: "info", label: "Everything, including notes" },
        ],
        description:
          "Report findings of this severity and above. Minor findings are style, naming and readability; major ones are bugs, security and performance.",
      },
      {
        key: "max_findings",
        type: "number",
        label: "Most findings per review",
        value: 10,
        min: 1,
        max: 50,
        description: "Post at most this many findings in one review, the most severe first.",
      },
      {
        key: "request_changes",
        type: "boolean",
        label: "Request changes on serious findings",
        value: false,
        description: "Submit the review as a change request when it finds a bug or a security problem.",
      },
      {
        key: "commit_status",
        type: "boolean",
        label: "Review status on the pull request",
        value: true,
        description:
          "Show the review as a check on the pull request's latest commit: in progress while it runs, then what it found, with a link to its run.",
      },
      {
        key: "shadow_mode",
        type: "boolean",
        label: "Shadow mode",
        value: false,
        description:
          "Review pull requests without posting anything to the code host: findings appear only on the review pages, so you can judge the noise before the bot speaks.",
      },
    ],
  },
  {
    setting_category: "built_in_rules",
    description: [
      "Which rule families the built-in reviewer runs.",
      "Each family looks for one kind of flaw in the changed code of TypeScript, JavaScript, Python and Go",
      "files (docs/review-engine.md). A repository's own rules in .argus/rules/*.yml, read from the base",
      "branch, run beside them.",
    ].join("\n"),
    is_active: true,
    default_value: [
      {
        key: "sql_injection",
        type: "boolean",
        label: "SQL injection",
        value: true,
        description:
          "SQL built from request data or a function's parameters and run as raw SQL: query, execute, knex.raw, cursor.execute, db.Query (CWE-89).",
      },
      {
        key: "command_injection",
        type: "boolean",
        label: "Command injection",
        value: true,
        description:
          "Shell commands built from untrusted data: child_process.exec, subprocess with shell=True, os.system, sh -c (CWE-78).",
      },
      {
        key: "path_traversal",
        type: "boolean",
        label: "Path traversal",
        value: true,
        description:
          "File paths taken from the request: fs calls, sendFile and render, open(), os.Open (CWE-22).",
      },
      {
        key: "argument_injection",
        type: "boolean",
        label: "Argument injection",
        value: true,
        description:
          "Outside data passed to git, ssh, curl, tar and the like as an argument with no -- before it, where a leading - makes it an option (CWE-88).",
      },
      {
        key: "ssrf",
        type: "boolean",
        label: "Server-side request forgery",
        value: true,
        description:
          "Requests the server makes to URLs taken from the request: fetch, axios, requests, http.Get (CWE-918).",
      },
      {
        key: "xss",
        type: "boolean",
        label: "Cross-site scripting",
        value: true,
        description:
          "Untrusted data written as HTML: innerHTML, dangerouslySetInnerHTML, bypassSecurityTrust*, document.write, Markup, template.HTML, HTML responses, autoescape off (CWE-79).",
      },
      {
        key: "header_injection",
        type: "boolean",
        label: "Header injection",
        value: true,
        description:
          "Content-Disposition, Location, Link, Refresh and Set-Cookie headers built around outside data without escaping (CWE-113).",
      },
      {
        key: "cors",
        type: "boolean",
        label: "Any site allowed with credentials",
        value: true,
        description:
          "Cross-origin access for any site together with credentials: origin: true, every origin allowed, or the request's Origin sent back unchecked (CWE-942).",
      },
      {
        key: "mass_assignment",
        type: "boolean",
        label: "Records written from the whole request",
        value: true,
        description:
          "A record created or changed from the whole request body: User.create(req.body), Object.assign(user, req.body), User(**request.json) (CWE-915).",
      },
      {
        key: "open_redirect",
        type: "boolean",
        label: "Open redirect",
        value: true,
        description: "Redirects to a URL taken from the request (CWE-601).",
      },
      {
        key: "regex_injection",
        type: "boolean",
        label: "Regular expressions from the request",
        value: true,
        description:
          "Patterns for new RegExp or Python's re taken from the request, where one such as (a+)+$ stalls the server (CWE-1333).",
      },
      {
        key: "code_injection",
        type: "boolean",
        label: "Code injection and unsafe deserialization",
        value: true,
        description:
          "eval and new Function on untrusted data, template source from the request, pickle and friends, yaml.load without a safe loader (CWE-95, CWE-1336, CWE-502).",
      },
      {
        key: "debug_exposed",
        type: "boolean",
        label: "Debug tools served to the network",
        value: true,
        description:
          "Flask's debugger on every interface, Go's net/http/pprof on the default mux of a public server (CWE-94, CWE-200).",
      },
      {
        key: "weak_crypto",
        type: "boolean",
        label: "Weak hashing and ciphers",
        value: true,
        description: "MD5 or SHA-1 for passwords; DES, RC4, Blowfish and ECB (CWE-916, CWE-327).",
      },
      {
        key: "hardcoded_keys",
        type: "boolean",
        label: "Keys written in the code",
        value: true,
        description: "JWT, HMAC, session and cipher keys given as string literals (CWE-798).",
      },
      {
        key: "insecure_randomness",
        type: "boolean",
        label: "Insecure randomness",
        value: true,
        description:
          "Math.random, Python's random or Go's math/rand making tokens, passwords or ids (CWE-338).",
      },
      {
        key: "verification_off",
        type: "boolean",
        label: "Verification turned off",
        value: true,
        description:
          "TLS certificate checks or token signature checks turned off, or a token from the request read without its signature checked (CWE-295, CWE-347).",
      },
      {
        key: "file_permissions",
        type: "boolean",
        label: "World-writable files",
        value: true,
        description:
          "chmod to a mode that lets every user of the machine write the file or folder: 0o777, 0o666, S_IWOTH, os.ModePerm (CWE-732).",
      },
      {
        key: "timing_attack",
        type: "boolean",
        label: "Signatures compared in variable time",
        value: true,
        description:
          "An HMAC compared with ==, ===, equals or bytes.Equal, which reveal how much of a forged signature is right (CWE-208).",
      },
      {
        key: "prototype_pollution",
        type: "boolean",
        label: "Prototype pollution",
        value: true,
        description:
          "Keys from outside written into objects without refusing __proto__: recursive merges, key paths (CWE-1321).",
      },
      {
        key: "resource_leaks",
        type: "boolean",
        label: "Resource leaks",
        value: true,
        description:
          "Go rows and response bodies never closed, defer in loops, Python files and sessions opened outside with, intervals never cleared (CWE-772, CWE-775).",
      },
      {
        key: "concurrency",
        type: "boolean",
        label: "Races",
        value: true,
        description:
          "Goroutines writing shared maps or counters without a lock, WaitGroup.Add inside the goroutine, locks made per call, state changed without its lock, a check and a change split by an await (CWE-362, CWE-367).",
      },
      {
        key: "logic",
        type: "boolean",
        label: "Logic slips",
        value: true,
        description:
          "Inverted error checks, a deferred close before the error check, promises tested as values, async forEach callbacks, loops one past the end, Python defaults shared between calls and changed, `is` against a literal, a finally block that drops the exception (CWE-697, CWE-476, CWE-193, CWE-595, CWE-584).",
      },
    ],
  },
] as const satisfies readonly SettingCategoryDefinition[];

type Catalogue = (typeof SETTINGS_CATALOGUE)[number];

/** A category of the catalogue: "account_preferences" | "review_scope" | "comment_style" | "built_in_rules". */
export type SettingCategory = Catalogue["setting_category"];

/** The keys of one category. */
export type SettingKey<C extends SettingCategory> = Extract<
  Catalogue,
  { setting_category: C }
>["default_value"][number]["key"];

type ItemOf<C extends SettingCategory, K> = Extract<
  Extract<Catalogue, { setting_category: C }>["default_value"][number],
  { key: K }
>;

/** The value type of one item: a choice is one of its option values. */
type ValueOf<Item> = Item extends { type: "patterns" }
  ? string[]
  : Item extends { type: "choice"; options: readonly { value: infer V }[] }
    ? V
    : Item extends { type: "number" }
      ? number
      : Item extends { type: "text" }
        ? string
        : boolean;

/**
 * Every setting's value for one repository (or one organisation), by category and key: what the
 * review engine acts on. `effectiveSettings(db, orgId, projectId).account_preferences.auto_review`.
 */
export type EffectiveSettings = {
  [C in SettingCategory]: {
    [K in SettingKey<C>]: ValueOf<ItemOf<C, K>>;
  };
};

/** The catalogue's categories, by name. */
export const SETTING_CATEGORIES = {
  accountPreferences: "account_preferences",
  reviewScope: "review_scope",
  commentStyle: "comment_style",
  builtInRules: "built_in_rules",
} as const satisfies Record<string, SettingCategory>;

/** The category definition named `name`, or undefined. */
export function settingCategory(name: string): SettingCategoryDefinition | undefined {
  return SETTINGS_CATALOGUE.find((category) => category.setting_category === name);
}

/**
 * The code hosts of the organisation view's provider dropdown (docs/product.md#settings), by the
 * integration names of the backend's catalogue (backend/code-hosts/catalogue.ts). Organisation
 * settings are kept per code host; a repository inherits those of its own code host.
 */
export const SETTINGS_PROVIDERS = [
  { value: "github", label: "GitHub" },
  { value: "azure-devops", label: "Azure DevOps" },
] as const;
export type SettingsProvider = (typeof SETTINGS_PROVIDERS)[number]["value"];
export const DEFAULT_SETTINGS_PROVIDER: SettingsProvider = "github";

/** Where a setting's value comes from: the template, the organisation or the repository. */
export type SettingSource = "default" | "organization" | "repository";

/**
 * What a sandbox repository holds: the files every sample repository starts from on its default
 * branch, and the pull-request templates, each a change to one of those files that shows one thing
 * the built-in reviewer does (docs/review-engine.md#rules).
 */
import type { SandboxTemplate, SandboxTemplateId } from "../../../shared/contract/sandbox.ts";
import { teamRulesFolder } from "../../review/reviewers/builtin/rules/team-rules.ts";

const CONFIG_TS = `import { readFileSync } from "node:fs";

/** Settings read once at start, from the environment. */
export interface Config {
  port: number;
  databaseUrl: string;
  logLevel: "debug" | "info" | "warn";
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    databaseUrl: env.DATABASE_URL ?? "postgres://localhost:5432/app",
    logLevel: env.LOG_LEVEL === "debug" ? "debug" : "info",
  };
}

export const version = JSON.parse(readFileSync("package.json", "utf8")).version as string;
`;

const CART_TS = `export interface LineItem {
  sku: string;
  unitPriceCents: number;
  quantity: number;
}

/** The cart's total in cents, before tax. */
export function cartTotal(items: readonly LineItem[]): number {
  let total = 0;
  for (const item of items) {
    total += item.unitPriceCents * item.quantity;
  }
  return total;
}

/** A discount in percent, never more than the total. */
export function applyDiscount(totalCents: number, percent: number): number {
  const discount = Math.round((totalCents * percent) / 100);
  return Math.max(0, totalCents - discount);
}
`;

const CART_TEST_TS = `import { describe, expect, it } from "vitest";
import { applyDiscount, cartTotal } from "./cart";

describe("cartTotal", () => {
  it("adds every line", () => {
    expect(cartTotal([{ sku: "a", unitPriceCents: 250, quantity: 2 }])).toBe(500);
  });

  it("is zero for an empty cart", () => {
    expect(cartTotal([])).toBe(0);
  });
});

describe("applyDiscount", () => {
  it("takes the percentage off", () => {
    expect(applyDiscount(1000, 10)).toBe(900);
  });
});
`;

const STOCK_TS = `/** Where stock levels come from: the warehouse's database, set at start. */
export interface StockStore {
  unitsOnHand(sku: string): Promise<number>;
}

let store: StockStore = { unitsOnHand: async () => 0 };

export function useStockStore(next: StockStore): void {
  store = next;
}

/** Whether \`quantity\` units of \`sku\` can be sold now. */
export async function inStock(sku: string, quantity = 1): Promise<boolean> {
  return (await store.unitsOnHand(sku)) >= quantity;
}
`;

const REPORT_PY = `"""Prints yesterday's order count per country."""
import csv
import sys
from collections import Counter


def count_by_country(rows):
    return Counter(row["country"] for row in rows)


if __name__ == "__main__":
    with open(sys.argv[1], newline="") as source:
        counts = count_by_country(csv.DictReader(source))
    for country, count in counts.most_common():
        print(f"{country}\\t{count}")
`;

/** The team's own rule every sample repository carries, so a newcomer sees team rules at work. */
const TEAM_RULES_YML = `# This team's own review rules, in ast-grep's rule YAML. Reviews read them from the
# default branch, so a pull request cannot turn them off.
id: config-from-env
language: TypeScript
severity: error
message: The environment is read here, outside src/config.ts, where every setting is read once at start.
note: Add the setting to \`Config\` in src/config.ts and pass it in.
rule:
  pattern: process.env.$NAME
files:
  - src/**
ignores:
  - src/config.ts
metadata:
  category: correctness
`;

/** Where the team rule lives: `.argus/rules/conventions.yml` for the product "Argus". */
export const teamRulePath = (productName: string) => `${teamRulesFolder(productName)}/conventions.yml`;

const readme = (productName: string) => `# Sample service

A small service the sandbox code host serves so you can watch a review happen.

- \`src/config.ts\` reads settings from the environment.
- \`src/cart.ts\` prices a cart; \`src/cart.test.ts\` tests it.
- \`scripts/report.py\` counts orders per country.
- \`${teamRulePath(productName)}\` is this team's own review rule: read \`process.env\` in
  \`src/cart.ts\` in a pull request to see it flagged.
`;

/** Every sample repository's default branch, path → text (the README and the team rule name the product's folder). */
export function baseTree(productName: string): Readonly<Record<string, string>> {
  return {
    "README.md": readme(productName),
    "scripts/report.py": REPORT_PY,
    "src/cart.test.ts": CART_TEST_TS,
    "src/cart.ts": CART_TS,
    "src/config.ts": CONFIG_TS,
    "src/stock.ts": STOCK_TS,
    [teamRulePath(productName)]: TEAM_RULES_YML,
  };
}

// Assembled at run time so that no secret scanner mistakes this file for a leak; it is no real key.
const SAMPLE_GITHUB_TOKEN = ["ghp", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("_");

interface TemplateChange extends SandboxTemplate {
  content: string;
}

const replaceOnce = (text: string, from: string, to: string) => {
  if (!text.includes(from)) throw new Error(`sample text lacks ${JSON.stringify(from)}`);
  return text.replace(from, to);
};

export const TEMPLATES: readonly TemplateChange[] = [
  {
    id: "leaked-key",
    title: "Add the GitHub client token to the config",
    description: "Commits an access token in a config file: the reviewer flags it as a critical finding.",
    path: "src/config.ts",
    content: replaceOnce(
      replaceOnce(
        CONFIG_TS,
        '  logLevel: "debug" | "info" | "warn";\n',
        '  logLevel: "debug" | "info" | "warn";\n  githubToken: string;\n',
      ),
      '    logLevel: env.LOG_LEVEL === "debug" ? "debug" : "info",\n',
      `    logLevel: env.LOG_LEVEL === "debug" ? "debug" : "info",\n    githubToken: env.GITHUB_TOKEN ?? "${SAMPLE_GITHUB_TOKEN}",\n`,
    ),
  },
  {
    id: "focused-test",
    title: "Test discounts over 100 percent",
    description: "Adds a test with it.only, which would make CI skip every other test.",
    path: "src/cart.test.ts",
    content: replaceOnce(
      CART_TEST_TS,
      "    expect(applyDiscount(1000, 10)).toBe(900);\n  });\n",
      '    expect(applyDiscount(1000, 10)).toBe(900);\n  });\n\n  it.only("never goes below zero", () => {\n    expect(applyDiscount(1000, 150)).toBe(0);\n  });\n',
    ),
  },
  {
    id: "conflict-marker",
    title: "Merge the tax changes into the cart",
    description: "Leaves an unresolved merge conflict in the code.",
    path: "src/cart.ts",
    content: replaceOnce(
      CART_TS,
      "    total += item.unitPriceCents * item.quantity;\n",
      "<<<<<<< HEAD\n    total += item.unitPriceCents * item.quantity;\n=======\n    total += Math.round(item.unitPriceCents * item.quantity * 1.2);\n>>>>>>> tax-rates\n",
    ),
  },
  {
    id: "sql-injection",
    title: "Look up one country's orders in the database",
    description:
      "Builds a SQL query from a function's argument: the rule engine flags it as SQL injection, a critical finding.",
    path: "scripts/report.py",
    content: replaceOnce(
      REPORT_PY,
      '    return Counter(row["country"] for row in rows)\n',
      '    return Counter(row["country"] for row in rows)\n\n\ndef orders_from(connection, country):\n    """The id and total of every order placed from one country."""\n    query = f"SELECT id, total_cents FROM orders WHERE country = \'{country}\'"\n    return connection.execute(query).fetchall()\n',
    ),
  },
  {
    id: "off-by-one",
    title: "Count the units in the cart",
    description:
      "Loops one step past the end of the list: the rule engine flags the off-by-one, which would throw on every cart.",
    path: "src/cart.ts",
    content: `${CART_TS}
/** How many units the cart holds, for the badge on the cart icon. */
export function unitCount(items: readonly LineItem[]): number {
  let units = 0;
  for (let i = 0; i <= items.length; i++) {
    units += items[i].quantity;
  }
  return units;
}
`,
  },
  {
    id: "unawaited-check",
    title: "Refuse cart lines that are out of stock",
    description:
      "Tests the promise of an async stock check instead of its answer, so nothing is ever refused: the rule engine knows the check is async from src/stock.ts, a file the pull request does not touch.",
    path: "src/cart.ts",
    content: `import { inStock } from "./stock";

${CART_TS}
/** The cart with one more line, refusing what the warehouse cannot supply. */
export function addLine(items: readonly LineItem[], line: LineItem): LineItem[] {
  if (!inStock(line.sku, line.quantity)) {
    throw new Error(\`\${line.sku} is out of stock\`);
  }
  return [...items, line];
}
`,
  },
  {
    id: "clean-change",
    title: "Compute the cart total with reduce",
    description: "A small, clean refactor: the reviewer finds nothing to say.",
    path: "src/cart.ts",
    content: replaceOnce(
      CART_TS,
      "  let total = 0;\n  for (const item of items) {\n    total += item.unitPriceCents * item.quantity;\n  }\n  return total;\n",
      "  return items.reduce((total, item) => total + item.unitPriceCents * item.quantity, 0);\n",
    ),
  },
];

export function templateOf(id: SandboxTemplateId): TemplateChange {
  const template = TEMPLATES.find((candidate) => candidate.id === id);
  if (!template) throw new Error(`no sandbox template ${id}`);
  return template;
}

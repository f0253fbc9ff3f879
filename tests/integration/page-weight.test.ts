/**
 * First-load JavaScript per page within its budget, computed from the production build by
 * scripts/lib/page-weight.ts (what a first load fetches, gzip -9). Why these budgets and what keeps
 * pages under them: docs/decisions/006-page-weight.md.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";
import {
  type ClientBuild,
  firstLoadScripts,
  gzipKilobytes,
  readClientBuild,
  routeHrefs,
} from "../../scripts/lib/page-weight.ts";
import { FIREBASE_SDK_MARK, VALIBOT_MARK, ZOD_MARK } from "../support/bundle-marks.ts";

/** Gzipped first-load JavaScript each page may weigh, in kB (1 kB = 1000 bytes). */
const BUDGETS_KB: Record<string, number> = {
  // +1 kB: the strong-password rule names the banned word it found (shared/contract/accounts.ts).
  "/login": 141,
  "/signup": 145,
  // The Reviews item of the signed-in sidebar and a sandbox card's pull-request link.
  // /home: its search form and pager (docs/decisions/038-server-side-paging.md).
  "/home": 135,
  // The public account pages (react-hook-form on the two forms).
  "/forgot-password": 140,
  "/reset-password": 140,
  "/email-verified": 130,
  "/oauth/callback/github": 130,
  "/outbox": 125,
  // The code-host screens: the setup calls (zod) load on demand; the setup form brings react-hook-form,
  // as on /signup.
  "/integrations": 135,
  // +1 kB: the Reviews item of the signed-in sidebar; +2 kB: the service hook's URL and secret, shown
  // once, with their copy buttons and "Generate a new secret". +1 kB: the browser's calls send a
  // session ended elsewhere to sign-in (client/lib/browser-api.ts, preloaded with each call module).
  // +1 kB: the code hosts' marks (GitHub's from simple-icons, Azure DevOps' drawn inline) instead of letters.
  "/integrations/azure-devops": 150,
  "/installation": 135,
  "/sandbox/install": 135,
  // The billing screens: their calls (zod, the billing schemas) load on demand, the seat and cancel
  // dialogs (Radix's dialog, react-hook-form) when a button that opens them is pointed at. +1 kB on
  // /subscriptions and /sandbox/checkout: the sidebar's Reviews item and the contributors section.
  // +1 kB on /subscriptions: a session ended elsewhere leads to sign-in (as on azure-devops).
  // +1 kB on /subscriptions: the billing period's end while a cancellation is scheduled.
  "/subscriptions": 138,
  // +1 kB: shared/constants.ts, which the polling reads, grew (the event-stream caps, the owner role).
  "/payment-success": 131,
  "/payment-cancel": 130,
  "/sandbox/checkout": 131,
  "/sandbox/portal": 130,
  // Radix's tabs and switch on the first screen; the settings calls (zod) load on demand.
  // +1 kB on both settings pages: the browser's calls send a session ended elsewhere to sign-in, and
  // the pattern settings refuse a bracket that closes nothing (shared/contract/settings.ts).
  // +1 kB: every page's notice that a part could not be loaded (0.23 kB; decision 056).
  // +1 kB: the link to the Built In Rules tab names a repository or none (0.02 kB; the budget was
  // full to the byte).
  "/settings": 153,
  // The AI model form (react-hook-form, as on /integrations/azure-devops) on the first screen; its
  // checks and calls (zod, the contract's schemas) load on demand. +1 kB: its back link is the
  // design system's BackLink, a chunk of its own shared by the pages that have one.
  // +1 kB: this month's AI reviews, tokens and spend against the budget, above the form.
  "/settings/ai-model": 150,
  // The review screens: their calls (zod, the review schemas) load on demand, when a button that
  // makes one is pointed at; the live list reads its event stream without a schema.
  // +2 kB on /reviews: its pages and outcome filter (a GET form), the table's scroll box on phones.
  // +2 kB on /reviews: the feedback on findings, summed and by rule, above the runs.
  "/reviews": 139,
  // +1 kB: the decision log as a timeline, the repository name that breaks after its "/". +1 kB:
  // the head commit linked to its page on the code host (it was 30 bytes under 136 before).
  "/reviews/7d3f0b52-9a43-4c55-8f8a-1f1c7e0b1a01": 137,
  "/sandbox/repositories/0b8f7c1e-5f3a-4d2b-9c4e-6a7b8c9d0e1f/pulls": 135,
  // +1 kB: the file editor it shares with the new-pull-request form is a chunk of its own. +1 kB: a
  // session ended elsewhere leads to sign-in (as on azure-devops).
  // +1 kB: the review's Markdown arrives as HTML from the loader, shown by a small shared component.
  // +1 kB: the comment form that asks for a review with the bot command (its call loads on demand).
  "/sandbox/pulls/4a5b6c7d-8e9f-4a0b-8c1d-2e3f4a5b6c7d": 139,
};

/** Code that only loads when a visitor starts to sign in or out. */
const ON_DEMAND = {
  "the Firebase SDK": FIREBASE_SDK_MARK,
};

/**
 * The one page whose first load checks a form with the contract's own schema (the AI model form,
 * with valibot). Every other page imports its area's module for paths and messages only, and its
 * schemas must drop out (shared/contract/schema.ts, docs/decisions/053-valibot-contract.md).
 */
const VALIDATES_WITH_SCHEMAS = "/settings/ai-model";

let build: ClientBuild;

beforeAll(() => {
  ensureBuild();
  build = readClientBuild();
  // Only React's production build carries this string; weighing a development build means nothing.
  if (!firstLoadScripts(build, "/").some((href) => build.fileText(href).includes("Minified React error"))) {
    throw new Error("build/ holds a development build (built with NODE_ENV set?): run `npm run build`");
  }
});

describe("first-load JavaScript", () => {
  it.each(Object.entries(BUDGETS_KB))("keeps %s within %d kB gzipped", (url, budget) => {
    const files = firstLoadScripts(build, url);
    const kB = gzipKilobytes(build, files);
    console.log(`${url}: ${kB.toFixed(1)} kB of ${budget} kB (gzip -9, ${files.length} files)`);
    expect(kB, `${url} loads ${files.join(", ")}`).toBeLessThanOrEqual(budget);
  });

  it.each(Object.entries(ON_DEMAND))("leaves %s out of every first load", (_, mark) => {
    const chunks = build
      .assetHrefs()
      .filter((href) => href.endsWith(".js") && build.fileText(href).includes(mark));
    // It is built, to be fetched on demand...
    expect(chunks.length).toBeGreaterThan(0);
    // ...never preloaded by the HTML of any page...
    const { assets } = build;
    const preloaded = [
      assets.entry.module,
      ...assets.entry.imports,
      ...Object.keys(assets.routes).flatMap((id) => routeHrefs(assets, id)),
    ];
    for (const href of chunks) expect(preloaded).not.toContain(href);
    // ...nor imported statically by what /login and /home load.
    for (const url of Object.keys(BUDGETS_KB)) {
      for (const href of firstLoadScripts(build, url)) {
        expect(build.fileText(href), `${url}: ${href}`).not.toContain(mark);
      }
    }
  });

  it("carries the contract's schemas (valibot) only on the page whose form checks with them", () => {
    expect(
      firstLoadScripts(build, VALIDATES_WITH_SCHEMAS).some((href) =>
        build.fileText(href).includes(VALIBOT_MARK),
      ),
    ).toBe(true);
    for (const url of Object.keys(BUDGETS_KB).filter((url) => url !== VALIDATES_WITH_SCHEMAS)) {
      for (const href of firstLoadScripts(build, url)) {
        expect(build.fileText(href), `${url}: ${href}`).not.toContain(VALIBOT_MARK);
      }
    }
  });

  it("ships no zod, the servers' own validator, to the browser", () => {
    const withZod = build
      .assetHrefs()
      .filter((href) => href.endsWith(".js") && build.fileText(href).includes(ZOD_MARK));
    expect(withZod).toEqual([]);
  });
});

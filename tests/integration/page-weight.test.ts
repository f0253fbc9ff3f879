/**
 * First-load JavaScript per page, computed from the production build so the figure is the same on
 * every run: the files React Router's <Scripts> makes the browser load for a URL (the client entry
 * and, for each matched route, its module and their imports, as listed in the build's asset
 * manifest), plus anything those files import statically. Dynamic imports (the Firebase SDK, the
 * /auth calls) are not part of a first load. Each file is gzipped at level 9 and the sizes summed.
 * Why these budgets and what keeps pages under them: docs/decisions/006-page-weight.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../../scripts/lib/build.ts";
import { FIREBASE_SDK_MARK, ZOD_MARK } from "../support/bundle-marks.ts";

/** Gzipped first-load JavaScript each page may weigh, in kB (1 kB = 1000 bytes). */
const BUDGETS_KB: Record<string, number> = {
  "/login": 140,
  "/signup": 145,
  // The Reviews item of the signed-in sidebar and a sandbox card's pull-request link.
  "/home": 132,
  // The public account pages (react-hook-form on the two forms).
  "/forgot-password": 140,
  "/reset-password": 140,
  "/email-verified": 130,
  "/oauth/callback/github": 130,
  "/outbox": 125,
  // The code-host screens: the setup calls (zod) load on demand; the setup form brings react-hook-form,
  // as on /signup.
  "/integrations": 135,
  // +1 kB: the Reviews item of the signed-in sidebar.
  "/integrations/azure-devops": 146,
  "/installation": 135,
  "/sandbox/install": 135,
  // The billing screens: their calls (zod, the billing schemas) load on demand, the seat and cancel
  // dialogs (Radix's dialog, react-hook-form) when a button that opens them is pointed at. +1 kB on
  // /subscriptions and /sandbox/checkout: the sidebar's Reviews item and the contributors section.
  "/subscriptions": 136,
  "/payment-success": 130,
  "/payment-cancel": 130,
  "/sandbox/checkout": 131,
  "/sandbox/portal": 130,
  // Radix's tabs and switch on the first screen; the settings calls (zod) load on demand.
  "/settings": 150,
  // The AI model form (react-hook-form, as on /integrations/azure-devops) on the first screen; its
  // checks and calls (zod, the contract's schemas) load on demand.
  "/settings/ai-model": 147,
  // The review screens: their calls (zod, the review schemas) load on demand, when a button that
  // makes one is pointed at; the live list reads its event stream without a schema.
  "/reviews": 135,
  "/reviews/7d3f0b52-9a43-4c55-8f8a-1f1c7e0b1a01": 135,
  "/sandbox/repositories/0b8f7c1e-5f3a-4d2b-9c4e-6a7b8c9d0e1f/pulls": 135,
  // +1 kB: the file editor it shares with the new-pull-request form is a chunk of its own.
  "/sandbox/pulls/4a5b6c7d-8e9f-4a0b-8c1d-2e3f4a5b6c7d": 136,
};

const CLIENT_DIR = path.resolve("build/client");

/** Code that only loads when a visitor starts to sign in or out. */
const ON_DEMAND = {
  "the Firebase SDK": FIREBASE_SDK_MARK,
  "zod (the /auth calls parse answers with the contract's schemas)": ZOD_MARK,
};
/** `import"./x.js"` and `import{a as b}from"./x.js"` in the minified output; `import("./x.js")` is dynamic. */
const STATIC_IMPORT = /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.\/[^"']+\.js)["']/g;

type Assets = ServerBuild["assets"];
let assets: Assets;

beforeAll(async () => {
  ensureBuild();
  // The same manifest React Router hands the browser: routes, their modules and static imports.
  const manifestFile = readdirSync(path.join(CLIENT_DIR, "assets")).find((file) =>
    /^manifest-.*\.js$/.test(file),
  );
  const manifest = readFileSync(path.join(CLIENT_DIR, "assets", manifestFile ?? "missing"), "utf8");
  assets = JSON.parse(manifest.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, ""));
  // Only React's production build carries this string; weighing a development build means nothing.
  if (!firstLoad("/").some((href) => fileText(href).includes("Minified React error"))) {
    throw new Error("build/ holds a development build (built with NODE_ENV set?): run `npm run build`");
  }
});

function fileText(href: string): string {
  return readFileSync(path.join(CLIENT_DIR, href), "utf8");
}

/** The route table as nested route objects, to match URLs the way the router does. */
function routeTree(parentId?: string): RouteObject[] {
  return Object.values(assets.routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => ({
      id: route?.id,
      path: route?.path,
      index: route?.index,
      children: route?.index ? undefined : routeTree(route?.id),
    })) as RouteObject[];
}

/** What the server's HTML preloads for a route: its module (and split-off pieces) and imports. */
function routeHrefs(routeId: string): string[] {
  const route = assets.routes[routeId];
  if (!route) throw new Error(`no route ${routeId} in the manifest`);
  return [
    route.module,
    route.clientActionModule,
    route.clientLoaderModule,
    route.hydrateFallbackModule,
    ...(route.imports ?? []),
  ].filter((href): href is string => Boolean(href));
}

/** The files a first load of `url` fetches: what the HTML names, and their static imports. */
function firstLoad(url: string): string[] {
  const matches = matchRoutes(routeTree(), url);
  if (!matches) throw new Error(`${url} matches no route`);
  const seeds = [
    assets.entry.module,
    ...assets.entry.imports,
    ...matches.flatMap((m) => routeHrefs(String(m.route.id))),
  ];
  const files = new Set<string>();
  const visit = (href: string) => {
    if (files.has(href)) return;
    files.add(href);
    for (const [, relative] of fileText(href).matchAll(STATIC_IMPORT)) {
      visit(path.posix.join(path.posix.dirname(href), relative as string));
    }
  };
  seeds.forEach(visit);
  return [...files];
}

function gzipBytes(href: string): number {
  return gzipSync(readFileSync(path.join(CLIENT_DIR, href)), { level: 9 }).length;
}

describe("first-load JavaScript", () => {
  it.each(Object.entries(BUDGETS_KB))("keeps %s within %d kB gzipped", (url, budget) => {
    const files = firstLoad(url);
    const kB = files.reduce((sum, href) => sum + gzipBytes(href), 0) / 1000;
    console.log(`${url}: ${kB.toFixed(1)} kB of ${budget} kB (gzip -9, ${files.length} files)`);
    expect(kB, `${url} loads ${files.join(", ")}`).toBeLessThanOrEqual(budget);
  });

  it.each(Object.entries(ON_DEMAND))("leaves %s out of every first load", (_, mark) => {
    const chunks = readdirSync(path.join(CLIENT_DIR, "assets"))
      .map((file) => `/assets/${file}`)
      .filter((href) => href.endsWith(".js") && fileText(href).includes(mark));
    // It is built, to be fetched on demand...
    expect(chunks.length).toBeGreaterThan(0);
    // ...never preloaded by the HTML of any page...
    const preloaded = [
      assets.entry.module,
      ...assets.entry.imports,
      ...Object.keys(assets.routes).flatMap(routeHrefs),
    ];
    for (const href of chunks) expect(preloaded).not.toContain(href);
    // ...nor imported statically by what /login and /home load.
    for (const url of Object.keys(BUDGETS_KB)) {
      for (const href of firstLoad(url)) expect(fileText(href), `${url}: ${href}`).not.toContain(mark);
    }
  });
});

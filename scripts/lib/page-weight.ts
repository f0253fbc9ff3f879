/**
 * First-load weight per page, computed from the production build so the figure is the same on
 * every run: the files React Router's <Scripts> makes the browser load for a URL (the client entry
 * and, for each matched route, its module and their imports, as listed in the build's asset
 * manifest), plus anything those files import statically. Dynamic imports (the Firebase SDK, the
 * /auth calls) are not part of a first load. Each file is gzipped at level 9 and the sizes summed.
 * Used by the page-weight test (budgets: docs/decisions/006-page-weight.md) and `npm run bench`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

export const CLIENT_DIR = path.resolve(import.meta.dirname, "../../build/client");

/** `import"./x.js"` and `import{a as b}from"./x.js"` in the minified output; `import("./x.js")` is dynamic. */
const STATIC_IMPORT = /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.\/[^"']+\.js)["']/g;
/** `<link rel="stylesheet" href="…">` in a rendered page (attributes in either order). */
const STYLESHEET_LINK = /<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"/g;

type Assets = ServerBuild["assets"];

export interface ClientBuild {
  assets: Assets;
  /** A built file's text by its URL path (`/assets/x.js`). */
  fileText(href: string): string;
  /** A built file's size gzipped at level 9, in bytes. */
  gzipBytes(href: string): number;
  /** Every built file under /assets. */
  assetHrefs(): string[];
}

/** The production build's client side: the same manifest React Router hands the browser. */
export function readClientBuild(clientDir = CLIENT_DIR): ClientBuild {
  const manifestFile = readdirSync(path.join(clientDir, "assets")).find((file) =>
    /^manifest-.*\.js$/.test(file),
  );
  const manifest = readFileSync(path.join(clientDir, "assets", manifestFile ?? "missing"), "utf8");
  const assets = JSON.parse(
    manifest.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, ""),
  ) as Assets;
  return {
    assets,
    fileText: (href) => readFileSync(path.join(clientDir, href), "utf8"),
    gzipBytes: (href) => gzipSync(readFileSync(path.join(clientDir, href)), { level: 9 }).length,
    assetHrefs: () => readdirSync(path.join(clientDir, "assets")).map((file) => `/assets/${file}`),
  };
}

/** The route table as nested route objects, to match URLs the way the router does. */
function routeTree(assets: Assets, parentId?: string): RouteObject[] {
  return Object.values(assets.routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => ({
      id: route?.id,
      path: route?.path,
      index: route?.index,
      children: route?.index ? undefined : routeTree(assets, route?.id),
    })) as RouteObject[];
}

/** What the server's HTML preloads for a route: its module (and split-off pieces) and imports. */
export function routeHrefs(assets: Assets, routeId: string): string[] {
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

function matchedRouteIds(assets: Assets, url: string): string[] {
  const matches = matchRoutes(routeTree(assets), url);
  if (!matches) throw new Error(`${url} matches no route`);
  return matches.map((match) => String(match.route.id));
}

/** The JavaScript files a first load of `url` fetches: what the HTML names, and their static imports. */
export function firstLoadScripts(build: ClientBuild, url: string): string[] {
  const { assets } = build;
  const seeds = [
    assets.entry.module,
    ...assets.entry.imports,
    ...matchedRouteIds(assets, url).flatMap((id) => routeHrefs(assets, id)),
  ];
  const files = new Set<string>();
  const visit = (href: string) => {
    if (files.has(href)) return;
    files.add(href);
    for (const [, relative] of build.fileText(href).matchAll(STATIC_IMPORT)) {
      visit(path.posix.join(path.posix.dirname(href), relative as string));
    }
  };
  seeds.forEach(visit);
  return [...files];
}

/**
 * The stylesheets a first load of `url` fetches: the manifest's CSS of the entry and the matched
 * routes, and those the rendered page links (the root's `?url` stylesheet is only in the HTML).
 */
export function firstLoadStylesheets(build: ClientBuild, url: string, html = ""): string[] {
  const { assets } = build;
  const fromManifest = [
    // The built manifest has `css` on the entry too, though its type leaves it out.
    ...((assets.entry as { css?: string[] }).css ?? []),
    ...matchedRouteIds(assets, url).flatMap((id) => assets.routes[id]?.css ?? []),
  ];
  const linked = [...html.matchAll(STYLESHEET_LINK)].map(([, href]) => href as string);
  return [...new Set([...fromManifest, ...linked])];
}

/** The files' summed gzip -9 size in kB (1 kB = 1000 bytes). */
export function gzipKilobytes(build: ClientBuild, hrefs: string[]): number {
  return hrefs.reduce((sum, href) => sum + build.gzipBytes(href), 0) / 1000;
}

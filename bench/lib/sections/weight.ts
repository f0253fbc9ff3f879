/** First-load JavaScript and CSS of the rendered pages, gzip -9 (scripts/lib/page-weight.ts). */
import {
  firstLoadScripts,
  firstLoadStylesheets,
  gzipKilobytes,
  readClientBuild,
} from "../../../scripts/lib/page-weight.ts";
import type { ReportSection } from "../report.ts";

export function weightSection(html: Record<string, string>): ReportSection {
  const build = readClientBuild();
  return {
    title: "Client weight",
    intro:
      "What a first load of each page fetches, gzipped at level 9 (1 kB = 1000 bytes): the JavaScript the HTML names and its static imports, and the stylesheets. The budgets are the page-weight test's (docs/decisions/006-page-weight.md).",
    tables: [
      {
        headers: ["page", "JavaScript kB", "files", "CSS kB", "files"],
        rows: Object.entries(html).map(([page, text]) => {
          const scripts = firstLoadScripts(build, page);
          const stylesheets = firstLoadStylesheets(build, page, text);
          return [
            page,
            gzipKilobytes(build, scripts).toFixed(1),
            String(scripts.length),
            gzipKilobytes(build, stylesheets).toFixed(1),
            String(stylesheets.length),
          ];
        }),
      },
    ],
    checks: [],
  };
}

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompressedAssets } from "./scripts/lib/precompressed-assets.ts";

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    // Every client script and stylesheet of 256 bytes or more also as .br and .gz, which the gateway
    // serves as they are (docs/decisions/054-precompressed-assets.md).
    precompressedAssets(),
  ],
  // The server build's entry is the page handler the gateway mounts (client/page-handler.ts), so the
  // handler, the routes and their context share one module graph. In React Router 8 the SSR input
  // belongs under environments.ssr (build.rollupOptions is ignored there), unconditionally: the
  // plugin builds every environment from this one config.
  environments: { ssr: { build: { rollupOptions: { input: "client/page-handler.ts" } } } },
  // Bundled rather than left to Node, so that in `npm run dev` it uses the same copy of react-router
  // as the page handler (Vite resolves that copy with the "development" condition, Node would not).
  // The icon and UI-primitive libraries are bundled too, so the gateway holds only the icons and
  // primitives the pages use: left to Node, all of lucide-react and radix-ui cost it about 45 MB
  // of memory, and all of simple-icons (for one mark) 34 MB (docs/performance.md).
  ssr: { noExternal: ["@react-router/express", "lucide-react", "radix-ui", /^@radix-ui\//, "simple-icons"] },
  // React, React DOM and React Router in one chunk: every page loads all of them, and one file
  // compresses better than the pieces rolldown would split them into (docs/decisions/006-page-weight.md).
  // With them lucide-react's runtime (not its icons) and clsx, which every page uses too (the root's
  // icons, the design system's class names): 0.2 kB less on each page than in a chunk of their own
  // (docs/decisions/046-first-load-in-chromium.md).
  // The server build keeps them external, so this shapes the client build only.
  build: {
    // A lazily loaded module's own imports are found when it is parsed, not listed in the module
    // that imports it: without Vite's preload helper and those lists every page loads 0.8 kB less
    // (/home), room that typed links (href()) need; the parts are fetched on pointerenter or focus,
    // ahead of the click (docs/decisions/041-feature-folders.md).
    modulePreload: false,
    rolldownOptions: {
      treeshake: { propertyReadSideEffects: false },
      output: {
        codeSplitting: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|clsx)[\\/]|node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](?!icons[\\/])/,
            },
          ],
        },
      },
    },
  },
  server: { host: "127.0.0.1" },
});

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  // The custom Express server imports the React Router build through this entry; in React Router 8
  // the SSR input belongs under environments.ssr (build.rollupOptions is ignored there).
  environments: isSsrBuild
    ? { ssr: { build: { rollupOptions: { input: "virtual:react-router/server-build" } } } }
    : undefined,
  // React, React DOM and React Router in one chunk: every page loads all of them, and one file
  // compresses better than the pieces rolldown would split them into (docs/decisions/006-page-weight.md).
  build: isSsrBuild
    ? undefined
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
              ],
            },
          },
        },
      },
  server: { host: "127.0.0.1" },
}));

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
  server: { host: "127.0.0.1" },
}));

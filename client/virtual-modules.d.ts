/** The React Router build that the Vite plugin provides to the server entry (page-handler.ts). */
declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";

  const build: ServerBuild;
  export = build;
}

import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // Unit tests sit next to their code and start no processes (PGlite runs in process).
        test: {
          name: "unit",
          environment: "node",
          include: [
            "server/**/*.test.ts",
            "backend/**/*.test.ts",
            "shared/**/*.test.ts",
            "scripts/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          // The quality corpus holds pull requests under review, their own tests included.
          exclude: [...configDefaults.exclude, "bench/review-quality/corpus/**"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Integration tests: real sockets, and processes such as the Firebase Auth emulator.
        test: {
          name: "integration",
          environment: "node",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "jsdom",
          environment: "jsdom",
          include: ["client/**/*.test.{ts,tsx}"],
          setupFiles: ["tests/setup/jsdom.ts"],
          // A test waits on several lazy modules and renders (findBy up to 5 s each, the setup
          // file): 1–2 s on a quiet machine, past 5 s when CI's browser tests load it.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          setupFiles: ["tests/e2e/no-browser-errors.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**"],
    pool: "forks",
    setupFiles: ["tests/support/no-outside-network.ts"],
    globalSetup: ["tests/support/database-template.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

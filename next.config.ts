import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native drivers and the embedded database stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "ioredis", "ws"],
  // Document parsers run in worker threads from plain .mjs files found at run time (never bundled);
  // every route that may fetch needs them and the pdf.js they load in its traced output.
  outputFileTracingIncludes: {
    "/**": ["./lib/engine/fetch/extract/*.mjs", "./node_modules/unpdf/**/*"],
  },
  poweredByHeader: false,
  typedRoutes: false,
  // Tokens in URLs (the MCP URL form, GPT-Researcher's ?api_key=) stay out of request logs.
  logging: { incomingRequests: { ignore: [/\/api\/mcp\/t\//, /[?&]api_key=/] } },
};

export default nextConfig;

import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Self-hosting: `next build` also writes .next/standalone, a server (`node server.js`) with only the
  // node_modules it needs; scripts/assemble-standalone.mjs adds the static files (Dockerfile).
  output: "standalone",
  // Native drivers and the embedded database stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "ioredis", "ws"],
  // Files read at run time by path, which the build cannot see imported, so that deployments have them:
  // the document parsers' worker scripts and the pdf.js they load (every route that may fetch). And for
  // the standalone output, which holds every route's files (so one route names them): the SQL migrations
  // (the embedded database applies them at start; dist/db-migrate.mjs reads them) and the embedded
  // database's server process (lib/db/embedded.ts starts it when DATABASE_URL is unset) with PGlite (its
  // WebAssembly and data files) and drizzle's PGlite driver.
  outputFileTracingIncludes: {
    "/**": ["./lib/engine/fetch/extract/*.mjs", "./node_modules/unpdf/**/*"],
    "/api/health": [
      "./drizzle/**/*",
      "./lib/db/embedded-server.mjs",
      "./lib/db/embedded-auth.mjs",
      "./lib/secret-file.mjs",
      "./node_modules/@electric-sql/pglite/dist/**/*",
      "./node_modules/@electric-sql/pglite/package.json",
      "./node_modules/drizzle-orm/**/*.js",
      "./node_modules/drizzle-orm/package.json",
    ],
  },
  poweredByHeader: false,
  // The OAuth consent page must not be framed: another site could overlay it and trick the Approve click.
  async headers() {
    return [
      {
        source: "/oauth/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
        ],
      },
    ];
  },
  typedRoutes: false,
  // Tokens in URLs (the MCP URL form, GPT-Researcher's ?api_key=) stay out of request logs.
  logging: { incomingRequests: { ignore: [/\/api\/mcp\/t\//, /[?&]api_key=/] } },
};

export default nextConfig;

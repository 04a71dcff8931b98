import type { NextConfig } from "next";

/**
 * `SEARCHMUX_STANDALONE=1 npm run build` also writes .next/standalone, a server (`node server.js`) with only
 * the node_modules it needs, which scripts/assemble-standalone.mjs completes (the Dockerfile does both). A
 * plain build is what `npm start` (`next start`) serves: Next.js does not support `next start` on standalone
 * output and says so at every start.
 */
const standalone = process.env.SEARCHMUX_STANDALONE === "1";

/**
 * Whether the build carries the embedded database (PGlite, ~27 MB, and its server process), which serves
 * when DATABASE_URL is unset. Left out on Vercel, which refuses the embedded database (lib/deploy-check.ts),
 * and with SEARCHMUX_EMBEDDED_DATABASE=0 (a PostgreSQL-only image such as compose.yaml's); such a build
 * refuses to start without DATABASE_URL, saying so.
 */
const embeddedDatabase = !process.env.VERCEL && process.env.SEARCHMUX_EMBEDDED_DATABASE !== "0";

const nextConfig: NextConfig = {
  ...(standalone && { output: "standalone" as const }),
  // Native drivers and the embedded database stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "ioredis", "ws"],
  // Files read at run time by path, which the build cannot see imported, so that deployments have them:
  // the worker scripts of caller-controlled input and what they load (pdf.js; Ajv and its dependencies; the
  // HTML converter, bundled with its dependencies into .workers/ by `npm run build`, scripts/build-workers.mjs),
  // for every route that may fetch or compile a schema. And for
  // the standalone output, which holds every route's files (so one route names them): the SQL migrations
  // (the embedded database applies them at start; dist/db-migrate.mjs reads them) and, unless left out, the
  // embedded database's server process (lib/db/embedded.ts starts it when DATABASE_URL is unset) with
  // PGlite (its WebAssembly and data files) and drizzle's PGlite driver.
  outputFileTracingIncludes: {
    "/**": [
      "./lib/engine/fetch/extract/*.mjs",
      "./lib/engine/extract/*.mjs",
      "./.workers/*.mjs",
      "./node_modules/unpdf/**/*",
      ...["ajv", "fast-deep-equal", "fast-uri", "json-schema-traverse", "require-from-string"].map(
        (name) => `./node_modules/${name}/**/*`,
      ),
    ],
    "/api/health": [
      "./drizzle/**/*",
      ...(embeddedDatabase
        ? [
            "./lib/db/embedded-server.mjs",
            "./lib/db/embedded-auth.mjs",
            "./lib/secret-file.mjs",
            "./node_modules/@electric-sql/pglite/dist/**/*",
            "./node_modules/@electric-sql/pglite/package.json",
            "./node_modules/drizzle-orm/**/*.js",
            "./node_modules/drizzle-orm/package.json",
          ]
        : []),
    ],
  },
  // Next's image optimizer serves next/image, which nothing here uses: off, and sharp (~20 MB of native
  // code the server's own trace would copy into the standalone output) left out.
  images: { unoptimized: true },
  outputFileTracingExcludes: { "next-server": ["**/node_modules/sharp/**/*", "**/node_modules/@img/**/*"] },
  poweredByHeader: false,
  // The test suite's builds (tests/reliability/support/production-build.ts) skip Next's type check: `npm test`
  // type-checks the whole project in a stage of its own, and a second pass would cost its build half a minute.
  typescript: { ignoreBuildErrors: process.env.SEARCHMUX_BUILD_SKIP_TYPECHECK === "1" },
  // Security headers (docs/decisions.md, "Security headers"). Pages get their Content-Security-Policy, with
  // a nonce per request, from proxy.ts; route handlers, which render no document, the static ones below.
  async headers() {
    const api = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          // For browsers without CSP's frame-ancestors; where both apply, frame-ancestors wins.
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      // The consent page sends the browser on to a client's redirect URI: with no Referer at all (its own
      // address holds the client's whole authorization request).
      { source: "/oauth/:path*", headers: [{ key: "Referrer-Policy", value: "no-referrer" }] },
      { source: "/api/:path*", headers: api },
      { source: "/.well-known/:path*", headers: api },
      // next-auth's own pages (sign-out, error): an inline stylesheet, a form that posts to this site.
      {
        source: "/api/auth/:path*",
        headers: [
          {
            key: "Content-Security-Policy",
            value:
              "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
          },
        ],
      },
    ];
  },
  typedRoutes: false,
  // Secrets in URLs (the MCP URL form, GPT-Researcher's ?api_key=, invitation links, sign-in callbacks'
  // codes) stay out of request logs.
  logging: { incomingRequests: { ignore: [/\/api\/mcp\/t\//, /[?&]api_key=/, /\/invite\//, /[?&]code=/] } },
};

export default nextConfig;

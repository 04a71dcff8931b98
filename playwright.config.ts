import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CLIENT_SITE_ADDRESS, clientSiteFiles } from "./tests/e2e/support/client-site";
import { companySignInEnv, IDENTITY_PROVIDER_ISSUER } from "./tests/e2e/support/company-sign-in";
import { FAKES_ORIGIN } from "./tests/e2e/support/fake-providers";
import { createLocalCa } from "./tests/reliability/support/local-ca";
import { fakeProviderEnv } from "./tests/support/provider-env";

const port = Number(process.env.E2E_PORT ?? 3199);
// Created once: the config is evaluated again in each worker, which reads the server's data directory
// (to seed tenants and tokens) through this variable. The global teardown removes it.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "smx-e2e-"));
// oauth.spec's clients publish their metadata documents on an HTTPS site at CLIENT_SITE_ADDRESS, with a
// throwaway authority the server trusts; only that address is exempt from the SSRF guard (127.0.0.1 stays
// refused, as mcp.spec checks). Created once too; the global teardown removes it.
process.env.E2E_CLIENT_SITE_DIR ??= path.dirname(createLocalCa(CLIENT_SITE_ADDRESS).caFile);
// The test mail server writes each message it accepts here (company-sign-in.ts); the teardown removes it.
process.env.E2E_MAIL_DIR ??= mkdtempSync(path.join(tmpdir(), "smx-e2e-mail-"));
const baseURL = `http://localhost:${port}`;

// End-to-end runs the zero-configuration product: `next build` (unless .next is fresh) and `next start`, embedded database in a
// fresh data directory, in-memory KV, development sign-in explicitly allowed under production. Every
// provider points at the fake provider server and no operator key is set: a few keyed search providers
// answer there, reachable only with a workspace's own key; the rest answer 503, internet or not. Company
// sign-in goes to a real OpenID Connect provider and invitations to a real SMTP server, both run here.
export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/e2e/support/global-teardown.ts",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? "list" : "line",
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: {
      // Playwright cannot download its own browser here; Debian's chromium is used instead.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: "npx tsx tests/fakes/serve-fake-providers.ts",
      url: `${FAKES_ORIGIN}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: "npx tsx tests/e2e/support/serve-identity-provider.ts",
      url: `${IDENTITY_PROVIDER_ISSUER}/.well-known/openid-configuration`,
      ignoreHTTPSErrors: true,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: "npx tsx tests/e2e/support/serve-mail-server.ts",
      // It listens on the client site's address, where Playwright's port check does not look.
      wait: { stdout: /mail server at / },
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: `npx tsx tests/support/production-build-step.ts && npm start -- -p ${port}`,
      url: `${baseURL}/api/health`,
      // The build takes 2–3 minutes on an idle 2-core machine; a loaded one may set more.
      timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 300_000),
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        DATABASE_URL: "",
        REDIS_URL: "",
        KV_REST_API_URL: "",
        KV_REST_API_TOKEN: "",
        SEARCHMUX_DATA_DIR: process.env.E2E_DATA_DIR,
        AUTH_URL: baseURL,
        AUTH_DEV_LOGIN: "1",
        AUTH_DEV_LOGIN_ALLOW_PRODUCTION: "1",
        NEXT_TELEMETRY_DISABLED: "1",
        LOG_LEVEL: "warn",
        // The development sign-in's user operates the deployment (the Admin pages).
        SEARCHMUX_OPERATOR_EMAILS: "dev@searchmux.local",
        ...fakeProviderEnv(FAKES_ORIGIN),
        NODE_EXTRA_CA_CERTS: clientSiteFiles().caFile,
        SEARCHMUX_FETCH_ALLOWLIST: CLIENT_SITE_ADDRESS,
        ...companySignInEnv(),
        // Company sign-in opens sign-up, which brings the operator quotas; the other specs run without them.
        SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "unlimited",
        SEARCHMUX_OPERATOR_QUOTA_REQUESTS_MONTH: "unlimited",
        SEARCHMUX_OPERATOR_QUOTA_USD_DAY: "unlimited",
        SEARCHMUX_OPERATOR_QUOTA_USD_MONTH: "unlimited",
      },
    },
  ],
});

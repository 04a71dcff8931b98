import { describe, expect, it } from "vitest";
import { companySignInProvider, oidcRefusal } from "@/lib/auth/company-sign-in";
import { signInErrorMessage } from "@/lib/auth/sign-in-error";
import { loadConfig, tenantLimits } from "@/lib/config";
import { checkDeployment } from "@/lib/deploy-check";

const OIDC = {
  AUTH_OIDC_ISSUER: "https://login.corp.test/realms/staff",
  AUTH_OIDC_ID: "searchmux",
  AUTH_OIDC_SECRET: "s3cret-value",
};

describe("company sign-in configuration", () => {
  it("is off without its variables and on with all three, named by AUTH_OIDC_NAME", () => {
    expect(loadConfig({}).auth.oidc).toBeUndefined();
    expect(loadConfig(OIDC).auth.oidc).toEqual({
      issuer: OIDC.AUTH_OIDC_ISSUER,
      clientId: "searchmux",
      clientSecret: "s3cret-value",
      name: "company sign-in",
    });
    expect(loadConfig({ ...OIDC, AUTH_OIDC_NAME: " Okta " }).auth.oidc?.name).toBe("Okta");
  });

  it("refuses a partial set at start, naming what is missing and never a value", () => {
    const { errors } = checkDeployment(
      { AUTH_OIDC_ISSUER: OIDC.AUTH_OIDC_ISSUER, AUTH_OIDC_SECRET: "x" },
      "server",
    );
    expect(errors).toEqual([
      "AUTH_OIDC_ID is missing: AUTH_OIDC_ISSUER and AUTH_OIDC_SECRET are set, and company sign-in (OpenID Connect) needs all 3 (or none)",
    ]);
    expect(checkDeployment({ AUTH_OIDC_SECRET: "s3cret-value" }, "server").errors[0]).toMatch(
      /^AUTH_OIDC_ISSUER and AUTH_OIDC_ID are missing: AUTH_OIDC_SECRET is set/,
    );
    expect(checkDeployment({ AUTH_OIDC_ID: "  " }, "server").errors).toEqual([]);
  });

  it("refuses an issuer that is not https in production, and allows it in development", () => {
    const http = { ...OIDC, AUTH_OIDC_ISSUER: "http://127.0.0.1:8080" };
    expect(checkDeployment({ ...http, NODE_ENV: "production" }, "server").errors).toEqual([
      "AUTH_OIDC_ISSUER must be an https:// URL in production (npm start)",
    ]);
    expect(loadConfig({ ...http, NODE_ENV: "development" }).auth.oidc?.issuer).toBe("http://127.0.0.1:8080");
  });

  it.each([
    "login.corp.test",
    "ftp://login.corp.test",
    "https://login.corp.test/?tenant=1",
    "https://login.corp.test/#x",
    "https://admin:pw@login.corp.test",
  ])("refuses the issuer %s without echoing it", (issuer) => {
    const { errors } = checkDeployment({ ...OIDC, AUTH_OIDC_ISSUER: issuer }, "server");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^AUTH_OIDC_ISSUER must be the provider's issuer URL/);
    expect(errors[0]).not.toContain("pw");
  });

  it("refuses a button name over 40 characters or over more than one line", () => {
    for (const name of ["x".repeat(41), "Okta\nClick here"])
      expect(() => loadConfig({ ...OIDC, AUTH_OIDC_NAME: name })).toThrow(/^AUTH_OIDC_NAME must be/);
  });

  it("counts as open sign-up: each workspace gets the operator quotas", () => {
    expect(tenantLimits(OIDC).operatorQuotas).toHaveLength(4);
    expect(tenantLimits({ AUTH_OIDC_ISSUER: OIDC.AUTH_OIDC_ISSUER }).operatorQuotas).toEqual([]);
  });
});

describe("the company sign-in provider", () => {
  const settings = loadConfig(OIDC).auth.oidc ?? expect.unreachable();

  it("discovers from the issuer and checks PKCE, state and nonce on an ID token", () => {
    const provider = companySignInProvider({ ...settings, issuer: "https://login.corp.test/" });
    expect(provider).toMatchObject({
      id: "oidc",
      type: "oauth",
      wellKnown: "https://login.corp.test/.well-known/openid-configuration",
      idToken: true,
      checks: ["pkce", "state", "nonce"],
      authorization: { params: { scope: "openid email profile" } },
    });
    expect(provider.profile({ sub: "42", email: "ada@corp.test", preferred_username: "ada" }, {})).toEqual({
      id: "42",
      name: "ada",
      email: "ada@corp.test",
      image: null,
    });
  });

  it.each([
    [{ iss: OIDC.AUTH_OIDC_ISSUER, email: "ada@corp.test", email_verified: true }, null],
    // Some providers (Microsoft Entra ID) leave the claim out: the operator chose to trust their addresses.
    [{ iss: `${OIDC.AUTH_OIDC_ISSUER}/`, email: "ada@corp.test" }, null],
    [{ iss: "https://evil.test", email: "ada@corp.test", email_verified: true }, "OidcIssuer"],
    [{ email: "ada@corp.test" }, "OidcIssuer"],
    [{ iss: OIDC.AUTH_OIDC_ISSUER }, "OidcNoEmail"],
    [{ iss: OIDC.AUTH_OIDC_ISSUER, email: "ada@corp.test", email_verified: false }, "OidcEmailUnverified"],
    [{ iss: OIDC.AUTH_OIDC_ISSUER, email: "ada@corp.test", email_verified: "false" }, "OidcEmailUnverified"],
  ] as const)("claims %o: refusal %s", (claims, refusal) => {
    expect(oidcRefusal(settings, { sub: "1", ...claims })).toBe(refusal);
  });
});

describe("sign-in page errors", () => {
  it("explains known codes and never repeats an unknown one", () => {
    expect(signInErrorMessage(undefined)).toBeUndefined();
    expect(signInErrorMessage("OidcEmailUnverified")).toMatch(/has not verified your email address/);
    expect(signInErrorMessage("OAuthCallback")).toMatch(/could not be verified/);
    expect(signInErrorMessage("<script>alert(1)</script>")).toBe("Signing in failed. Try again.");
    expect(signInErrorMessage("toString")).toBe("Signing in failed. Try again.");
  });
});

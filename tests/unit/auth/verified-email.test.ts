import { describe, expect, it } from "vitest";
import { signInErrorMessage } from "@/lib/auth/sign-in-error";
import { emailRefusal, withPrimaryEmail } from "@/lib/auth/verified-email";

const GITHUB_PROFILE = { id: 1, login: "ada", email: "public@example.com" };

describe("GitHub's address: the primary one from /user/emails, marked verified or not", () => {
  it("replaces the profile's public address with the verified primary one", () => {
    const profile = withPrimaryEmail(GITHUB_PROFILE, [
      { email: "public@example.com", primary: false, verified: true },
      { email: "ada@example.com", primary: true, verified: true },
    ]);
    expect(profile).toEqual({ ...GITHUB_PROFILE, email: "ada@example.com", email_verified: true });
    expect(emailRefusal("github", profile)).toBeNull();
  });

  it("refuses an unverified primary address, even with another verified one", () => {
    const profile = withPrimaryEmail(GITHUB_PROFILE, [
      { email: "public@example.com", primary: false, verified: true },
      { email: "claimed@example.com", primary: true, verified: false },
    ]);
    expect(profile).toMatchObject({ email: "claimed@example.com", email_verified: false });
    expect(emailRefusal("github", profile)).toBe("EmailUnverified");
  });

  it("refuses an account with no address listed, and the profile's own address unchecked", () => {
    expect(emailRefusal("github", withPrimaryEmail(GITHUB_PROFILE, []))).toBe("EmailUnverified");
    expect(emailRefusal("github", GITHUB_PROFILE)).toBe("EmailUnverified");
  });
});

describe("Google's address: its ID token's email_verified", () => {
  it.each([
    [{ email: "ada@gmail.com", email_verified: true }, null],
    [{ email: "ada@gmail.com", email_verified: "true" }, null],
    [{ email: "ada@gmail.com", email_verified: false }, "EmailUnverified"],
    [{ email: "ada@gmail.com" }, "EmailUnverified"],
    [{ email_verified: true }, "EmailUnverified"],
    [undefined, "EmailUnverified"],
  ])("%j → %s", (profile, refusal) => {
    expect(emailRefusal("google", profile)).toBe(refusal);
  });
});

describe("other sign-ins", () => {
  it("are left to their own checks (company sign-in, the development sign-in)", () => {
    expect(emailRefusal("oidc", { email: "ada@corp.test" })).toBeNull();
    expect(emailRefusal("dev", undefined)).toBeNull();
  });

  it("explain the refusal on the sign-in page", () => {
    expect(signInErrorMessage("EmailUnverified")).toMatch(/has not verified your account's email address/);
  });
});

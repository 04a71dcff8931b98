import { describe, expect, it } from "vitest";
import { redactText, redactValue } from "@/lib/observability/redact";
import { generateToken } from "@/lib/services/tokens/token-format";

describe("redaction", () => {
  it("blanks our tokens, bearer credentials, keys in query strings and known secrets", () => {
    const token = generateToken();
    const text = [
      `token ${token} used`,
      "Authorization: Bearer tvly-abcdefghijklmnop",
      "GET https://app.scrapingbee.com/api/v1?api_key=SB123456789&url=x",
      "https://api.diffbot.com/v3/article?token=DIFF98765&url=y",
      "kagi said Bot kagi-secret-value-123",
      "raw provider-key-0000111122 echoed",
    ].join("\n");
    const out = redactText(text, ["provider-key-0000111122", "short"]);
    for (const secret of [
      token,
      "tvly-abcdefghijklmnop",
      "SB123456789",
      "DIFF98765",
      "kagi-secret-value-123",
      "provider-key-0000111122",
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain("url=x");
    expect(out).toContain("[redacted]");
  });

  it("blanks secret path segments of our URLs and sign-in codes, and keeps what surrounds them", () => {
    expect(redactText("POST /api/mcp/t/not-even-a-token?x=1")).toBe("POST /api/mcp/t/[redacted]?x=1");
    expect(redactText("https://smx.example/invite/Yp3_-q0abcdefghijklmnopqrstuvwx/accept")).toBe(
      "https://smx.example/invite/[redacted]/accept",
    );
    expect(redactText("/api/auth/callback/github?code=4f2a9c1d7e&state=s1")).toBe(
      "/api/auth/callback/github?code=[redacted]&state=s1",
    );
    expect(redactText("/oauth/authorize?code_challenge=abc123&state=s1")).toBe(
      "/oauth/authorize?code_challenge=abc123&state=s1",
    );
  });

  it("blanks dotted attribute names that end in a secret's name", () => {
    expect(
      redactValue({ "http.request.header.authorization": "x", "http.route": "/api/mcp/t/[token]" }),
    ).toEqual({ "http.request.header.authorization": "[redacted]", "http.route": "/api/mcp/t/[token]" });
  });

  it("does not redact secrets too short to be distinctive", () => {
    expect(redactText("the short answer", ["short"])).toBe("the short answer");
  });

  it("blanks secret-named fields at any depth and keeps the rest", () => {
    const input = {
      query: "rust async",
      headers: { Authorization: "Bearer x", cookie: "sid=1", accept: "json" },
      nested: [{ api_key: "k-123456789", apiKey: "k-2", token: "t", note: "ok" }],
      no_cache: true,
      max_results: 5,
    };
    expect(redactValue(input)).toEqual({
      query: "rust async",
      headers: { Authorization: "[redacted]", cookie: "[redacted]", accept: "json" },
      nested: [{ api_key: "[redacted]", apiKey: "[redacted]", token: "[redacted]", note: "ok" }],
      no_cache: true,
      max_results: 5,
    });
  });
});

/**
 * The platform's path helpers for provider URLs built from user input (security issue #14): user path
 * segments are decoded one by one and re-encoded one by one, never decoded whole and joined, and a
 * provider URL whose path the URL parser would change is refused before any request.
 */
import { describe, expect, it } from "vitest";
import { buildUrl, encodePath, InvalidPath, userPathSegments } from "@/lib/http/provider-client";

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPath);
    return (error as InvalidPath).message;
  }
  throw new Error("expected InvalidPath");
};

describe("userPathSegments", () => {
  it("decodes each segment on its own: spaces, unicode, an encoded slash stays inside its segment", () => {
    expect(userPathSegments("/x/y/blob/main/My%20Notes/caf%C3%A9/a%2Fb.md/")).toEqual([
      "x",
      "y",
      "blob",
      "main",
      "My Notes",
      "café",
      "a/b.md",
      "",
    ]);
  });

  it.each([
    ["/x/y/blob/main/..%2F..%2F..%2F..%2Frepos%2Fo%2Fr%2Freadme", '".."'],
    ["/x/y/blob/main/%2e%2e%2fuser", '".."'],
    ["/x/y/blob/main/docs%2F.%2Fa.md", '"."'],
    ["/x/y/blob/main/..%5C..%5Cuser", '".."'],
  ])("refuses %s: a dot segment behind an encoded separator", (path, segment) => {
    expect(refusal(() => userPathSegments(path))).toBe(`its path has a ${segment} segment`);
  });

  it.each(["/a/b/blob/main/%E0%A4%A", "/a/%ZZ", "/a/%"])("refuses %s: a malformed escape", (path) => {
    expect(refusal(() => userPathSegments(path))).toBe("its path has a malformed percent escape");
  });
});

describe("encodePath", () => {
  it("encodes every segment whole, slashes included", () => {
    expect(encodePath(["repos", "x", "y", "contents", "My Notes", "café", "a/b.md"])).toBe(
      "/repos/x/y/contents/My%20Notes/caf%C3%A9/a%2Fb.md",
    );
    expect(encodePath(["repos", "x", "y", "contents", "../../user"])).toBe(
      "/repos/x/y/contents/..%2F..%2Fuser",
    );
  });

  it.each([
    [["a", ""], "its path has an empty segment"],
    [["a", "."], 'its path has a "." segment'],
    [["a", ".."], 'its path has a ".." segment'],
    [["a", "\uD800"], "its path is not well-formed Unicode"],
  ])("refuses %j", (segments, message) => {
    expect(refusal(() => encodePath(segments))).toBe(message);
  });
});

describe("buildUrl", () => {
  it("keeps a base path and an encoded path as built", () => {
    expect(buildUrl("http://127.0.0.1:9/github/", encodePath(["repos", "x", "y", "contents", "a b"]))).toBe(
      "http://127.0.0.1:9/github/repos/x/y/contents/a%20b",
    );
  });

  it.each([
    ["/repos/x/y/contents/../../../user", "/repos/user"],
    ["/repos/x/y/contents/%2e%2e/%2E%2E/readme", "/repos/x/readme"],
    ["/repos/x/y/contents/a?b", "/repos/x/y/contents/a"],
    ["/repos/x/y/contents/a#b", "/repos/x/y/contents/a"],
    ["/repos/x/y/contents/a\\..\\..\\..", "/repos/x/"],
  ])("refuses %s, which the URL parser would send as %s", (path, sent) => {
    expect(refusal(() => buildUrl("https://api.github.com", path))).toBe(
      `the provider path ${path} would be sent as ${sent}`,
    );
  });
});

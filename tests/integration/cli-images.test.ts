/**
 * `npm run smx -- tool image_search` and `tool similar` as the operator (no --tenant, no database): the
 * commands the tool table gives every tool, against the fake provider server's image and find-similar wires.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_WIRES, imageWireId } from "@/tests/fakes/image-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { fakeProviderEnv } from "@/tests/support/provider-env";

const run = promisify(execFile);

describe("npm run smx -- tool image_search / similar", () => {
  let fake: FakeProviders;
  let env: NodeJS.ProcessEnv;

  async function smx(...args: string[]) {
    try {
      const { stdout } = await run("node_modules/.bin/tsx", ["scripts/smx.ts", ...args], { env });
      return { code: 0, stdout, stderr: "" };
    } catch (error) {
      return error as { code: number; stdout: string; stderr: string };
    }
  }

  beforeAll(async () => {
    fake = await startFakeProviders(IMAGE_WIRES);
    env = {
      ...process.env,
      DATABASE_URL: "",
      ...fakeProviderEnv(fake.url),
      SEARXNG_URL: fake.baseUrlFor(imageWireId("searxng")),
      EXA_BASE_URL: fake.baseUrlFor("similar-exa"),
      EXA_API_KEY: "operator-exa-key",
    };
  });
  afterAll(async () => fake?.close());

  it("searches images with the operator's SearXNG, flags from the input schema, as JSON and as text", async () => {
    const json = await smx(
      "tool",
      "image_search",
      "--query",
      "lighthouse",
      "--safesearch",
      "moderate",
      "--json",
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      query: "lighthouse",
      results: expect.arrayContaining([
        expect.objectContaining({ image_url: "https://images.example.com/photo-1.jpg" }),
      ]),
    });
    expect(fake.requests(imageWireId("searxng"))[0]?.query).toMatchObject({
      categories: "images",
      safesearch: "1",
    });
    const text = await smx("tool", "image_search", "--query", "lighthouse");
    expect(text.stdout).toContain('Images for "lighthouse": 3');
  }, 60_000);

  it("finds similar pages with the operator's Exa key and says so", async () => {
    const { code, stdout } = await smx("tool", "similar", "--url", "https://blog.example.com/post");
    expect(code).toBe(0);
    expect(stdout).toContain("Pages like https://blog.example.com/post, found by Exa: 3");
  }, 60_000);
});

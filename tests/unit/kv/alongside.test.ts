/**
 * Commands sent alongside another caller's pipeline: one round trip for all, the pipeline's own replies
 * first, then each batch its own share, in the order given.
 */
import { expect, it } from "vitest";
import { execAlongside, readsAlongside } from "@/lib/kv/alongside";
import { createMemoryKv } from "@/lib/kv/memory";

it("hands the pipeline its own replies and each batch alongside its share, in order", async () => {
  const kv = createMemoryKv();
  await kv.set("a", "1");
  await kv.set("c", "3");
  const counter = {
    queue: (pipeline: ReturnType<typeof kv.pipeline>) => pipeline.incr("n").incr("n"),
    replies: 2,
  };
  const { own, alongside } = await execAlongside(kv.pipeline().get("a").set("b", "2"), [
    readsAlongside(["c", "missing"]),
    readsAlongside([]),
    counter,
  ]);
  expect(own).toEqual(["1", true]);
  expect(alongside).toEqual([["3", null], [], [1, 2]]);
  expect(await kv.get("b")).toBe("2");
  await kv.close();
});

it("runs the pipeline alone when nothing rides along", async () => {
  const kv = createMemoryKv();
  expect(await execAlongside(kv.pipeline().get("x"), [])).toEqual({ own: [null], alongside: [] });
  await kv.close();
});

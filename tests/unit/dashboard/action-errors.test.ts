import { describe, expect, it } from "vitest";
import { toActionError } from "@/lib/dashboard/action-errors";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return toActionError(error);
  }
  throw new Error("nothing was refused");
};

describe("toActionError", () => {
  it("tells a signed-in user about roles when a scope is missing", () => {
    const member = { scopes: ["search"] } as unknown as TenantContext;
    expect(refusal(() => assertScope(member, "admin"))).toEqual({
      status: "error",
      message: "Only workspace owners and admins can do this.",
    });
  });

  it("shows any other refusal with the verb's own reason", () => {
    const ownerOnly = new ServiceError("forbidden", "only an owner can make someone an owner");
    expect(
      refusal(() => {
        throw ownerOnly;
      }),
    ).toEqual({ status: "error", message: "only an owner can make someone an owner" });
  });
});

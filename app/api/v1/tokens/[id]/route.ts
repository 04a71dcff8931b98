import type { z } from "zod";
import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { setTokenProfile, type setTokenProfileInput } from "@/lib/services/tokens/set-token-profile";
import { profileRules } from "@/lib/tools/profile";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * PATCH /api/v1/tokens/<id> — `{profile}`: the tools the token lists and may call and their default
   * arguments, or null for none; every instance applies it within the request.
   */
  PATCH: withToken<{ id: string }>(
    async (request, { ctx, params }) => {
      // Untrusted as it arrives: the verb validates it.
      const { profile } = await readJsonBody<Omit<z.input<typeof setTokenProfileInput>, "id">>(request);
      return Response.json(
        await setTokenProfile({ ctx, input: { id: params.id, profile }, profiles: profileRules }),
      );
    },
    { route: "/api/v1/tokens/[id]", scope: "admin" },
  ),
});

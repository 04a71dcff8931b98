import { getServerSession } from "next-auth";
import { authOptions } from "./options";

/** The signed-in user of the current request, or null. */
export async function currentSession() {
  const session = await getServerSession(authOptions());
  return session?.tenantId ? session : null;
}

import type { DefaultSession } from "next-auth";

type Role = "owner" | "admin" | "member";

declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string };
    tenantId: string;
    role: Role;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    tenantId?: string;
    role?: Role;
  }
}

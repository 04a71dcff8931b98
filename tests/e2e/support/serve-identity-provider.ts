/**
 * The e2e server's OpenID Connect provider as its own process (`tsx tests/e2e/support/serve-identity-provider.ts`),
 * on the client site's address over HTTPS; its client's redirect URI is the e2e server's callback.
 */
import { startIdentityProvider } from "@/tests/support/identity-provider";
import { CLIENT_SITE_ADDRESS, clientSiteFiles } from "./client-site";
import { IDENTITY_PROVIDER_PORT, OIDC_CLIENT } from "./company-sign-in";
import { BASE_URL } from "./e2e-server";

const provider = await startIdentityProvider({
  address: CLIENT_SITE_ADDRESS,
  port: IDENTITY_PROVIDER_PORT,
  tls: clientSiteFiles().tls(),
  client: { ...OIDC_CLIENT, redirectUri: `${BASE_URL}/api/auth/callback/oidc` },
});
console.log(`identity provider at ${provider.issuer}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => void provider.close().then(() => process.exit(0)));

/**
 * The official MCP SDK client's OAuth side (its OAuthClientProvider) for tests: everything kept in memory,
 * and the browser step left to the test, which reads `authorizationUrl` and hands the code back through
 * the transport's finishAuth.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

export class MemoryOAuthClientProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = "";
  private discovery: OAuthDiscoveryState | undefined;
  /** Where the SDK last sent the user to sign in. */
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    /** A Client ID Metadata Document's URL: the client id, when the server takes those. */
    readonly clientMetadataUrl?: string,
  ) {}

  state(): string {
    return "sdk-state";
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  /** Kept with the verifier, so the v2 client can check the callback came from the server it sent the user to. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/** Client metadata of a native app on this machine: a loopback redirect URI, a public client. */
export const loopbackClientMetadata = (
  redirectUrl: string,
  name = "SDK test client",
): OAuthClientMetadata => ({
  client_name: name,
  redirect_uris: [redirectUrl],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
});

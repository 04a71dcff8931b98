/**
 * A real OpenID Connect provider for the tests: panva's oidc-provider (the certified reference
 * implementation) over HTTPS, with its own login and consent pages (devInteractions: any login, any
 * password). The login names the account: `ada@corp.test` signs in as that address, verified; a login
 * starting with `unverified` says `email_verified: false`; one without `@` shares no email.
 *
 * `set()` changes how it behaves from the next request on, for the refusals: another client secret than
 * the one the app holds, another issuer in its discovery document and ID tokens, or no discovery document.
 * Over HTTP, for a test driving another process: `PUT /_control` with a mode as JSON, `DELETE /_control` to
 * reset.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

export interface IdentityProviderOptions {
  address: string;
  /** 0: any free port. */
  port: number;
  tls: { key: string; cert: string };
  client: { id: string; secret: string; redirectUri: string };
}

export interface IdentityProviderMode {
  /** The client secret the provider expects (the app's, unless a test changes it). */
  clientSecret: string;
  /** A path appended to the issuer it names, as if another provider answered. */
  issuerPath: string;
  /** false: discovery answers 404, as an issuer URL that names nothing would. */
  discovery: boolean;
}

export interface IdentityProvider {
  /** What AUTH_OIDC_ISSUER is set to. */
  issuer: string;
  set(mode: Partial<IdentityProviderMode>): void;
  /** Back to the options' client secret, the true issuer and discovery. */
  reset(): void;
  close(): Promise<void>;
}

const CONTROL_PATH = "/_control";

/** PUT: a partial mode as JSON; DELETE: null, back to the start. */
async function controlRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  apply: (change: Partial<IdentityProviderMode> | null) => void,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (req.method === "DELETE") apply(null);
  else if (req.method === "PUT")
    apply(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Partial<IdentityProviderMode>);
  else return void res.writeHead(405).end();
  res.writeHead(204).end();
}

type Claims = { sub: string; email?: string; email_verified?: boolean; name?: string };

function accountClaims(login: string): Claims {
  if (!login.includes("@")) return { sub: login, name: login };
  return {
    sub: login,
    email: login,
    email_verified: !login.startsWith("unverified"),
    name: login.split("@")[0],
  };
}

/** One RSA key the provider signs ID tokens with (RS256), as a private JWK set. */
function signingKeys() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test", alg: "RS256", use: "sig" }] };
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const jwks = signingKeys();
  const cookieKeys = [randomBytes(32).toString("base64url")];
  const initial = (): IdentityProviderMode => ({
    clientSecret: options.client.secret,
    issuerPath: "",
    discovery: true,
  });
  let mode = initial();

  const server = https.createServer(options.tls);
  await new Promise<void>((resolve) => server.listen(options.port, options.address, resolve));
  const issuer = `https://${options.address}:${(server.address() as AddressInfo).port}`;

  const build = () => {
    const configuration: Configuration = {
      clients: [
        {
          client_id: options.client.id,
          client_secret: mode.clientSecret,
          redirect_uris: [options.client.redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      jwks: jwks as Configuration["jwks"],
      cookies: { keys: cookieKeys },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      // The scopes' claims go in the ID token, which is what next-auth reads (idToken: true).
      conformIdTokenClaims: false,
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => accountClaims(sub) }),
    };
    const provider = new Provider(`${issuer}${mode.issuerPath}`, configuration);
    return provider.callback();
  };
  let handle = build();
  const set = (change: Partial<IdentityProviderMode>) => {
    mode = { ...mode, ...change };
    handle = build();
  };
  server.on("request", (req, res) => {
    if (req.url === CONTROL_PATH) {
      void controlRequest(req, res, (change) => set(change ?? initial()));
      return;
    }
    if (!mode.discovery && req.url?.startsWith("/.well-known/")) {
      res.writeHead(404).end();
      return;
    }
    void handle(req, res);
  });

  return {
    issuer,
    set,
    reset: () => set(initial()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

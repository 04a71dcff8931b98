import { redirect } from "next/navigation";
import { SignInButtons, type SignInOption } from "@/components/sign-in-buttons";
import { SignInSetup } from "@/components/sign-in-setup";
import { SiteHeader } from "@/components/site-header";
import { OIDC_PROVIDER_ID } from "@/lib/auth/company-sign-in";
import { landingPath } from "@/lib/auth/landing-path";
import { DEV_PROVIDER_ID, SITE_URL } from "@/lib/auth/options";
import { currentSession } from "@/lib/auth/session";
import { signInErrorMessage } from "@/lib/auth/sign-in-error";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

function signInOptions(): SignInOption[] {
  const { auth } = config();
  const options: SignInOption[] = [];
  if (auth.github) options.push({ id: "github", label: "Continue with GitHub" });
  if (auth.google) options.push({ id: "google", label: "Continue with Google" });
  if (auth.oidc) options.push({ id: OIDC_PROVIDER_ID, label: `Continue with ${auth.oidc.name}` });
  if (auth.devLogin) options.push({ id: DEV_PROVIDER_ID, label: "Development sign-in" });
  return options;
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const target = landingPath(params.callbackUrl, SITE_URL);
  if (await currentSession()) redirect(target);
  const options = signInOptions();
  const { production, auth, allowedHosts } = config();
  const error = signInErrorMessage(typeof params.error === "string" ? params.error : undefined);
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-lg px-6 py-16">
        <h1 className="text-2xl font-semibold">Sign in to Searchmux</h1>
        {error ? (
          <p
            className="mt-6 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
            role="alert"
            data-testid="sign-in-error"
          >
            {error}
          </p>
        ) : null}
        <div className="mt-8">
          {options.length > 0 ? (
            <SignInButtons options={options} callbackUrl={target} />
          ) : (
            <SignInSetup
              siteUrl={SITE_URL}
              hosts={allowedHosts.map(({ name, port }) => (port ? `${name}:${port}` : name))}
              production={production}
              devLoginNeedsProductionOverride={auth.devLoginNeedsProductionOverride}
            />
          )}
        </div>
      </main>
    </>
  );
}

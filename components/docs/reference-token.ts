/**
 * The token the API reference fills into its examples and test requests: only one the user picked (a token
 * they just created, "Try it in the API reference"), kept in this tab's sessionStorage and nowhere else
 * (gone when the tab closes; never sent to the server by the page, never in localStorage or a cookie).
 * A token typed into the reference's own Authentication field stays in the page's memory.
 */
const KEY = "searchmux.api-reference.token";

export function storeReferenceToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function storedReferenceToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function forgetReferenceToken(): void {
  sessionStorage.removeItem(KEY);
}

/** How long what the authorization server issues lives, and the limits on what anyone may register. */

/** Access tokens are short-lived; clients refresh them. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A refresh token is exchanged within this or the grant must be approved again. */
export const REFRESH_TOKEN_SECONDS = 30 * 86_400;
/** The time from consent to the code's exchange (OAuth 2.1 recommends at most 10 minutes). */
export const CODE_SECONDS = 300;

/**
 * A client nobody authorized within 15 minutes is forgotten (a registered one, or one whose metadata document
 * the consent page fetched): the member's sign-in and approval fit in that; the approval keeps it, */
export const NEW_CLIENT_SECONDS = 900;
/** and one whose last authorization or refresh is older than this (its refresh tokens are long dead). */
export const IDLE_CLIENT_SECONDS = REFRESH_TOKEN_SECONDS + 86_400;
/** Registrations per client address per hour. */
export const REGISTRATIONS_PER_ADDRESS_HOUR = 20;
/** Registrations per hour in all on a local server, the one place registering without a client address works. */
export const LOCAL_REGISTRATIONS_PER_HOUR = 500;
/** Clients of each kind kept at once that were never authorized; beyond it new ones wait. */
export const MAX_UNUSED_CLIENTS = 10_000;

export const MAX_REDIRECT_URIS = 10;
export const MAX_URI_LENGTH = 2_000;

/** A Client ID Metadata Document: its size, the time to fetch it, and how long it is kept. */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;
export const CLIENT_DOCUMENT_MIN_CACHE_SECONDS = 60;
export const CLIENT_DOCUMENT_DEFAULT_CACHE_SECONDS = 3_600;
export const CLIENT_DOCUMENT_MAX_CACHE_SECONDS = 86_400;
/** Client metadata documents fetched per hour for one signed-in member (only the consent page fetches them). */
export const CLIENT_DOCUMENT_FETCHES_PER_MEMBER_HOUR = 30;

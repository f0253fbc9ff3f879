/**
 * Business constants and limits (docs/product.md#constants). Every other module imports them from here
 * so that a number or name is written once.
 */
export const DEFAULT_PRODUCT_NAME = "Argus";

export const SESSION_COOKIE_NAME = "auth_token";
export const SESSION_COOKIE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/** A token older than this is exchanged for a new one (sliding session). */
export const SESSION_REFRESH_AFTER_SECONDS = 55 * 60;
/** No refresh carries a session past this age, counted from the sign-in that began it. */
export const SESSION_ABSOLUTE_LIFETIME_SECONDS = 30 * 24 * 60 * 60;
/** Tolerated clock difference between gateway and backend machines when checking a token's exp. */
export const CLOCK_TOLERANCE_SECONDS = 5;
/** Shortest SESSION_SECRET accepted for HS256 session tokens. */
export const SESSION_SECRET_MIN_BYTES = 32;
export const STORED_USER_KEY = "auth_user";
export const TOKEN_SYNC_MAX_AGE_SECONDS = 5 * 60;

export const TOAST_DURATION_MS = 5000;
export const LOGIN_CALLBACK_TIMEOUT_MS = 30_000;
export const LOGIN_CALLBACK_SUCCESS_REDIRECT_MS = 1000;
export const LOGIN_SUCCESS_REDIRECT_MS = 500;
export const CODE_HOST_LOGIN_REDIRECT_MS = 1000;
export const VERIFICATION_REDIRECT_MS = 3000;
export const RESET_REDIRECT_MS = 2000;
export const INSTALLATION_COUNTDOWN_SECONDS = 5;
export const PAYMENT_POLL_INTERVAL_MS = 2000;
export const PAYMENT_POLL_TIMEOUT_MS = 30_000;
export const PAYMENT_FAILURE_REDIRECT_MS = 3000;
export const SIGNUP_HOME_REDIRECT_MS = 1000;
/** A GitHub sign-in without an account shows its message, then goes to /signup after this. */
export const GITHUB_NO_ACCOUNT_REDIRECT_MS = 2000;

export const LOGIN_PASSWORD_MIN = 6;
export const STRONG_PASSWORD_MIN = 8;
export const STRONG_PASSWORD_MAX = 128;
export const CONTRIBUTOR_USERNAME_MIN = 3;
export const NAME_MIN = 2;

/**
 * The role of the person whose first sign-in created the organisation (backend/auth/accounts.ts).
 * Only the owner changes what the organisation sends its code to: its AI model.
 */
export const ORG_OWNER_ROLE = "owner";

/**
 * Upper bounds of the strings the contract accepts (shared/contract/). Every string a request
 * carries, and every claim of a session token, has one, so no client can make the backend store or
 * sign an unbounded value.
 */
/** RFC 5321: a forward path is at most 256 octets, so an address at most 254. */
export const EMAIL_MAX = 254;
/** A person's display name; longer names from the identity provider are cut to this. */
export const NAME_MAX = 100;
/** Room for a name plus "'s organization", the name a first sign-in gives the organisation. */
export const ORG_NAME_MAX = 128;
/** Identifiers: Firebase uids (at most 128), our UUIDs, roles, integration names. */
export const ID_MAX = 128;
/** A Firebase ID token is about 1 KB; custom claims can add up to 1000 bytes. */
export const ID_TOKEN_MAX = 8192;
export const URL_MAX = 2048;
/** The user and organisation name edit dialogs stop at this many characters. */
export const EDITABLE_NAME_MAX = 50;
/** "How did you hear about us?" and other short free-text answers. */
export const SHORT_TEXT_MAX = 200;
/** A one-time code from the identity service (e-mail verification, password reset) or an OAuth code. */
export const ONE_TIME_CODE_MAX = 2048;
/** An OAuth access token handed over by the identity service's popup. */
export const OAUTH_TOKEN_MAX = 1024;
export const CONTRIBUTOR_PAGE_SIZES = [10, 20, 30] as const;
export const DEFAULT_CONTRIBUTOR_PAGE_SIZE = 10;

export const PRO_PLAN_MIN_SEATS = 1;
/** The most seats one subscription holds; a larger request is not a seat count. */
export const SEATS_MAX = 10_000;
export const TRIAL_ENDING_SOON_DAYS = 3;
/** A new organisation's Pro trial: its length by default (configurable) and its seats. */
export const DEFAULT_TRIAL_DAYS = 14;
export const TRIAL_SEATS = 5;
export const DEFAULT_CURRENCY = "USD";
export const TOOLTIP_MAX_WIDTH_PX = 320;
export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 600;
export const REQUEST_EVENT_KEY = "request";
export const DEFAULT_PATH = "/home";
export const GITHUB_SIGN_IN_SCOPES = ["user:email", "read:user"] as const;

export const PLAN_VALUES = { free: "free", proTrial: "pro_trial", paid: "paid_m" } as const;

/** The app's pages that apply the codes of account e-mails (docs/product.md#email-verified, #reset-password). */
export const ACCOUNT_EMAIL_PAGES = {
  verifyEmail: "/email-verified",
  resetPassword: "/reset-password",
} as const;
/** The local outbox keeps this many of the latest e-mails (GET /auth/outbox). */
export const OUTBOX_LIMIT = 200;

/**
 * Event streams (GET /api/reviews/events) one session, and one organisation, may hold open at once
 * by default (EVENT_STREAMS_PER_SESSION, EVENT_STREAMS_PER_ORG): several tabs per person stay well
 * under them; beyond them a stream answers 429 (docs/decisions/032-event-stream-limits.md).
 */
export const EVENT_STREAMS_PER_SESSION_DEFAULT = 10;
export const EVENT_STREAMS_PER_ORG_DEFAULT = 100;
/** The Retry-After of a refused event stream, in seconds. */
export const EVENT_STREAM_RETRY_AFTER_SECONDS = 30;

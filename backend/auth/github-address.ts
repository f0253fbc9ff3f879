/**
 * Whether GitHub vouches for the address of a GitHub identity. Firebase does not (its
 * email_verified is usually false for GitHub), so with the OAuth access token from the sign-in popup
 * the backend asks GitHub: the token must belong to the same GitHub account as the Firebase
 * identity, and the address must be one GitHub lists as verified. Without a token only Firebase's
 * word is left (the emulator's fake GitHub provider says verified).
 */
import { type GitHubClient, GitHubError } from "../code-hosts/github/api-client.ts";
import { HttpError } from "../http/errors.ts";
import type { VerifiedIdentity } from "../identity/firebase.ts";
import { notAuthorized } from "./sign-in.ts";

/** A GitHub failure as an answer: 401 for a refused token or code, 502/503 when GitHub fails. */
export function gitHubFailure(error: unknown): unknown {
  if (!(error instanceof GitHubError)) return error;
  if (error.reason === "unauthorized") return notAuthorized("GitHub refused the access token.");
  if (error.reason === "bad-code") {
    return notAuthorized("The GitHub sign-in code is invalid or has expired. Please try again.");
  }
  if (error.reason === "unavailable") {
    return new HttpError(503, { error: "GitHub could not be reached. Please try again." });
  }
  return new HttpError(502, { error: "GitHub answered with an error. Please try again." });
}

export async function gitHubVouchesFor(
  github: GitHubClient,
  verified: VerifiedIdentity,
  email: string,
  accessToken: string | undefined,
): Promise<boolean> {
  if (accessToken === undefined) return verified.emailVerified;
  try {
    const user = await github.user(accessToken);
    if (verified.providerUserId === undefined || String(user.id) !== verified.providerUserId) {
      throw notAuthorized("The GitHub access token belongs to another GitHub account.");
    }
    const emails = await github.emails(accessToken);
    return emails.some((entry) => entry.verified && entry.email.toLowerCase() === email);
  } catch (error) {
    throw gitHubFailure(error);
  }
}

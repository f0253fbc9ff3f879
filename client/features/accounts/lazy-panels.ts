/**
 * The panels that replace a sign-in or sign-up form once the backend has answered: not part of the
 * pages' first load (docs/decisions/006-page-weight.md). Pages preload them when a submit starts.
 */
import { lazyPart } from "../../lib/lazy-part";

export const verificationRequiredPart = lazyPart(() => import("./verification-required"));
export const checkYourEmailPart = lazyPart(() => import("./check-your-email"));

/** Strings that tell a library apart inside the minified client build. */

/** The Firebase Auth SDK: its REST endpoint. */
export const FIREBASE_SDK_MARK = "identitytoolkit.googleapis.com";

/** zod: the name of its error class. */
export const ZOD_MARK = "ZodError";

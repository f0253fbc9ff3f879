/** Strings that tell a library apart inside the minified client build. */

/** The Firebase Auth SDK: its REST endpoint. */
export const FIREBASE_SDK_MARK = "identitytoolkit.googleapis.com";

/** zod (the servers' own validator, never the browser's): the name of its error class. */
export const ZOD_MARK = "ZodError";

/** valibot (the contract's schemas): the vendor name every schema gives in its Standard Schema props. */
export const VALIBOT_MARK = "valibot";

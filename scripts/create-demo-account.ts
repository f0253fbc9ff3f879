/**
 * Creates, or resets, the verified demo account in the running Firebase Auth emulator:
 * `npm run demo-account`. Reads .env like `npm start`, so it reaches the emulator that command runs
 * (FIREBASE_AUTH_EMULATOR_PORT; without it FIREBASE_AUTH_EMULATOR_HOST, default 127.0.0.1:9099).
 * Only ever talks to an emulator, never to a real Firebase project.
 */
import { initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { DEMO_PROJECT_ID } from "../shared/node/env.ts";
import { loadEnvFile } from "../shared/node/env-file.ts";
import { configuredEmulatorPort } from "./lib/firebase-emulator.ts";

const DEMO = { email: "demo@argus.local", password: "Demo-Password-1!", displayName: "Demo User" };

loadEnvFile();
// `npm start` runs the emulator on FIREBASE_AUTH_EMULATOR_PORT whatever the host variable says.
process.env.FIREBASE_AUTH_EMULATOR_HOST =
  process.env.FIREBASE_AUTH_EMULATOR_PORT || !process.env.FIREBASE_AUTH_EMULATOR_HOST
    ? `127.0.0.1:${configuredEmulatorPort()}`
    : process.env.FIREBASE_AUTH_EMULATOR_HOST;
const projectId = process.env.FIREBASE_PROJECT_ID || DEMO_PROJECT_ID;

async function main(): Promise<void> {
  const auth = getAuth(initializeApp({ projectId }));
  const profile = {
    password: DEMO.password,
    displayName: DEMO.displayName,
    emailVerified: true,
    disabled: false,
  };
  // Updating in place keeps the uid, so the backend account stays linked to it.
  const existing = await auth.getUserByEmail(DEMO.email).catch((error: { code?: string }) => {
    if (error.code === "auth/user-not-found") return undefined;
    throw error;
  });
  if (existing) await auth.updateUser(existing.uid, profile);
  else await auth.createUser({ email: DEMO.email, ...profile });

  console.log(`Demo account ${existing ? "reset" : "created"} in the Firebase Auth emulator at ${process.env.FIREBASE_AUTH_EMULATOR_HOST} (project ${projectId}):
  email:    ${DEMO.email}
  password: ${DEMO.password}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Could not create the demo account (is the emulator running?): ${message}`);
    process.exit(1);
  },
);

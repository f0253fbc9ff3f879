import type { ReactNode } from "react";

/** The centred, narrow frame of every sign-in, sign-up and account-link page. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-canvas px-4 py-10 sm:justify-center sm:py-16">
      <main className="w-full max-w-[400px]">{children}</main>
    </div>
  );
}

import { createServer } from "node:net";

/** Binds and releases a loopback port: the one asked for (fails when taken), or a free one for 0. */
export function claimPort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : port));
    });
  });
}

/**
 * Runs `start` again, up to `attempts` times in all, while it fails because a port it was given
 * was taken: a port found free is only free when checked, and a child process that binds it
 * seconds later (the Firebase CLI) can find it taken by someone else's outgoing connection.
 */
export async function retryOnPortRace<T>(
  start: () => Promise<T>,
  isPortTaken: (error: unknown) => boolean,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !isPortTaken(error)) throw error;
    }
  }
}

import { createServer } from "node:net";

/** Ports this process has handed out: the kernel gives a released port out again, often soon. */
const handedOut = new Set<number>();

function bindOnce(port: number): Promise<ReturnType<typeof createServer>> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

const portOf = (server: ReturnType<typeof createServer>) => {
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
};

/**
 * Binds and releases a loopback port: the one asked for (fails when taken), or a free one for 0
 * that this process has not handed out before. A stack claims its ports before its services bind
 * them, so a port given twice (the backend's, then the Firebase emulator hub's) fails the start.
 */
export async function claimPort(port = 0): Promise<number> {
  let latest = await bindOnce(port);
  const held = [latest];
  try {
    // While the repeats stay bound, the kernel cannot give them again.
    while (port === 0 && handedOut.has(portOf(latest))) {
      latest = await bindOnce(0);
      held.push(latest);
    }
    const claimed = portOf(latest);
    handedOut.add(claimed);
    return claimed;
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** A port the user chose (or the default one) that something else already listens on. */
export class PortTakenError extends Error {
  readonly service: string;
  readonly port: number;

  constructor(service: string, port: number) {
    super(`${service}: port ${port} is already in use`);
    this.service = service;
    this.port = port;
  }
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

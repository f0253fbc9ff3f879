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

/**
 * An upstream whose kept-alive sockets close just as the next request arrives on them: it answers
 * the first request of each connection (kept alive) and drops the connection, unanswered, at the
 * second; the race of a server's idle timeout against a client reusing the socket, made certain.
 */
import { once } from "node:events";
import net, { type AddressInfo } from "node:net";

export async function staleSocketUpstream() {
  const requests: { method: string; path: string; connection: number }[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    let received = "";
    let answered = 0;
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [method = "", path = ""] = received.slice(0, received.indexOf("\r\n")).split(" ");
      received = "";
      requests.push({ method, path, connection });
      if (answered++ > 0) return void socket.destroy();
      socket.write(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}",
      );
    });
    socket.on("error", () => {});
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

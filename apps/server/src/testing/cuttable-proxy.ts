import { connect, createServer, type Server, type Socket } from "node:net";
import { freePort } from "./test-app.ts";

/**
 * A TCP hop between the app and a service (PostgreSQL, an S3 store) that can be cut (every connection
 * dropped, none accepted), stalled (every connection dropped, new ones accepted and never answered: a
 * service that hangs) and restored.
 */
export async function cuttableProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  };
  const listen = (onConnection: (client: Socket) => void) =>
    new Promise<void>((resolve) => {
      server = createServer(onConnection);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const cut = async () => {
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    server = null;
  };
  const open = () =>
    listen((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) track(socket);
      client.pipe(upstream).pipe(client);
    });
  await open();
  return {
    port,
    cut,
    async stall() {
      await cut();
      await listen(track);
    },
    async restore() {
      await cut();
      await open();
    },
  };
}

/** The baseline: a bare Fastify route answering a small JSON body, in a process of its own like the app. */
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ data: { id: "bare", ok: true } }));
const address = await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
console.log(`listening ${address}`);

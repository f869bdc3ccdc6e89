// The ceiling for the API figures: a bare Fastify hello-world (no logger, no plugins), the same
// Fastify as the app's, run in a process of its own. Usage: PORT=3001 node --import tsx hello-world.ts
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));

const port = Number(process.env.PORT ?? 3001);
await app.listen({ port, host: "127.0.0.1" });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));

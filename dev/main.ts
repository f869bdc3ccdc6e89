// The development entry (npm start, npm run dev:server, the browser tests): the server with the
// local stand-ins for outside services and the development mailbox (docs/architecture.md, Entries).
import "../src/server/tick-shape.ts";
import { startServer } from "../src/server/start.ts";
import { registerDevelopmentTools } from "./development.ts";

startServer({ developmentTools: registerDevelopmentTools });

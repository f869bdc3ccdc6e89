// The production entry (Dockerfile, README "Deploying"): the server and nothing from development,
// which lives in dev/ and starts from dev/main.ts (docs/architecture.md, Entries).
import "./tick-shape.ts";
import { startServer } from "./start.ts";

startServer();

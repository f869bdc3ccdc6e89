import { runLighthouse } from "./frontend.ts";
import { signedInLearner } from "./learners.ts";
const base = "http://localhost:3390";
const cookie = await signedInLearner(base, "lh");
const paths = (process.env.LH_PATHS ?? "/program/beginner").split(",");
const { results } = await runLighthouse(base, paths.map((path) => ({ path, cookie, label: path })) as never, { chromiumPath: "/usr/bin/chromium", runsPerPage: Number(process.env.LH_RUNS ?? 3), log: console.log });
for (const r of results) console.log(JSON.stringify({ path: (r as any).path ?? "", scores: r.scores, metrics: r.metrics }));

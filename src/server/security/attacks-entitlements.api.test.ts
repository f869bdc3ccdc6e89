// Attack suite (issue 7): a learner trying to give themselves what only a payment or an
// administrator gives (docs/product.md, "Roles": users never write their own plan, status, dates,
// paid or waitlist flags or provider), to reach another learner's progress, or to read the quiz
// answers. Already covered elsewhere, and not repeated here: update-user with a name plus plan and
// flags (accounts.api.test.ts), registration with plan/provider/verified (accounts.api.test.ts), a
// userId in the query or body of the learning routes (learning.api.test.ts, "one learner's progress
// is theirs alone"), quiz answers in the learner responses of an administrator
// (learning.api.test.ts) and in the public programs list (catalog.api.test.ts).
import { and, asc, eq, ne } from "drizzle-orm";
import type { HTTPMethods, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACKS, type Track } from "../../shared/plans.ts";
import { quizAttempts, userProgress, users } from "../db/schema.ts";
import { SEED_PROGRAMS } from "../db/seed-content.ts";
import {
  createTestUsers,
  ipAllocator,
  linkInLastMail,
  PASSWORD,
  register,
  registrationForm,
  verifyEmail,
  type TestUser,
} from "../testing/accounts.ts";
import { seededModuleIds } from "../testing/catalog.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import {
  allKeys,
  authLibraryRoutes,
  concretePath,
  expectNothingChanged,
  expectRefused,
  routeCollector,
  type AppRoute,
} from "../testing/attack-kit.ts";

const nextIp = ipAllocator(61);

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every entitlement a learner would like to write, under every name a client might try. */
const ENTITLEMENTS = {
  subscriptionPlan: "admin",
  subscriptionStatus: "active",
  subscriptionStart: "2020-01-01T00:00:00.000Z",
  subscriptionEnd: "2099-12-31T00:00:00.000Z",
  intermediatePaid: true,
  advancedPaid: true,
  waitlistPaid: true,
  waitlistAdmitted: true,
  provider: "google",
  emailVerified: true,
  lastActiveAt: "2099-12-31T00:00:00.000Z",
  createdAt: "2000-01-01T00:00:00.000Z",
  plan: "admin",
  isAdmin: true,
  role: "admin",
  tracks: [...TRACKS],
  accessLevel: "Admin",
};
const SNAKE_CASE = Object.fromEntries(
  Object.entries(ENTITLEMENTS).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
);
const EVERY_NAME = { ...ENTITLEMENTS, ...SNAKE_CASE, user: ENTITLEMENTS, data: ENTITLEMENTS, fields: ENTITLEMENTS };

/** The same as a query string (arrays and objects flattened the way a form would). */
const EVERY_NAME_QUERY = new URLSearchParams(
  Object.entries({ ...ENTITLEMENTS, ...SNAKE_CASE }).map(([key, value]) => [key, String(value)]),
).toString();

const USERS = {
  learner: {},
  intermediate: { plan: "intermediate" },
  advanced: { plan: "advanced" },
  expired: { plan: "advanced", status: "active", subscriptionEnd: new Date(Date.now() - DAY_MS) },
  sessionFields: {},
  changer: {},
  imageWriter: {},
  progressOwner: { plan: "advanced" },
  progressThief: { plan: "advanced" },
  quizFree: {},
  quizIntermediate: { plan: "intermediate" },
  quizAdvanced: { plan: "advanced" },
} as const;
type UserKey = keyof typeof USERS;

/** What a user is entitled to, for every user: the columns only payments and administrators write. */
async function entitlementsOfEveryone(t: TestApp) {
  return t.database.db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      image: users.image,
      provider: users.provider,
      subscriptionPlan: users.subscriptionPlan,
      subscriptionStatus: users.subscriptionStatus,
      subscriptionStart: users.subscriptionStart,
      subscriptionEnd: users.subscriptionEnd,
      intermediatePaid: users.intermediatePaid,
      advancedPaid: users.advancedPaid,
      waitlistPaid: users.waitlistPaid,
      waitlistAdmitted: users.waitlistAdmitted,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(asc(users.id));
}

function seedOf(track: Track) {
  const program = SEED_PROGRAMS.find((p) => p.id === track);
  if (!program) throw new Error(`no seeded program ${track}`);
  return program;
}

describe("attacks on entitlements, progress and quiz answers", () => {
  const collected = routeCollector();
  let t: TestApp;
  let user: (key: UserKey) => TestUser;
  let moduleId: (track: Track, index: number) => string;

  beforeAll(async () => {
    // Listening, so that the checkouts the sweep below starts reach the Paystack simulator.
    t = await createTestApp({ onRoute: collected.onRoute, listen: true });
    user = await createTestUsers(t, nextIp, USERS);
    moduleId = await seededModuleIds(t);
  });
  afterAll(() => t.close());

  function as(who: TestUser | null, options: InjectOptions) {
    return t.app.inject({
      remoteAddress: nextIp(),
      ...options,
      headers: { origin: t.services.env.appUrl, ...options.headers, ...(who ? { cookie: who.cookie } : {}) },
    });
  }

  /** What a new account holds, whatever its registration asked for. */
  const NEW_ACCOUNT = {
    emailVerified: false,
    subscriptionPlan: "legacyFree",
    subscriptionStatus: "inactive",
    subscriptionStart: null,
    subscriptionEnd: null,
    intermediatePaid: false,
    advancedPaid: false,
    waitlistPaid: false,
    waitlistAdmitted: false,
  };

  /** Nobody's entitlements change; an account the attack registered has the defaults. */
  async function expectEntitlementsUnchanged(attack: () => Promise<void>) {
    const before = await entitlementsOfEveryone(t);
    const known = new Set(before.map((row) => row.id));
    await attack();
    const after = await entitlementsOfEveryone(t);
    expect(after.filter((row) => known.has(row.id))).toEqual(before);
    for (const created of after.filter((row) => !known.has(row.id))) {
      expect(created).toMatchObject({ ...NEW_ACCOUNT, image: null });
    }
  }

  describe("writing one's own plan, dates, flags or provider", () => {
    it("POST /api/auth/update-user with every entitlement field (no name): nothing changes", async () => {
      const learner = user("learner");
      await expectNothingChanged(t, async () => {
        for (const payload of [ENTITLEMENTS, SNAKE_CASE, EVERY_NAME, { user: ENTITLEMENTS }]) {
          const response = await as(learner, { method: "POST", url: "/api/auth/update-user", payload });
          expect(response.statusCode, response.body).toBeLessThan(500);
        }
      });
      expect((await as(learner, { method: "GET", url: "/api/me" })).json().user).toMatchObject({
        plan: "legacyFree",
        isAdmin: false,
        provider: "email",
        subscriptionEnd: null,
      });
    });

    it("POST /api/auth/update-user may change the name, and nothing else (not even the unused image)", async () => {
      const writer = user("imageWriter");
      const before = await entitlementsOfEveryone(t);
      const response = await as(writer, {
        method: "POST",
        url: "/api/auth/update-user",
        payload: { name: "Renamed", image: "https://evil.test/track.png", ...ENTITLEMENTS },
      });
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(await entitlementsOfEveryone(t)).toEqual(before);
      const [row] = await t.database.db.select({ name: users.name }).from(users).where(eq(users.id, writer.id));
      expect(row?.name).toBe("Renamed");
    });

    it("update-user spelled another way (case, slashes, encoding) reaches no other handler: nothing changes", async () => {
      const writer = user("imageWriter");
      const spellings = [
        "/api/auth/update-user/",
        "/api/auth//update-user",
        "/api/auth/Update-User",
        "/api/auth/update-user?x=1",
        "/api/auth/%75pdate-user",
        "/api/auth/./update-user",
        "/api/auth/x/../update-user",
        "/api/auth/update-user%2F",
        "/api/auth/update-user;",
      ];
      for (const url of spellings) {
        const response = await as(writer, { method: "POST", url, payload: { image: "https://evil.test/again.png", ...ENTITLEMENTS } });
        expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(500);
      }
      const [row] = await t.database.db.select({ image: users.image }).from(users).where(eq(users.id, writer.id));
      expect(row?.image).toBeNull();
    });

    it("POST /api/auth/update-session with entitlement fields: refused or ignored, nothing changes", async () => {
      await expectNothingChanged(t, async () => {
        const response = await as(user("sessionFields"), { method: "POST", url: "/api/auth/update-session", payload: EVERY_NAME });
        expect(response.statusCode, response.body).toBeLessThan(500);
      });
    });

    it("change-email and change-password cannot be used to rewrite the account: nothing changes", async () => {
      const changer = user("changer");
      await expectNothingChanged(t, async () => {
        const attempts: [string, object][] = [
          // Someone else's address (a free one only mails a link: account-settings.api.test.ts).
          ["/api/auth/change-email", { newEmail: user("sessionFields").email, ...ENTITLEMENTS }],
          ["/api/auth/change-password", { currentPassword: "not the password", newPassword: "a new password", ...ENTITLEMENTS }],
        ];
        for (const [url, payload] of attempts) {
          const response = await as(changer, { method: "POST", url, payload });
          expectRefused(response, undefined, url);
        }
      });
    });

    it("registration with every entitlement field: the defaults; the auth library's own sign-up is not served", async () => {
      const viaForm = "form-registrant@example.com";
      const viaLibrary = "library-registrant@example.com";
      const form = await register(t, registrationForm(viaForm, { ...EVERY_NAME, id: "chosen-id-1", name: "x" }), nextIp());
      expect(form.statusCode, form.body).toBe(201);
      const library = await as(null, {
        method: "POST",
        url: "/api/auth/sign-up/email",
        payload: { name: "Library", email: viaLibrary, password: PASSWORD, ...EVERY_NAME, id: "chosen-id-2", image: "https://evil.test/x.png" },
      });
      expectRefused(library, 404, "the library's sign-up");
      expect(await t.database.db.select().from(users).where(eq(users.email, viaLibrary))).toEqual([]);

      const [row] = await t.database.db.select().from(users).where(eq(users.email, viaForm));
      expect(row).toMatchObject({ ...NEW_ACCOUNT, provider: "email" });
      expect(row?.id).not.toMatch(/^chosen-id/);
      expect(row?.createdAt.getTime()).toBeGreaterThan(Date.now() - DAY_MS);
      // Verifying the email is the only way to a verified account, and it grants nothing else.
      const token = (await linkInLastMail(t, viaForm, "/verify-email")).searchParams.get("oobCode") ?? "";
      expect((await verifyEmail(t, token, nextIp())).statusCode).toBe(200);
      const [verified] = await t.database.db.select().from(users).where(eq(users.email, viaForm));
      expect(verified).toMatchObject({ emailVerified: true, subscriptionPlan: "legacyFree", provider: "email" });
    });

    it("no /api/me-style route takes a write: POST, PUT, PATCH and DELETE answer 404 and change nothing", async () => {
      const learner = user("learner");
      const paths = ["/api/me", "/api/users/me", `/api/users/${learner.id}`, "/api/user", "/api/profile", "/api/account", "/api/subscription", "/api/progress"];
      await expectNothingChanged(t, async () => {
        for (const url of paths) {
          for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
            const response = await as(learner, { method, url, payload: EVERY_NAME });
            expectRefused(response, 404, `${method} ${url}`);
          }
        }
      });
    });

    it("every other route, with every entitlement field in the body and the query: no entitlement changes", async () => {
      const learner = user("learner");
      const appRoutes = collected.routes.filter(
        (r) => r.method !== "HEAD" && !r.url.startsWith("/api/admin") && !r.url.startsWith("/dev") && !r.url.includes("*"),
      );
      // Sessions end last, so the learner stays signed in for the rest.
      const ending = /sign-out|revoke|delete-user/;
      const library = authLibraryRoutes(t).sort((a, b) => Number(ending.test(a.url)) - Number(ending.test(b.url)));
      const routes: { method: HTTPMethods; url: string }[] = [...appRoutes, ...library];
      expect(appRoutes.map((r: AppRoute) => `${r.method} ${r.url}`)).toEqual(
        expect.arrayContaining(["GET /api/me", "POST /api/subscription-management", "POST /api/programs/:track/modules/:moduleId/watched"]),
      );

      /** A body each route accepts, so that the attack reaches the handler and not only the validation. */
      const validBodies: Record<string, object> = {
        "/api/subscription-management": { action: "check_eligibility", planId: "advanced" },
        "/api/programs/:track/quiz/answers": { questionIndex: 0, option: "A" },
        "/api/programs/:track/modules/:moduleId/position": { seconds: 30 },
        "/api/contact": { name: "Ama", email: "ama@example.com", message: "Hello" },
        "/api/accounts/register": registrationForm("blast@example.com"),
        "/api/accounts/forgot-password": { email: learner.email },
        "/api/verify-paystack": { reference: "LTF-ADVANCED-1", type: "waitlist" },
        "/api/waitlist/checkout": { plan: "advanced" },
        "/api/auth/update-user": { name: "Blasted" },
      };
      await expectEntitlementsUnchanged(async () => {
        for (const route of routes) {
          const url = `${concretePath(route.url, { track: "beginner", moduleId: moduleId("beginner", 0), id: "credential", token: "x" })}?${EVERY_NAME_QUERY}`;
          const hasBody = route.method !== "GET";
          const payload = { ...EVERY_NAME, ...validBodies[route.url] };
          const response = await as(learner, { method: route.method, url, ...(hasBody ? { payload } : {}) });
          expect(response.statusCode, `${route.method} ${route.url}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
        }
      });
    });

    it("a paid plan whose month ended counts as free everywhere, whatever the client says", async () => {
      const expired = user("expired");
      await expectNothingChanged(t, async () => {
        const me = await as(expired, { method: "GET", url: `/api/me?${EVERY_NAME_QUERY}` });
        expect(me.json().user).toMatchObject({ plan: "legacyFree", tracks: ["beginner"] });
        for (const track of ["intermediate", "advanced"] as const) {
          const response = await as(expired, { method: "GET", url: `/api/programs/${track}?${EVERY_NAME_QUERY}`, headers: { "x-plan": "advanced" } });
          expectRefused(response, 403, track);
        }
      });
    });
  });

  describe("another learner's progress", () => {
    let owner: TestUser;
    let thief: TestUser;
    const ownerWatched = () => [moduleId("advanced", 0), moduleId("advanced", 1)];

    beforeAll(async () => {
      owner = user("progressOwner");
      thief = user("progressThief");
      for (const id of ownerWatched()) {
        expect((await as(owner, { method: "POST", url: `/api/programs/advanced/modules/${id}/watched` })).statusCode).toBe(200);
      }
      const answer = await as(owner, { method: "POST", url: "/api/programs/advanced/quiz/answers", payload: { questionIndex: 0, option: "B" } });
      expect(answer.statusCode, answer.body).toBe(200);
    });

    async function rowsOfEveryoneBut(userId: string) {
      const progress = await t.database.db.select().from(userProgress).where(ne(userProgress.userId, userId)).orderBy(asc(userProgress.userId), asc(userProgress.programId));
      const attempts = await t.database.db.select().from(quizAttempts).where(ne(quizAttempts.userId, userId)).orderBy(asc(quizAttempts.id));
      return { progress, attempts };
    }

    /** The owner's id wherever a client could put one. */
    const impersonation = () => ({
      query: new URLSearchParams({ userId: owner.id, user: owner.id, uid: owner.id, id: owner.id, user_id: owner.id, email: owner.email }).toString(),
      headers: { "x-user-id": owner.id, "x-forwarded-user": owner.email, "x-client-ip": "127.0.0.1", "x-original-url": `/api/admin/users/${owner.id}/progress` },
      body: { userId: owner.id, user: { id: owner.id }, uid: owner.id, user_id: owner.id, email: owner.email, session: { userId: owner.id } },
    });

    it("reading: ids in queries, headers and paths show the caller's own progress only, and change nothing", async () => {
      const { query, headers } = impersonation();
      await expectNothingChanged(t, async () => {
        const reads = [
          `/api/progress?${query}`,
          `/api/programs/advanced?${query}`,
          `/api/programs/advanced?userId[]=${owner.id}&userId[]=${thief.id}`,
        ];
        for (const url of reads) {
          const response = await as(thief, { method: "GET", url, headers });
          expect(response.statusCode, url).toBe(200);
          const body = response.json();
          if (url.startsWith("/api/progress")) {
            const nothingYet = expect.objectContaining({ watched: 0, percent: 0, quizPassed: false, lastStudiedAt: null });
            expect(body).toEqual({
              programs: { beginner: nothingYet, intermediate: nothingYet, advanced: nothingYet },
              next: expect.objectContaining({ kind: "start" }),
            });
          }
          else {
            expect(body.watched).toEqual([]);
            expect(body.quiz.answers).toEqual([]);
            expect(body.quiz.unlocked).toBe(false);
          }
        }
        for (const url of [`/api/users/${owner.id}/progress`, `/api/progress/${owner.id}`, `/api/programs/advanced/progress/${owner.id}`]) {
          expectRefused(await as(thief, { method: "GET", url, headers }), 404, url);
        }
        // The administrators' view of a learner's progress stays theirs.
        expectRefused(await as(thief, { method: "GET", url: `/api/admin/users/${owner.id}/progress`, headers }), 403);
      });
    });

    it("writing: ids in queries, headers, bodies and paths only ever write the caller's own rows", async () => {
      const { query, headers, body } = impersonation();
      const before = await rowsOfEveryoneBut(thief.id);
      const writes: InjectOptions[] = [
        { method: "POST", url: `/api/programs/advanced/modules/${moduleId("advanced", 2)}/watched?${query}`, headers, payload: body },
        { method: "POST", url: `/api/programs/advanced/quiz/answers?${query}`, headers, payload: { questionIndex: 0, option: "A", ...body } },
        // Another user's id where a track or a module belongs: not a track, not a module of it.
        { method: "POST", url: `/api/programs/${owner.id}/modules/${moduleId("advanced", 0)}/watched`, headers },
        { method: "POST", url: `/api/programs/advanced/modules/${owner.id}/watched`, headers },
        { method: "POST", url: `/api/programs/${owner.id}/quiz/answers`, headers, payload: { questionIndex: 0, option: "A" } },
        { method: "PUT", url: `/api/admin/users/${owner.id}/progress`, headers, payload: { progress: { advanced: {} } } },
      ];
      for (const write of writes) {
        const response = await as(thief, write);
        expect(response.statusCode, `${write.method} ${write.url}: ${response.body}`).toBeLessThan(500);
      }
      expect(await rowsOfEveryoneBut(thief.id)).toEqual(before);
      const [ownerAdvanced] = await t.database.db
        .select({ data: userProgress.data })
        .from(userProgress)
        .where(and(eq(userProgress.userId, owner.id), eq(userProgress.programId, "advanced")));
      expect(ownerAdvanced?.data).toEqual(Object.fromEntries(ownerWatched().map((id) => [id, true])));
      // The thief's own row got the one video the thief marked; the quiz stayed locked for them.
      const thiefTrack = await as(thief, { method: "GET", url: "/api/programs/advanced" });
      expect(thiefTrack.json().watched).toEqual([moduleId("advanced", 2)]);
      expect(thiefTrack.json().quiz.answers).toEqual([]);
    });

    it("prototype tricks in the body are refused before they reach a handler, and change nothing", async () => {
      await expectNothingChanged(t, async () => {
        for (const payload of [
          `{"__proto__": {"userId": "${owner.id}"}}`,
          `{"constructor": {"prototype": {"userId": "${owner.id}"}}}`,
          `{"questionIndex": 0, "option": "A", "__proto__": {"id": "${owner.id}"}}`,
        ]) {
          const response = await as(thief, {
            method: "POST",
            url: "/api/programs/advanced/quiz/answers",
            headers: { "content-type": "application/json" },
            payload,
          });
          expectRefused(response, 400, payload);
        }
      });
    });
  });

  describe("quiz answers", () => {
    it.each(["quizFree", "quizIntermediate", "quizAdvanced"] as const)(
      "never reach %s: not in any learner-facing answer, success or refusal",
      async (key) => {
        const learner = user(key);
        const bodies: { what: string; body: unknown }[] = [];
        const record = async (what: string, options: InjectOptions) => {
          const response = await as(learner, options);
          expect(response.statusCode, what).toBeLessThan(500);
          bodies.push({ what, body: response.json() });
          return response;
        };
        const get = (url: string) => record(`GET ${url}`, { method: "GET", url });
        const post = (url: string, payload: object) => record(`POST ${url} ${JSON.stringify(payload)}`, { method: "POST", url, payload });

        for (const url of ["/api/programs", "/api/progress", "/api/me", "/api/site", "/api/prices", "/api/waitlist"]) await get(url);
        await post("/api/subscription-management", { action: "get_subscription" });
        await post("/api/subscription-management", { action: "check_eligibility", planId: "advanced" });
        for (const track of TRACKS) {
          const url = `/api/programs/${track}`;
          await get(url);
          await post(`${url}/quiz/answers`, { questionIndex: 0, option: "A" }); // locked, or not this plan's
          await post(`${url}/modules/${moduleId(track, 0)}/watched`, {});
          const detail = await get(url);
          if (detail.statusCode !== 200) continue;
          for (const question of detail.json().quiz.questions) {
            expect(Object.keys(question).sort()).toEqual(["explanation", "options", "question"]);
          }
          for (const [index, question] of seedOf(track).quiz.questions.entries()) {
            for (const option of question.options.map((_, i) => String.fromCharCode(65 + i))) {
              await post(`${url}/quiz/answers`, { questionIndex: index, option });
            }
          }
          await post(`${url}/quiz/answers`, { questionIndex: 999, option: "A" });
          await post(`${url}/quiz/answers`, { questionIndex: 0, option: "Z" });
          await post(`${url}/quiz/attempts`, {}); // passed, or too soon (docs/product.md, "Quiz attempts")
          await get(url);
        }
        await get("/api/programs/not-a-track");

        expect(bodies.length).toBeGreaterThan(15);
        for (const { what, body } of bodies) {
          const keys = allKeys(body);
          expect(keys, what).not.toContain("answer");
          expect(keys, what).not.toContain("correctAnswer");
          expect(keys, what).not.toContain("correctOption");
        }
      },
    );
  });
});

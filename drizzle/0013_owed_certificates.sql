-- Certificates owed (docs/product.md, "Completion and certificates"): learners who completed a
-- program before the academy issued certificates have none, and a completing write of theirs
-- would be the only thing to issue it. This queues, once per database, the job that issues every
-- certificate owed on each program (certificates.owed, src/server/features/learning/certificates.ts).
INSERT INTO "jobs" ("kind", "payload") SELECT 'certificates.owed', jsonb_build_object('track', "id") FROM "programs";

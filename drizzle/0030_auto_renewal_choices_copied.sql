-- Automatic renewal stays on for every learner who had chosen it, with a card that can be charged
-- again: copied to users after 0029's lock on "users" is let go. It writes only those learners'
-- rows (one per card payer who chose it), and can run twice.
UPDATE "users" SET "auto_renew" = true
  FROM "card_authorizations" c
  WHERE c."user_id" = "users"."id" AND c."auto_renew" AND c."reusable" AND NOT "users"."auto_renew";

-- The learner's choice of automatic renewal moves from card_authorizations to users, where every
-- reading of a plan sees it (docs/subscriptions.md, "Automatic renewal"), with the period end whose
-- renewal failed. Both are changes to the catalogue only; 0030 copies the choices. The old column
-- stays, unread: instances of the previous release still read it during the upgrade.
ALTER TABLE "users" ADD COLUMN "auto_renew" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "renewal_failed_for" timestamp with time zone;

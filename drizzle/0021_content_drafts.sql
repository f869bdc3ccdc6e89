-- What an administrator adds is a draft until published (docs/data.md, "Drafts"); everything there
-- is so far is published. A quiz question's draft mark is in the questions' JSON itself.
ALTER TABLE "modules" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;

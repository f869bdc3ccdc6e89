-- Lessons an admin opens to anyone signed in, so that a locked program shows what it teaches
-- (docs/product.md, "Previews").
ALTER TABLE "modules" ADD COLUMN "free_preview" boolean DEFAULT false NOT NULL;
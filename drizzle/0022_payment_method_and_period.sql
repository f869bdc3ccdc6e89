ALTER TABLE "payments" ADD COLUMN "method_channel" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method_brand" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method_number" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "period_end" timestamp with time zone;
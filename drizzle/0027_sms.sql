CREATE TABLE "sms_code_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"user_id" text,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"user_id" text,
	"kind" text NOT NULL,
	"to" text NOT NULL,
	"content" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"provider_message_id" text,
	"rate" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_messages_event_key_unique" UNIQUE("event_key")
);
--> statement-breakpoint
CREATE TABLE "sms_numbers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_tries_left" integer DEFAULT 0 NOT NULL,
	"reminders" boolean DEFAULT true NOT NULL,
	"receipts" boolean DEFAULT true NOT NULL,
	"cohorts" boolean DEFAULT true NOT NULL,
	"mentorship" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_code_requests" ADD CONSTRAINT "sms_code_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_numbers" ADD CONSTRAINT "sms_numbers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_code_requests_phone_idx" ON "sms_code_requests" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "sms_code_requests_user_idx" ON "sms_code_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_code_requests_ip_idx" ON "sms_code_requests" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "sms_messages_failing_idx" ON "sms_messages" USING btree ("created_at") WHERE "sms_messages"."status" = 'failing';--> statement-breakpoint
CREATE UNIQUE INDEX "sms_numbers_confirmed_phone_unique" ON "sms_numbers" USING btree ("phone") WHERE "sms_numbers"."confirmed_at" is not null;
CREATE TABLE "subscription_reminders" (
	"user_id" text NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_reminders_user_id_period_end_kind_pk" PRIMARY KEY("user_id","period_end","kind")
);
--> statement-breakpoint
ALTER TABLE "subscription_reminders" ADD CONSTRAINT "subscription_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
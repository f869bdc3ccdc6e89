CREATE TYPE "public"."renewal_charge_status" AS ENUM('claimed', 'charging', 'pending', 'success', 'failed', 'cancelled');--> statement-breakpoint
CREATE TABLE "card_authorizations" (
	"user_id" text PRIMARY KEY NOT NULL,
	"authorization_code" text NOT NULL,
	"email" text NOT NULL,
	"brand" text,
	"last4" text,
	"reusable" boolean NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renewal_charges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"attempt" integer NOT NULL,
	"plan" "paid_plan" NOT NULL,
	"reference" text NOT NULL,
	"status" "renewal_charge_status" DEFAULT 'claimed' NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_charges_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "card_authorizations" ADD CONSTRAINT "card_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_charges" ADD CONSTRAINT "renewal_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_charges_once_idx" ON "renewal_charges" USING btree ("user_id","period_end","attempt");--> statement-breakpoint
CREATE INDEX "renewal_charges_user_idx" ON "renewal_charges" USING btree ("user_id","created_at" desc);
CREATE TABLE "price_bars" (
	"data_set_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close" numeric NOT NULL,
	CONSTRAINT "price_bars_data_set_id_position_pk" PRIMARY KEY("data_set_id","position")
);
--> statement-breakpoint
CREATE TABLE "price_data_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"instrument" text NOT NULL,
	"pip_size" numeric NOT NULL,
	"timeframe" text NOT NULL,
	"source" text NOT NULL,
	"illustrative" boolean DEFAULT false NOT NULL,
	"bar_count" integer NOT NULL,
	"first_bar_at" timestamp with time zone NOT NULL,
	"last_bar_at" timestamp with time zone NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_data_sets_pip_positive" CHECK ("price_data_sets"."pip_size" > 0),
	CONSTRAINT "price_data_sets_bars" CHECK ("price_data_sets"."bar_count" between 1 and 20000)
);
--> statement-breakpoint
ALTER TABLE "price_bars" ADD CONSTRAINT "price_bars_data_set_id_price_data_sets_id_fk" FOREIGN KEY ("data_set_id") REFERENCES "public"."price_data_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_data_sets" ADD CONSTRAINT "price_data_sets_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
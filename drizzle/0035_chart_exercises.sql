CREATE TABLE "exercise_attempts" (
	"user_id" text NOT NULL,
	"module_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revealed" integer NOT NULL,
	"answer" jsonb,
	"passed" boolean,
	"scored_at" timestamp with time zone,
	CONSTRAINT "exercise_attempts_user_id_module_id_number_pk" PRIMARY KEY("user_id","module_id","number")
);
--> statement-breakpoint
ALTER TABLE "modules" DROP CONSTRAINT "modules_video_or_notes";--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "exercise" jsonb;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "exercise_data_set_id" uuid;--> statement-breakpoint
ALTER TABLE "exercise_attempts" ADD CONSTRAINT "exercise_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exercise_attempts" ADD CONSTRAINT "exercise_attempts_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_exercise_data_set_id_price_data_sets_id_fk" FOREIGN KEY ("exercise_data_set_id") REFERENCES "public"."price_data_sets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_exercise_data_set" CHECK (("modules"."exercise" is null) = ("modules"."exercise_data_set_id" is null));--> statement-breakpoint
ALTER TABLE "modules" ADD CONSTRAINT "modules_video_or_notes" CHECK ("modules"."youtube_id" is not null or "modules"."notes" <> '' or "modules"."exercise" is not null);
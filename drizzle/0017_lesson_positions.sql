CREATE TABLE "lesson_positions" (
	"user_id" text NOT NULL,
	"module_id" uuid NOT NULL,
	"seconds" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_positions_user_id_module_id_pk" PRIMARY KEY("user_id","module_id"),
	CONSTRAINT "lesson_positions_seconds_range" CHECK ("lesson_positions"."seconds" between 0 and 86400)
);
--> statement-breakpoint
ALTER TABLE "lesson_positions" ADD CONSTRAINT "lesson_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_positions" ADD CONSTRAINT "lesson_positions_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;
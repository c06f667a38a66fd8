CREATE TABLE "tracker_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"tracker" text NOT NULL,
	"subject" text NOT NULL,
	"subject_id" text NOT NULL,
	"external_id" text,
	"url" text,
	"created_by" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"is_closed" boolean DEFAULT false NOT NULL,
	"tracker_changed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_cards_subject" UNIQUE("tracker","subject","subject_id")
);
--> statement-breakpoint
ALTER TABLE "tracker_cards" ADD CONSTRAINT "tracker_cards_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_cards" ADD CONSTRAINT "tracker_cards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_cards_external_idx" ON "tracker_cards" USING btree ("tracker","external_id");--> statement-breakpoint
CREATE INDEX "tracker_cards_project_idx" ON "tracker_cards" USING btree ("project_id");
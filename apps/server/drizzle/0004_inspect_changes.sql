CREATE TABLE "inspect_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"page_id" text NOT NULL,
	"version_id" text NOT NULL,
	"change_type" text NOT NULL,
	"query_selector" text NOT NULL,
	"anchor" jsonb NOT NULL,
	"property" text NOT NULL,
	"value" text,
	"before" text,
	"after" jsonb,
	"image_dimensions" jsonb,
	"device_size" text NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"is_resolved" boolean DEFAULT false NOT NULL,
	"resolved_by" text,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"group_created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspect_changes" ADD CONSTRAINT "inspect_changes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspect_changes" ADD CONSTRAINT "inspect_changes_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspect_changes" ADD CONSTRAINT "inspect_changes_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inspect_changes_key" ON "inspect_changes" USING btree ("version_id","query_selector","property","device_size");--> statement-breakpoint
CREATE INDEX "inspect_changes_project_idx" ON "inspect_changes" USING btree ("project_id");
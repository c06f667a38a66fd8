CREATE TABLE "merge_gate_commits" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"integration_id" text NOT NULL,
	"repo" text NOT NULL,
	"sha" text NOT NULL,
	"pull_number" integer,
	"preview_url" text,
	"page_id" text,
	"posted_state" text,
	"posted_description" text,
	"posted_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merge_gate_commits_commit" UNIQUE("integration_id","repo","sha")
);
--> statement-breakpoint
ALTER TABLE "merge_gate_commits" ADD CONSTRAINT "merge_gate_commits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_gate_commits" ADD CONSTRAINT "merge_gate_commits_integration_id_project_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."project_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_gate_commits" ADD CONSTRAINT "merge_gate_commits_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merge_gate_commits_page_idx" ON "merge_gate_commits" USING btree ("page_id");
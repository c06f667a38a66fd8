-- Team projects (SPEC §4: a project may belong to a team; its members edit, toggled collaborators comment)
-- and custom domains (status, TXT token, last check). Earlier rows never wrote team_id; any stray value goes.
UPDATE "projects" SET "team_id" = NULL WHERE "team_id" IS NOT NULL AND "team_id" NOT IN (SELECT "id" FROM "teams");--> statement-breakpoint
CREATE TABLE "project_collaborators" (
	"project_id" text NOT NULL,
	"user_id" text NOT NULL,
	"added_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_collaborators_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "domain_status" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "domain_token" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "domain_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_collaborators" ADD CONSTRAINT "project_collaborators_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_collaborators" ADD CONSTRAINT "project_collaborators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_collaborators_by_user_idx" ON "project_collaborators" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "projects_team_idx" ON "projects" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_domain_idx" ON "teams" USING btree ("domain");
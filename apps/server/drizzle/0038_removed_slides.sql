CREATE TABLE "removed_slides" (
	"project_id" text NOT NULL,
	"slide_id" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "removed_slides_project_id_slide_id_pk" PRIMARY KEY("project_id","slide_id")
);
--> statement-breakpoint
ALTER TABLE "removed_slides" ADD CONSTRAINT "removed_slides_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
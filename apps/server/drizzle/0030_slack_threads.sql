CREATE TABLE "slack_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"comment_id" text NOT NULL,
	"is_root" boolean NOT NULL,
	"from_slack" boolean DEFAULT false NOT NULL,
	"channel_id" text NOT NULL,
	"text" text NOT NULL,
	"ts" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "slack_messages" ADD CONSTRAINT "slack_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slack_messages" ADD CONSTRAINT "slack_messages_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "slack_messages_root" ON "slack_messages" USING btree ("comment_id") WHERE "slack_messages"."is_root";--> statement-breakpoint
CREATE UNIQUE INDEX "slack_messages_ts" ON "slack_messages" USING btree ("channel_id","ts");--> statement-breakpoint
CREATE INDEX "slack_messages_project_idx" ON "slack_messages" USING btree ("project_id");
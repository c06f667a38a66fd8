CREATE TABLE "outgoing_mails" (
	"id" text PRIMARY KEY NOT NULL,
	"mail" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outgoing_mails_unsent_idx" ON "outgoing_mails" USING btree ("created_at") WHERE "outgoing_mails"."sent_at" is null;
CREATE TABLE "domain_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_cursors" (
	"consumer" text PRIMARY KEY NOT NULL,
	"tx" "xid8" DEFAULT '0'::xid8 NOT NULL,
	"event_id" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "domain_events_order_idx" ON "domain_events" USING btree ("tx","id");--> statement-breakpoint
CREATE INDEX "domain_events_created_idx" ON "domain_events" USING btree ("created_at");--> statement-breakpoint
-- Changes to a project's rows made by any code (or hand-written SQL) are announced to every process's
-- caches (0020) through the ledger now, like the app's own announcements: one event per project and
-- transaction, recorded with the change, so a process that was not listening reads it when it is back.
CREATE OR REPLACE FUNCTION redline_project_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  project text;
  announcement text;
BEGIN
  IF TG_TABLE_NAME = 'projects' THEN
    project := OLD.id;
  ELSIF TG_OP = 'DELETE' THEN
    project := OLD.project_id;
  ELSE
    project := NEW.project_id;
  END IF;
  announcement := 'db-' || txid_current()::text || '-' || project;
  IF NOT EXISTS (
    SELECT 1 FROM domain_events
     WHERE tx = pg_current_xact_id() AND type = 'realtime' AND payload->>'id' = announcement
  ) THEN
    INSERT INTO domain_events (type, payload)
      VALUES ('realtime', json_build_object('room', 'project:' || project, 'id', announcement)::jsonb);
    PERFORM pg_notify('redline_ledger', '1');
  END IF;
  RETURN NULL;
END $$;

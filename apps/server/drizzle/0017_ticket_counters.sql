-- The files a bug-tracking project holds (a report's screenshot and replay, attachments in ticket threads)
-- count towards its owner's storage on GET /api/me, whose figures are cached under the owner's
-- `counters_revision` (0013): these triggers move it on in the writing transaction, like the ones on comments.
CREATE FUNCTION redline_ticket_counters_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  project_ids text[];
BEGIN
  IF TG_TABLE_NAME = 'ticket_entries' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(project_id) INTO project_ids FROM tickets WHERE id = NEW.ticket_id;
    ELSIF TG_OP = 'DELETE' THEN
      -- Gone with its ticket: the ticket's own trigger counted it.
      SELECT array_agg(project_id) INTO project_ids FROM tickets WHERE id = OLD.ticket_id;
    ELSE
      SELECT array_agg(project_id) INTO project_ids FROM tickets WHERE id IN (OLD.ticket_id, NEW.ticket_id);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    -- BEFORE DELETE of a ticket: its entries are still there; only files count.
    IF OLD.screenshot_key IS NOT NULL OR OLD.replay_key IS NOT NULL
      OR EXISTS (SELECT 1 FROM ticket_entries WHERE ticket_id = OLD.id AND attachments <> '[]'::jsonb) THEN
      project_ids := ARRAY[OLD.project_id];
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    project_ids := ARRAY[NEW.project_id];
  ELSE
    project_ids := ARRAY[OLD.project_id, NEW.project_id];
  END IF;
  -- Rows removed with their project find no project here: the project's own trigger counted them.
  IF project_ids IS NOT NULL THEN
    UPDATE users SET counters_revision = counters_revision + 1
      WHERE id IN (SELECT owner_id FROM projects WHERE id = ANY(project_ids));
  END IF;
  IF TG_WHEN = 'BEFORE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_counted_insert AFTER INSERT ON tickets
  FOR EACH ROW WHEN (NEW.screenshot_key IS NOT NULL OR NEW.replay_key IS NOT NULL)
  EXECUTE FUNCTION redline_ticket_counters_changed();
--> statement-breakpoint
CREATE TRIGGER tickets_counted_delete BEFORE DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION redline_ticket_counters_changed();
--> statement-breakpoint
CREATE TRIGGER tickets_counted_update AFTER UPDATE OF screenshot_key, screenshot_bytes, replay_key, replay_bytes ON tickets
  FOR EACH ROW WHEN (OLD.screenshot_key IS DISTINCT FROM NEW.screenshot_key
    OR OLD.screenshot_bytes IS DISTINCT FROM NEW.screenshot_bytes
    OR OLD.replay_key IS DISTINCT FROM NEW.replay_key OR OLD.replay_bytes IS DISTINCT FROM NEW.replay_bytes)
  EXECUTE FUNCTION redline_ticket_counters_changed();
--> statement-breakpoint
CREATE TRIGGER ticket_entries_counted_insert AFTER INSERT ON ticket_entries
  FOR EACH ROW WHEN (NEW.attachments <> '[]'::jsonb) EXECUTE FUNCTION redline_ticket_counters_changed();
--> statement-breakpoint
CREATE TRIGGER ticket_entries_counted_delete AFTER DELETE ON ticket_entries
  FOR EACH ROW WHEN (OLD.attachments <> '[]'::jsonb) EXECUTE FUNCTION redline_ticket_counters_changed();
--> statement-breakpoint
CREATE TRIGGER ticket_entries_counted_update AFTER UPDATE OF attachments, ticket_id ON ticket_entries
  FOR EACH ROW WHEN (OLD.attachments IS DISTINCT FROM NEW.attachments OR OLD.ticket_id IS DISTINCT FROM NEW.ticket_id)
  EXECUTE FUNCTION redline_ticket_counters_changed();

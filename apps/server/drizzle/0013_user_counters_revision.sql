ALTER TABLE "users" ADD COLUMN "counters_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What GET /api/me counts for a user (modules/users/counters.ts: their projects, the pages and people of
-- those projects, the files those projects hold) is cached in each process under the user's
-- `counters_revision`. Every write that could change a count moves the owner's revision on, here, in the
-- writing transaction, whichever code made it (a route, a cascade, an operator's SQL). Updating the user
-- row also fires `users_changed` (0008), so every process's session cache drops the row on commit and the
-- next read sees the new revision.
CREATE FUNCTION redline_counters_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  project_ids text[];
BEGIN
  IF TG_TABLE_NAME = 'projects' THEN
    IF TG_OP = 'INSERT' THEN
      UPDATE users SET counters_revision = counters_revision + 1 WHERE id = NEW.owner_id;
    ELSIF TG_OP = 'DELETE' THEN
      UPDATE users SET counters_revision = counters_revision + 1 WHERE id = OLD.owner_id;
    ELSE
      UPDATE users SET counters_revision = counters_revision + 1 WHERE id IN (OLD.owner_id, NEW.owner_id);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'comment_entries' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(project_id) INTO project_ids FROM comments WHERE id = NEW.comment_id;
    ELSIF TG_OP = 'DELETE' THEN
      -- Gone with its comment: the comment's own trigger counted it.
      SELECT array_agg(project_id) INTO project_ids FROM comments WHERE id = OLD.comment_id;
    ELSE
      SELECT array_agg(project_id) INTO project_ids FROM comments WHERE id IN (OLD.comment_id, NEW.comment_id);
    END IF;
  ELSIF TG_TABLE_NAME = 'comments' THEN
    -- BEFORE DELETE: the comment's entries are still there; only files they hold count.
    IF EXISTS (SELECT 1 FROM comment_entries WHERE comment_id = OLD.id AND attachments <> '[]'::jsonb) THEN
      project_ids := ARRAY[OLD.project_id];
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    project_ids := ARRAY[NEW.project_id];
  ELSIF TG_OP = 'DELETE' THEN
    project_ids := ARRAY[OLD.project_id];
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
CREATE TRIGGER projects_counted AFTER INSERT OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER projects_counted_update AFTER UPDATE OF owner_id, type ON projects
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id OR OLD.type IS DISTINCT FROM NEW.type)
  EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER pages_counted AFTER INSERT OR DELETE ON pages
  FOR EACH ROW EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER pages_counted_update AFTER UPDATE OF project_id ON pages
  FOR EACH ROW WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id)
  EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER project_members_counted AFTER INSERT OR UPDATE OR DELETE ON project_members
  FOR EACH ROW EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER versions_counted_insert AFTER INSERT ON versions
  FOR EACH ROW WHEN (NEW.file_key IS NOT NULL) EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER versions_counted_delete AFTER DELETE ON versions
  FOR EACH ROW WHEN (OLD.file_key IS NOT NULL) EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER versions_counted_update AFTER UPDATE OF file_key, file_bytes, project_id ON versions
  FOR EACH ROW WHEN (OLD.file_key IS DISTINCT FROM NEW.file_key OR OLD.file_bytes IS DISTINCT FROM NEW.file_bytes
    OR (NEW.file_key IS NOT NULL AND OLD.project_id IS DISTINCT FROM NEW.project_id))
  EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER comment_entries_counted_insert AFTER INSERT ON comment_entries
  FOR EACH ROW WHEN (NEW.attachments <> '[]'::jsonb) EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER comment_entries_counted_delete AFTER DELETE ON comment_entries
  FOR EACH ROW WHEN (OLD.attachments <> '[]'::jsonb) EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER comment_entries_counted_update AFTER UPDATE OF attachments, comment_id ON comment_entries
  FOR EACH ROW WHEN (OLD.attachments IS DISTINCT FROM NEW.attachments
    OR (NEW.attachments <> '[]'::jsonb AND OLD.comment_id IS DISTINCT FROM NEW.comment_id))
  EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER comments_counted BEFORE DELETE ON comments
  FOR EACH ROW EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER inspect_changes_counted_insert AFTER INSERT ON inspect_changes
  FOR EACH ROW WHEN (NEW.change_type = 'image') EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER inspect_changes_counted_delete AFTER DELETE ON inspect_changes
  FOR EACH ROW WHEN (OLD.change_type = 'image') EXECUTE FUNCTION redline_counters_changed();
--> statement-breakpoint
CREATE TRIGGER inspect_changes_counted_update AFTER UPDATE OF change_type, value, project_id ON inspect_changes
  FOR EACH ROW WHEN ((OLD.change_type = 'image' OR NEW.change_type = 'image') AND (OLD.change_type IS DISTINCT FROM
    NEW.change_type OR OLD.value IS DISTINCT FROM NEW.value OR OLD.project_id IS DISTINCT FROM NEW.project_id))
  EXECUTE FUNCTION redline_counters_changed();

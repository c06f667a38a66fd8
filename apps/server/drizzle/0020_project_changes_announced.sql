-- Every process keeps what readers see of a project — their access, the project list, a project with its
-- pages and versions (lib/announced-cache.ts, ADR 0016) — until a realtime announcement names the project.
-- The app announces its own writes; here the database announces any change to these rows, whichever code
-- (or hand-written SQL) made it, like the auth tables do (0008). The envelope carries no event, so no socket
-- is told: caches forget, nothing else happens. (A project's own row announces on update and delete: a new
-- project is in nobody's cache yet.)
CREATE FUNCTION redline_project_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  project text;
BEGIN
  IF TG_TABLE_NAME = 'projects' THEN
    project := OLD.id;
  ELSIF TG_OP = 'DELETE' THEN
    project := OLD.project_id;
  ELSE
    project := NEW.project_id;
  END IF;
  PERFORM pg_notify(
    'redline_events',
    -- One id per transaction: Postgres folds identical notifications of a transaction into one (a project
    -- deleted with its pages and versions announces once).
    json_build_object('room', 'project:' || project, 'id', 'db-' || txid_current()::text)::text
  );
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER projects_announced AFTER UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION redline_project_changed();
--> statement-breakpoint
CREATE TRIGGER pages_announced AFTER INSERT OR UPDATE OR DELETE ON pages
  FOR EACH ROW EXECUTE FUNCTION redline_project_changed();
--> statement-breakpoint
CREATE TRIGGER versions_announced AFTER INSERT OR UPDATE OR DELETE ON versions
  FOR EACH ROW EXECUTE FUNCTION redline_project_changed();
--> statement-breakpoint
CREATE TRIGGER project_members_announced AFTER INSERT OR UPDATE OR DELETE ON project_members
  FOR EACH ROW EXECUTE FUNCTION redline_project_changed();
--> statement-breakpoint
CREATE TRIGGER project_collaborators_announced AFTER INSERT OR UPDATE OR DELETE ON project_collaborators
  FOR EACH ROW EXECUTE FUNCTION redline_project_changed();

-- Issue #29 item 1, ADR 0045: this release writes only `comments.target`; the legacy target columns,
-- which the previous release still reads, are derived from it here (legacyFromTarget, shared/targets.ts,
-- in SQL; the migration test holds the two to the same answer). The app's table no longer names them,
-- so the next release may drop them (db/contract/legacy-targets.sql) while this one is still running.
-- The previous release's own writes (legacy columns only) still get their target from
-- comments_target_from_legacy (0039): that trigger fires when `target` is left as it was, this one only
-- when a write names `target` and sets it.
CREATE FUNCTION redline_comments_legacy_from_target() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.target IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.target IS DISTINCT FROM OLD.target) THEN
    NEW.query_selector := CASE WHEN NEW.target ->> 'kind' = 'element'
      THEN coalesce(NEW.target ->> 'selector', NEW.target -> 'anchor' ->> 'querySelector') END;
    NEW.anchor := CASE WHEN NEW.target ->> 'kind' = 'element'
      THEN nullif(NEW.target -> 'anchor', 'null'::jsonb) END;
    NEW.dot_position := CASE
      WHEN NEW.target ? 'point' THEN jsonb_build_object(
        'x', NEW.target -> 'point' -> 'x', 'y', NEW.target -> 'point' -> 'y')
      WHEN jsonb_typeof(NEW.target -> 'region') = 'object' THEN jsonb_build_object(
        'x', NEW.target -> 'region' -> 'x', 'y', NEW.target -> 'region' -> 'y')
      ELSE '{"x":0.5,"y":0.5}'::jsonb
    END;
    NEW.pdf_page := CASE WHEN NEW.target ->> 'kind' = 'pdf-point' THEN (NEW.target ->> 'page')::integer END;
    NEW.object_id := CASE WHEN NEW.target ->> 'kind' = 'slide' THEN NEW.target ->> 'objectId' END;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER comments_legacy_from_target BEFORE INSERT OR UPDATE OF target ON comments
  FOR EACH ROW EXECUTE FUNCTION redline_comments_legacy_from_target();

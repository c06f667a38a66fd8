CREATE TABLE "stored_files" (
	"key" text NOT NULL,
	"bytes" bigint,
	"project_id" text,
	"holder_kind" text NOT NULL,
	"holder_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_holder_kind_holder_id_key_pk" PRIMARY KEY("holder_kind","holder_id","key")
);
--> statement-breakpoint
CREATE INDEX "stored_files_key_idx" ON "stored_files" USING btree ("key");--> statement-breakpoint
CREATE INDEX "stored_files_project_idx" ON "stored_files" USING btree ("project_id");--> statement-breakpoint
-- The one record of stored files (ADR 0022). `stored_file_sources` is the single definition of which row
-- holds which stored file; the triggers below keep `stored_files` equal to it, holder by holder, in the
-- transaction that writes or deletes the holder (a cascade included). Storage metering, the file collector
-- and the delete paths read `stored_files` only. A table that starts holding files gets a branch here and
-- a trigger (stored-files.test.ts fails until it has both).
CREATE VIEW stored_file_sources AS
  SELECT v.snapshot_key AS key, NULL::bigint AS bytes, v.project_id, 'version_snapshot'::text AS holder_kind, v.id AS holder_id
    FROM versions v WHERE v.snapshot_key IS NOT NULL
  UNION ALL SELECT v.screenshot_key, NULL, v.project_id, 'version_screenshot', v.id
    FROM versions v WHERE v.screenshot_key IS NOT NULL
  -- An upload counts once its size is known (migration 0010 measures the older ones).
  UNION ALL SELECT v.file_key, v.file_bytes, v.project_id, 'version_file', v.id
    FROM versions v WHERE v.file_key IS NOT NULL
  UNION ALL SELECT 'assets/' || a.sha256 || '.' || a.ext, NULL, v.project_id, 'version_asset', va.version_id
    FROM version_assets va JOIN assets a ON a.sha256 = va.sha256 JOIN versions v ON v.id = va.version_id
  UNION ALL SELECT p.thumbnail_key, NULL, p.project_id, 'page_thumbnail', p.id
    FROM pages p WHERE p.thumbnail_key IS NOT NULL
  UNION ALL SELECT p.thumbnail_key, NULL, p.id, 'project_thumbnail', p.id
    FROM projects p WHERE p.thumbnail_key IS NOT NULL
  UNION ALL SELECT substr(u.photo_url, 8), NULL, NULL, 'user_photo', u.id
    FROM users u WHERE u.photo_url LIKE '/files/%'
  UNION ALL SELECT substr(t.theme->>'logoURL', 8), NULL, NULL, 'team_logo', t.id
    FROM teams t WHERE t.theme->>'logoURL' LIKE '/files/%'
  UNION ALL SELECT substr(t.theme->>'iconURL', 8), NULL, NULL, 'team_icon', t.id
    FROM teams t WHERE t.theme->>'iconURL' LIKE '/files/%'
  -- Assets stored before their uses were recorded are always kept (0007).
  UNION ALL SELECT 'assets/' || a.sha256 || '.' || a.ext, NULL, NULL, 'asset_untracked', a.sha256
    FROM assets a WHERE NOT a.tracked
  -- An inspect change naming an asset holds it; an image change counts the asset's size.
  UNION ALL SELECT 'assets/' || a.sha256 || '.' || a.ext, CASE WHEN ic.change_type = 'image' THEN a.size END,
      ic.project_id, 'inspect_image', ic.id
    FROM inspect_changes ic JOIN assets a ON a.sha256 = substr(ic.value, 4, 64) AND ic.value = '/a/' || a.sha256 || '.' || a.ext
  UNION ALL SELECT f->>'path', coalesce((f->>'size')::bigint, 0), c.project_id, 'comment_attachment', e.id
    FROM comment_entries e JOIN comments c ON c.id = e.comment_id CROSS JOIN LATERAL jsonb_array_elements(e.attachments) AS f
    WHERE f->>'path' IS NOT NULL
  UNION ALL SELECT t.screenshot_key, coalesce(t.screenshot_bytes, 0), t.project_id, 'ticket_screenshot', t.id
    FROM tickets t WHERE t.screenshot_key IS NOT NULL
  UNION ALL SELECT t.replay_key, coalesce(t.replay_bytes, 0), t.project_id, 'ticket_replay', t.id
    FROM tickets t WHERE t.replay_key IS NOT NULL
  UNION ALL SELECT f->>'path', coalesce((f->>'size')::bigint, 0), t.project_id, 'ticket_attachment', e.id
    FROM ticket_entries e JOIN tickets t ON t.id = e.ticket_id CROSS JOIN LATERAL jsonb_array_elements(e.attachments) AS f
    WHERE f->>'path' IS NOT NULL
  UNION ALL SELECT f->>'path', coalesce((f->>'size')::bigint, 0), cv.project_id, 'conversation_attachment', m.id
    FROM conversation_messages m JOIN conversations cv ON cv.id = m.conversation_id
    CROSS JOIN LATERAL jsonb_array_elements(m.attachments) AS f
    WHERE f->>'path' IS NOT NULL
  UNION ALL SELECT f->>'key', NULL, NULL, 'support_screenshot', s.id
    FROM support_messages s CROSS JOIN LATERAL jsonb_array_elements(CASE
      WHEN jsonb_typeof(s.details->'screenshots') = 'array' THEN s.details->'screenshots' ELSE '[]'::jsonb END) AS f
    WHERE f->>'key' IS NOT NULL;
--> statement-breakpoint
-- Re-reads what the changed row (before and after the change) holds. The trigger's arguments are the
-- holder kinds the table's rows are; a holder is a row's id (an asset's sha256, a version's for its
-- version_assets rows).
CREATE FUNCTION redline_stored_files_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  holders text[] := ARRAY[]::text[];
  id_column text := CASE TG_TABLE_NAME WHEN 'version_assets' THEN 'version_id' WHEN 'assets' THEN 'sha256' ELSE 'id' END;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    holders := holders || (to_jsonb(OLD)->>id_column);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    holders := holders || (to_jsonb(NEW)->>id_column);
  END IF;
  DELETE FROM stored_files WHERE holder_kind = ANY (TG_ARGV) AND holder_id = ANY (holders);
  INSERT INTO stored_files (key, bytes, project_id, holder_kind, holder_id)
    SELECT key, max(bytes), max(project_id), holder_kind, holder_id FROM stored_file_sources
      WHERE holder_kind = ANY (TG_ARGV) AND holder_id = ANY (holders)
      GROUP BY holder_kind, holder_id, key;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER versions_stored_files AFTER INSERT OR DELETE OR UPDATE OF snapshot_key, screenshot_key, file_key, file_bytes, project_id
  ON versions FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('version_snapshot', 'version_screenshot', 'version_file', 'version_asset');
--> statement-breakpoint
CREATE TRIGGER version_assets_stored_files AFTER INSERT OR DELETE OR UPDATE
  ON version_assets FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('version_asset');
--> statement-breakpoint
CREATE TRIGGER pages_stored_files AFTER INSERT OR DELETE OR UPDATE OF thumbnail_key, project_id
  ON pages FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('page_thumbnail');
--> statement-breakpoint
CREATE TRIGGER projects_stored_files AFTER INSERT OR DELETE OR UPDATE OF thumbnail_key
  ON projects FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('project_thumbnail');
--> statement-breakpoint
CREATE TRIGGER users_stored_files AFTER INSERT OR DELETE OR UPDATE OF photo_url
  ON users FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('user_photo');
--> statement-breakpoint
CREATE TRIGGER teams_stored_files AFTER INSERT OR DELETE OR UPDATE OF theme
  ON teams FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('team_logo', 'team_icon');
--> statement-breakpoint
CREATE TRIGGER assets_stored_files AFTER INSERT OR DELETE OR UPDATE OF tracked, ext
  ON assets FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('asset_untracked');
--> statement-breakpoint
CREATE TRIGGER inspect_changes_stored_files AFTER INSERT OR DELETE OR UPDATE OF value, change_type, project_id
  ON inspect_changes FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('inspect_image');
--> statement-breakpoint
CREATE TRIGGER comment_entries_stored_files AFTER INSERT OR DELETE OR UPDATE OF attachments, comment_id
  ON comment_entries FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('comment_attachment');
--> statement-breakpoint
CREATE TRIGGER tickets_stored_files AFTER INSERT OR DELETE OR UPDATE OF screenshot_key, screenshot_bytes, replay_key, replay_bytes, project_id
  ON tickets FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('ticket_screenshot', 'ticket_replay');
--> statement-breakpoint
CREATE TRIGGER ticket_entries_stored_files AFTER INSERT OR DELETE OR UPDATE OF attachments, ticket_id
  ON ticket_entries FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('ticket_attachment');
--> statement-breakpoint
CREATE TRIGGER conversation_messages_stored_files AFTER INSERT OR DELETE OR UPDATE OF attachments, conversation_id
  ON conversation_messages FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('conversation_attachment');
--> statement-breakpoint
CREATE TRIGGER support_messages_stored_files AFTER INSERT OR DELETE OR UPDATE OF details
  ON support_messages FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('support_screenshot');
--> statement-breakpoint
-- What existing rows hold, so an instance loses nothing.
INSERT INTO stored_files (key, bytes, project_id, holder_kind, holder_id)
  SELECT key, max(bytes), max(project_id), holder_kind, holder_id FROM stored_file_sources
    GROUP BY holder_kind, holder_id, key;

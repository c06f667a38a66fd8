ALTER TABLE "ticket_entries" ADD COLUMN "video_status" text;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD COLUMN "video_upload" text;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD COLUMN "video_key" text;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD COLUMN "video_poster_key" text;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD COLUMN "video_bytes" bigint;--> statement-breakpoint
ALTER TABLE "ticket_entries" ADD COLUMN "video_duration" real;--> statement-breakpoint
-- Videos on tickets (issue #33): the record of stored files (ADR 0022) learns the ticket entries' videos and
-- posters (the view as 0034 left it, with two more branches).
CREATE OR REPLACE VIEW stored_file_sources AS
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
  -- A comment entry's processed video counts at its stored size; its poster is not metered.
  UNION ALL SELECT e.video_key, coalesce(e.video_bytes, 0), c.project_id, 'comment_video', e.id
    FROM comment_entries e JOIN comments c ON c.id = e.comment_id WHERE e.video_key IS NOT NULL
  UNION ALL SELECT e.video_poster_key, NULL, c.project_id, 'comment_video_poster', e.id
    FROM comment_entries e JOIN comments c ON c.id = e.comment_id WHERE e.video_poster_key IS NOT NULL
  UNION ALL SELECT t.screenshot_key, coalesce(t.screenshot_bytes, 0), t.project_id, 'ticket_screenshot', t.id
    FROM tickets t WHERE t.screenshot_key IS NOT NULL
  UNION ALL SELECT t.replay_key, coalesce(t.replay_bytes, 0), t.project_id, 'ticket_replay', t.id
    FROM tickets t WHERE t.replay_key IS NOT NULL
  UNION ALL SELECT f->>'path', coalesce((f->>'size')::bigint, 0), t.project_id, 'ticket_attachment', e.id
    FROM ticket_entries e JOIN tickets t ON t.id = e.ticket_id CROSS JOIN LATERAL jsonb_array_elements(e.attachments) AS f
    WHERE f->>'path' IS NOT NULL
  -- A ticket entry's processed video counts at its stored size; its poster is not metered.
  UNION ALL SELECT e.video_key, coalesce(e.video_bytes, 0), t.project_id, 'ticket_video', e.id
    FROM ticket_entries e JOIN tickets t ON t.id = e.ticket_id WHERE e.video_key IS NOT NULL
  UNION ALL SELECT e.video_poster_key, NULL, t.project_id, 'ticket_video_poster', e.id
    FROM ticket_entries e JOIN tickets t ON t.id = e.ticket_id WHERE e.video_poster_key IS NOT NULL
  UNION ALL SELECT f->>'path', coalesce((f->>'size')::bigint, 0), cv.project_id, 'conversation_attachment', m.id
    FROM conversation_messages m JOIN conversations cv ON cv.id = m.conversation_id
    CROSS JOIN LATERAL jsonb_array_elements(m.attachments) AS f
    WHERE f->>'path' IS NOT NULL
  UNION ALL SELECT f->>'key', NULL, NULL, 'support_screenshot', s.id
    FROM support_messages s CROSS JOIN LATERAL jsonb_array_elements(CASE
      WHEN jsonb_typeof(s.details->'screenshots') = 'array' THEN s.details->'screenshots' ELSE '[]'::jsonb END) AS f
    WHERE f->>'key' IS NOT NULL
  -- A deck's uploaded images (issue #32).
  UNION ALL SELECT si.key, si.bytes::bigint, si.project_id, 'slide_image', si.id
    FROM slide_images si;
--> statement-breakpoint
DROP TRIGGER ticket_entries_stored_files ON ticket_entries;
--> statement-breakpoint
CREATE TRIGGER ticket_entries_stored_files AFTER INSERT OR DELETE OR UPDATE OF attachments, ticket_id, video_key, video_poster_key, video_bytes
  ON ticket_entries FOR EACH ROW EXECUTE FUNCTION redline_stored_files_sync('ticket_attachment', 'ticket_video', 'ticket_video_poster');

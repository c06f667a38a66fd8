-- The next release's contract migration for issue #29 item 1 (ADR 0045), ready to be copied into its
-- generated migration once this release has shipped: `contract-legacy-targets.test.ts` runs this
-- release's comment operations on a database where it has been applied, so dropping these cannot break
-- this release while the next one rolls out.
--
-- rolling-upgrade: legacy target columns unused since 0040 (the release before neither reads nor writes them; its Drizzle table has no such columns)
DROP TRIGGER comments_legacy_from_target ON comments;--> statement-breakpoint
DROP TRIGGER comments_target_from_legacy ON comments;--> statement-breakpoint
DROP TRIGGER tickets_target_from_report ON tickets;--> statement-breakpoint
DROP FUNCTION redline_comments_legacy_from_target();--> statement-breakpoint
DROP FUNCTION redline_comments_target_from_legacy();--> statement-breakpoint
DROP FUNCTION redline_comment_target_of(text, jsonb, jsonb, integer, text, text, text);--> statement-breakpoint
DROP FUNCTION redline_tickets_target_from_report();--> statement-breakpoint
DROP FUNCTION redline_ticket_target_of(jsonb);--> statement-breakpoint
ALTER TABLE comments DROP CONSTRAINT comments_one_target;--> statement-breakpoint
ALTER TABLE comments ADD CONSTRAINT comments_one_target CHECK (
  (version_id IS NOT NULL AND page_id IS NOT NULL AND slide_id IS NULL)
  OR (version_id IS NULL AND page_id IS NULL AND slide_id IS NOT NULL)
);--> statement-breakpoint
ALTER TABLE comments DROP COLUMN query_selector;--> statement-breakpoint
ALTER TABLE comments DROP COLUMN anchor;--> statement-breakpoint
ALTER TABLE comments DROP COLUMN dot_position;--> statement-breakpoint
ALTER TABLE comments DROP COLUMN pdf_page;--> statement-breakpoint
ALTER TABLE comments DROP COLUMN object_id;

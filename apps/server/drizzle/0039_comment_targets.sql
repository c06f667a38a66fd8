-- Issue #29 item 1, ADR 0045: where a comment (and a widget ticket) points is one value, `target`
-- (packages/shared/src/targets.ts). Expand step of ADR 0031: the legacy columns stay, written by both
-- releases; the contract migration of the next release drops them with the two functions and triggers.
--
-- rolling-upgrade: comments.target is NOT NULL only after every row is backfilled, and every writer fills it:
-- this release writes it, and the previous release's inserts and pin moves (which name only the legacy
-- columns) get it from the trigger comments_target_from_legacy below. Nothing is dropped or renamed.
ALTER TABLE "comments" ADD COLUMN "target" jsonb;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "target" jsonb;--> statement-breakpoint
-- The target the legacy columns describe: targetFromLegacy (shared/targets.ts) in SQL, the migration test
-- holds the two to the same answer on every kind of row.
CREATE FUNCTION redline_comment_target_of(
  query_selector text, anchor jsonb, dot_position jsonb, pdf_page integer, slide_id text, object_id text,
  version_kind text
) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN slide_id IS NOT NULL THEN
      jsonb_build_object('kind', 'slide', 'slideId', slide_id, 'point', point)
      || CASE WHEN object_id IS NOT NULL THEN jsonb_build_object('objectId', object_id) ELSE '{}'::jsonb END
    WHEN pdf_page IS NOT NULL OR version_kind = 'pdf' THEN
      jsonb_build_object('kind', 'pdf-point', 'page', coalesce(pdf_page, 1), 'point', point)
    WHEN version_kind = 'snapshot' THEN
      jsonb_build_object('kind', 'element', 'anchor', coalesce(anchor, 'null'::jsonb), 'point', point)
      || CASE
        WHEN query_selector IS NOT NULL AND query_selector IS DISTINCT FROM anchor ->> 'querySelector'
          THEN jsonb_build_object('selector', query_selector)
        ELSE '{}'::jsonb
      END
    ELSE jsonb_build_object('kind', 'image-point', 'point', point)
  END
  FROM (SELECT jsonb_build_object('x', dot_position -> 'x', 'y', dot_position -> 'y') AS point) AS pin
$$;
--> statement-breakpoint
UPDATE "comments" SET "target" = redline_comment_target_of(
  "comments"."query_selector", "comments"."anchor", "comments"."dot_position", "comments"."pdf_page",
  "comments"."slide_id", "comments"."object_id",
  (SELECT "versions"."kind" FROM "versions" WHERE "versions"."id" = "comments"."version_id")
);--> statement-breakpoint
-- The previous release writes the legacy columns only: an insert without a target, or a move of the pin
-- (legacy columns changed, target untouched), gets the target they describe.
CREATE FUNCTION redline_comments_target_from_legacy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP = 'INSERT' AND NEW.target IS NULL)
    OR (TG_OP = 'UPDATE' AND NEW.target IS NOT DISTINCT FROM OLD.target
      AND (NEW.query_selector, NEW.anchor, NEW.dot_position, NEW.pdf_page, NEW.object_id)
        IS DISTINCT FROM (OLD.query_selector, OLD.anchor, OLD.dot_position, OLD.pdf_page, OLD.object_id))
  THEN
    NEW.target := redline_comment_target_of(
      NEW.query_selector, NEW.anchor, NEW.dot_position, NEW.pdf_page, NEW.slide_id, NEW.object_id,
      (SELECT kind FROM versions WHERE id = NEW.version_id)
    );
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- Only writes naming a target column fire it (a reply's modified_at, a resolve, do not).
CREATE TRIGGER comments_target_from_legacy
  BEFORE INSERT OR UPDATE OF target, query_selector, anchor, dot_position, pdf_page, object_id ON comments
  FOR EACH ROW EXECUTE FUNCTION redline_comments_target_from_legacy();
--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "target" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_target_on_its_place" CHECK (("comments"."slide_id" is null and "comments"."target"->>'kind' <> 'slide') or ("comments"."target"->>'kind' = 'slide' and "comments"."target"->>'slideId' = "comments"."slide_id"));--> statement-breakpoint
-- A widget ticket's element as a target (ticketTargetOf, shared/tickets.ts): its anchor, its selector when
-- the anchor does not say it already, and the anchor's dot as its point (the middle of an element without one).
CREATE FUNCTION redline_ticket_target_of(report jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(element) IS DISTINCT FROM 'object' THEN NULL
    ELSE jsonb_build_object(
      'kind', 'element',
      'anchor', coalesce(element -> 'anchor', 'null'::jsonb),
      'point', CASE
        WHEN jsonb_typeof(element -> 'anchor' -> 'dot') = 'object' THEN jsonb_build_object(
          'x', element -> 'anchor' -> 'dot' -> 'x', 'y', element -> 'anchor' -> 'dot' -> 'y')
        ELSE '{"x":0.5,"y":0.5}'::jsonb
      END
    ) || CASE
      WHEN coalesce(element ->> 'selector', '') <> ''
        AND (element ->> 'selector') IS DISTINCT FROM (element -> 'anchor' ->> 'querySelector')
        THEN jsonb_build_object('selector', element ->> 'selector')
      ELSE '{}'::jsonb
    END
  END
  FROM (SELECT report -> 'element' AS element) AS reported
$$;
--> statement-breakpoint
UPDATE "tickets" SET "target" = redline_ticket_target_of("tickets"."report") WHERE "tickets"."report" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION redline_tickets_target_from_report() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.target IS NULL AND NEW.report IS NOT NULL THEN
    NEW.target := redline_ticket_target_of(NEW.report);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_target_from_report BEFORE INSERT ON tickets
  FOR EACH ROW EXECUTE FUNCTION redline_tickets_target_from_report();

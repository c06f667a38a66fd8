-- Attachments of messages in a project's conversations count towards the project owner's storage on
-- GET /api/me (modules/plans/storage.ts), whose figures are cached under the owner's `counters_revision`
-- (0013): these triggers move it on in the writing transaction, like the ones on comments (0013) and
-- tickets (0017). A support conversation has no project, so its attachments count towards no one's.
CREATE FUNCTION redline_message_counters_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  project_ids text[];
BEGIN
  IF TG_TABLE_NAME = 'conversations' THEN
    -- BEFORE DELETE of a conversation: its messages are still there; only files they hold count.
    IF OLD.project_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM conversation_messages WHERE conversation_id = OLD.id AND attachments <> '[]'::jsonb
    ) THEN
      project_ids := ARRAY[OLD.project_id];
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(project_id) INTO project_ids FROM conversations
      WHERE id = NEW.conversation_id AND project_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    -- Gone with its conversation: the conversation's own trigger counted it.
    SELECT array_agg(project_id) INTO project_ids FROM conversations
      WHERE id = OLD.conversation_id AND project_id IS NOT NULL;
  ELSE
    SELECT array_agg(project_id) INTO project_ids FROM conversations
      WHERE id IN (OLD.conversation_id, NEW.conversation_id) AND project_id IS NOT NULL;
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
CREATE TRIGGER conversations_counted_delete BEFORE DELETE ON conversations
  FOR EACH ROW WHEN (OLD.project_id IS NOT NULL) EXECUTE FUNCTION redline_message_counters_changed();
--> statement-breakpoint
CREATE TRIGGER conversation_messages_counted_insert AFTER INSERT ON conversation_messages
  FOR EACH ROW WHEN (NEW.attachments <> '[]'::jsonb) EXECUTE FUNCTION redline_message_counters_changed();
--> statement-breakpoint
CREATE TRIGGER conversation_messages_counted_delete AFTER DELETE ON conversation_messages
  FOR EACH ROW WHEN (OLD.attachments <> '[]'::jsonb) EXECUTE FUNCTION redline_message_counters_changed();
--> statement-breakpoint
CREATE TRIGGER conversation_messages_counted_update AFTER UPDATE OF attachments, conversation_id ON conversation_messages
  FOR EACH ROW WHEN (OLD.attachments IS DISTINCT FROM NEW.attachments
    OR OLD.conversation_id IS DISTINCT FROM NEW.conversation_id)
  EXECUTE FUNCTION redline_message_counters_changed();

-- Every process keeps signed-in sessions in memory (modules/auth/session-cache.ts). Any change to a
-- session or a user — sign-out, revocation, refresh, profile edits, deletion — is announced on the
-- `redline_auth` channel by the database itself, whichever code made it, so every process forgets
-- what it held at once.
CREATE FUNCTION redline_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('redline_auth', json_build_object('userId', OLD.user_id)::text);
  ELSE
    PERFORM pg_notify('redline_auth', json_build_object('userId', OLD.id)::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION redline_auth_changed();
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION redline_auth_changed();

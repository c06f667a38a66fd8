CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
-- Every process keeps the API tokens it has resolved in memory (modules/auth/api-tokens.ts, beside the
-- sessions of 0008): revoking one (a delete) or changing what it may do is announced on `redline_auth` with
-- its owner, so every process forgets that person's tokens and sessions at once. Its last use (written once a
-- minute) changes nothing a process holds, so it announces nothing.
CREATE OR REPLACE FUNCTION redline_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('sessions', 'api_tokens') THEN
    PERFORM pg_notify('redline_auth', json_build_object('userId', OLD.user_id)::text);
  ELSE
    PERFORM pg_notify('redline_auth', json_build_object('userId', OLD.id)::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_tokens_changed AFTER DELETE OR UPDATE OF user_id, scope, token_hash, expires_at ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION redline_auth_changed();

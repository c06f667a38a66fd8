ALTER TABLE "comments" ALTER COLUMN "page_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "version_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "slide_id" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "object_id" text;--> statement-breakpoint
CREATE INDEX "comments_slide_idx" ON "comments" USING btree ("project_id","slide_id");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_one_target" CHECK (("comments"."version_id" is not null and "comments"."page_id" is not null and "comments"."slide_id" is null and "comments"."object_id" is null) or ("comments"."version_id" is null and "comments"."page_id" is null and "comments"."slide_id" is not null));
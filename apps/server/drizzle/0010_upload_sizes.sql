-- Each uploaded page file's size (image and PDF versions), so what a project owner's files use is a sum
-- over the rows that hold them (modules/plans/storage.ts). Sizes are only in the file store: versions
-- uploaded before this migration are measured once at start-up (measureUnsizedUploads).
ALTER TABLE "versions" ADD COLUMN "file_bytes" bigint;--> statement-breakpoint
CREATE INDEX "versions_project_idx" ON "versions" USING btree ("project_id");
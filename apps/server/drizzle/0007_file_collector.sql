CREATE TABLE "version_assets" (
	"version_id" text NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "version_assets_version_id_sha256_pk" PRIMARY KEY("version_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "tracked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ALTER COLUMN "tracked" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "version_assets" ADD CONSTRAINT "version_assets_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_assets" ADD CONSTRAINT "version_assets_sha256_assets_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."assets"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_assets_sha_idx" ON "version_assets" USING btree ("sha256");
ALTER TABLE "agents" ADD COLUMN "seed_version" integer;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
-- Capabilities are part of the stored configuration now. Rows written before know none: they get
-- the default (knowledge only), and seeded agents get their own at the next start (seed versions).
UPDATE "agents" SET "configuration" = "configuration" || '{"capabilities":{"skills":[],"fallback":"notFound"}}'::jsonb WHERE "configuration"->'capabilities' IS NULL;

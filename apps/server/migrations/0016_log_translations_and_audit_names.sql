-- The stored log's search finds an event by its words in each language (issue 28 point 10): the
-- translations are written with the row, and the folded search text includes them. Dropping the
-- generated column drops its trigram index, made again below. An admin change keeps the name its
-- target had (a deleted agent, image or account is still named).
ALTER TABLE "log_events" ADD COLUMN "translations" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "log_events" drop column "search_text";--> statement-breakpoint
ALTER TABLE "log_events" ADD COLUMN "search_text" text GENERATED ALWAYS AS (log_events_fold(coalesce("event", '') || ' ' || "message" || ' ' || "translations" || ' ' || coalesce("user_id", '') || ' ' || coalesce("request_id", '') || ' ' || "context"::text)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "log_events_search_idx" ON "log_events" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "admin_audit" ADD COLUMN "target_name" jsonb;

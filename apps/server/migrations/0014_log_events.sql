-- Search over the stored log (features/logs): accent- and case-insensitive, a word anywhere.
-- unaccent is not immutable (its dictionary could change), so a generated column cannot call it;
-- this wrapper names the dictionary and is declared immutable (the usual way round it).
-- pg_trgm's GIN index then finds LIKE '%word%' without reading every row.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION log_events_fold(value text) RETURNS text
	LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
	AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;--> statement-breakpoint
CREATE TABLE "log_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"level" text NOT NULL,
	"category" text NOT NULL,
	"event" text,
	"message" text NOT NULL,
	"user_id" text,
	"request_id" text,
	"context" jsonb NOT NULL,
	"search_text" text GENERATED ALWAYS AS (log_events_fold(coalesce("event", '') || ' ' || "message" || ' ' || coalesce("user_id", '') || ' ' || coalesce("request_id", '') || ' ' || "context"::text)) STORED NOT NULL
);
--> statement-breakpoint
CREATE INDEX "log_events_at_idx" ON "log_events" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "log_events_level_at_idx" ON "log_events" USING btree ("level","at","id");--> statement-breakpoint
CREATE INDEX "log_events_category_at_idx" ON "log_events" USING btree ("category","at","id");--> statement-breakpoint
CREATE INDEX "log_events_search_idx" ON "log_events" USING gin ("search_text" gin_trgm_ops);
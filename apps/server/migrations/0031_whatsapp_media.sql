-- What a WhatsApp message carries besides text (a photo, voice note, document, location…), the
-- name of its file while it is kept, and the files by age for the retention, whose queue is made
-- here as 0027 made the others.
ALTER TABLE "whatsapp_messages" ADD COLUMN "media" jsonb;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD COLUMN "media_file" text;--> statement-breakpoint
CREATE INDEX "whatsapp_messages_media_file_idx" ON "whatsapp_messages" USING btree ("created_at") WHERE "whatsapp_messages"."media_file" is not null;--> statement-breakpoint
SELECT pgboss.create_queue('whatsapp-media-retention', '{"policy":"stately"}')
WHERE NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = 'whatsapp-media-retention');

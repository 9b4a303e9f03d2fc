ALTER TABLE "whatsapp_conversations" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD COLUMN "held" boolean DEFAULT false NOT NULL;
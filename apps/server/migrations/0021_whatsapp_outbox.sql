ALTER TABLE "whatsapp_messages" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD COLUMN "send_error" text;--> statement-breakpoint
ALTER TABLE "whatsapp_sandbox_links" ADD COLUMN "fail_sends" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_sandbox_links" ADD COLUMN "fail_code" text;
CREATE TABLE "relay_opt_outs" (
	"recipient" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relay_threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sender_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"conversation_id" uuid NOT NULL,
	"language" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sender_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"text" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "awaits" text;--> statement-breakpoint
ALTER TABLE "whatsapp_conversations" ADD COLUMN "relay" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "relay_threads" ADD CONSTRAINT "relay_threads_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_threads" ADD CONSTRAINT "relay_threads_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relays" ADD CONSTRAINT "relays_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relays" ADD CONSTRAINT "relays_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relay_threads_pair_idx" ON "relay_threads" USING btree ("sender_id","recipient");--> statement-breakpoint
CREATE UNIQUE INDEX "relay_threads_conversation_idx" ON "relay_threads" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "relay_threads_recipient_idx" ON "relay_threads" USING btree ("recipient","last_at");--> statement-breakpoint
CREATE INDEX "relays_sender_idx" ON "relays" USING btree ("sender_id","sent_at");--> statement-breakpoint
CREATE INDEX "relays_recipient_idx" ON "relays" USING btree ("recipient","sent_at");--> statement-breakpoint
CREATE INDEX "relays_conversation_idx" ON "relays" USING btree ("conversation_id","created_at");
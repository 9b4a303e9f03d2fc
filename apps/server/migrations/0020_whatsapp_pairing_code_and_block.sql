CREATE TABLE "whatsapp_sandbox_pairing_codes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "whatsapp_sandbox_pairing_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "pairing_code" text;--> statement-breakpoint
ALTER TABLE "whatsapp_conversations" ADD COLUMN "blocked_by_owner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_sandbox_pairing_codes" ADD CONSTRAINT "whatsapp_sandbox_pairing_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "whatsapp_auth_creds" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"creds" text NOT NULL,
	"me_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_auth_keys" (
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"id" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "whatsapp_auth_keys_account_id_type_id_pk" PRIMARY KEY("account_id","type","id")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_auth_creds" ADD CONSTRAINT "whatsapp_auth_creds_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_auth_keys" ADD CONSTRAINT "whatsapp_auth_keys_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "whatsapp_lid_mappings" (
	"user_id" uuid NOT NULL,
	"lid" text NOT NULL,
	"pn" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_lid_mappings" ADD CONSTRAINT "whatsapp_lid_mappings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_lid_mappings_lid_idx" ON "whatsapp_lid_mappings" USING btree ("user_id","lid");--> statement-breakpoint
CREATE INDEX "whatsapp_lid_mappings_pn_idx" ON "whatsapp_lid_mappings" USING btree ("user_id","pn");
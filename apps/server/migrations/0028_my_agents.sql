-- An account's own agents live beside the catalogue's, with their owner (owner_id) and what the
-- owner wrote (profile). A catalogue agent's name stays unique among the catalogue's; an own
-- agent's is unique within its account.
DROP INDEX "agents_name_key";--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "owner_id" uuid;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "profile" jsonb;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agents_owner_name_key" ON "agents" USING btree ("owner_id","name") WHERE "agents"."owner_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "agents_name_key" ON "agents" USING btree ("name") WHERE "agents"."owner_id" is null;
-- The documents an account gives its own agents: the text read from each file, in passages (the
-- file itself is not kept). They go with their agent (removed when it is deleted; by cascade with
-- its row) and with their account.
CREATE TABLE "agent_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"pages" integer,
	"characters" integer NOT NULL,
	"passages" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_documents" ADD CONSTRAINT "agent_documents_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_documents" ADD CONSTRAINT "agent_documents_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_documents_agent_id_idx" ON "agent_documents" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_documents_owner_id_idx" ON "agent_documents" USING btree ("owner_id");
-- A conversation whose contact asked for a person: the agent handed over and waits for the owner.
ALTER TABLE "whatsapp_conversations" ADD COLUMN "needs_human" boolean DEFAULT false NOT NULL;
-- The WhatsApp queues made since 0017 (lib/jobs.ts makes a worked queue that no migration made
-- at start, but a partition is slow to make on the embedded database, and a queue made only at
-- start is missing from the monitor's first look): the outbox's sends and the sandbox's held
-- deliveries. A database whose instances made them at start already has them.
SELECT pgboss.create_queue('whatsapp-send', '{"policy":"stately"}')
WHERE NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = 'whatsapp-send');
--> statement-breakpoint
SELECT pgboss.create_queue('whatsapp-sandbox-offline', '{"policy":"stately"}')
WHERE NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = 'whatsapp-sandbox-offline');

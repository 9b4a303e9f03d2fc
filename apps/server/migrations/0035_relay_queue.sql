-- The queue of indirect's relays on the sender's yes: each relay is sent by a job of its own, so a
-- process killed between counting the relay and storing its message sends it after restart, once.
SELECT pgboss.create_queue('whatsapp-relay', '{"policy":"stately"}')
WHERE NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = 'whatsapp-relay');

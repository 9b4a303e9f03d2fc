-- The reply queue's table without pg-boss's two foreign keys (its jobs' queue, their dead-letter
-- queue), checked at the commit of every job inserted: the check locks the queue's one row in
-- pgboss.queue, so on PostgreSQL the transactions of every WhatsApp message, on every instance,
-- queue up behind each other's locks on that row (shared locks held together become a multixact),
-- and on the embedded database it is a query and a write more per message. The keys guard
-- nothing here: the table holds only this queue's jobs (its CHECK and its partition bounds), and
-- no job of it names a dead-letter queue. A later pg-boss whose migration touches them must be
-- checked against this.
DO $$
DECLARE
  reply_table text;
BEGIN
  SELECT partition_name INTO reply_table FROM pgboss.queue WHERE name = 'whatsapp-reply';
  EXECUTE format(
    'ALTER TABLE pgboss.%I DROP CONSTRAINT q_fkey, DROP CONSTRAINT dlq_fkey',
    reply_table
  );
END
$$;

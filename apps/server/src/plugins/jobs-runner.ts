import fp from 'fastify-plugin';

/**
 * Starts the platform's jobs once the whole app is ready, and stops them first on close. Registered
 * after every feature module: its ready hook runs last (a job may need any module: a WhatsApp reply
 * needs the linked accounts resumed), and its close hook first (Fastify closes in the reverse
 * order), so the jobs running end while what they use is still open.
 */
export const jobsRunnerPlugin = fp(
  async (app) => {
    const { jobs } = app.platform;
    app.addHook('onReady', () => jobs.start());
    app.addHook('onClose', () => jobs.stop());
  },
  { name: 'jobs-runner', dependencies: ['platform'] },
);

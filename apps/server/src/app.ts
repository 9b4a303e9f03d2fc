import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTranslator } from '@/lib/i18n';
import { serializerCompiler } from '@/lib/response-serializer';
import { closingPlugin } from '@/plugins/closing';
import { errorsPlugin } from '@/plugins/errors';
import { i18nPlugin } from '@/plugins/i18n';
import { jobsRunnerPlugin } from '@/plugins/jobs-runner';
import { platformPlugin } from '@/plugins/platform';
import { rateLimitsPlugin } from '@/plugins/rate-limits';
import { realtimePlugin } from '@/plugins/realtime';
import { securityPlugin } from '@/plugins/security';
import { webPlugin } from '@/plugins/web';
import { adminModule } from '@/features/admin/admin.module';
import { agentsModule } from '@/features/agents/agents.module';
import { aiModule } from '@/features/ai/ai.module';
import { authModule } from '@/features/auth/auth.module';
import { chatModule } from '@/features/chat/chat.module';
import { imagesModule } from '@/features/images/images.module';
import { logsModule, logsRoutesModule } from '@/features/logs/logs.module';
import { monitorModule } from '@/features/monitor/monitor.module';
import { privacyModule } from '@/features/privacy/privacy.module';
import { settingsModule, settingsRoutesModule } from '@/features/settings/settings.module';
import { systemModule } from '@/features/system/system.module';
import { whatsappModule } from '@/features/whatsapp/whatsapp.module';
import { WEB_DIST_DIR } from '@/paths';
import { mediaDirOf, serverOptions, type AppDeps, type OptionalModule } from './app.options';

export { BODY_LIMIT_BYTES, DEFAULT_TIMEOUTS, type AppDeps } from './app.options';

export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * Builds the whole application without listening, so tests drive it through `app.inject` with a
 * database of their own. Plugins, then the feature modules, each after those it declares it
 * depends on (Fastify checks it): their ready hooks run in this order, their close hooks in the
 * reverse one. Then the web app behind them.
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const translate = createTranslator();
  const app = Fastify(serverOptions(deps, translate)).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const { limits = {} } = deps;
  const wanted = (name: OptionalModule) => !deps.without?.includes(name);

  await app.register(i18nPlugin, { translate });
  await app.register(closingPlugin);
  await app.register(securityPlugin);
  await app.register(platformPlugin, {
    ...deps,
    translate,
    keyPrefix: limits.keyPrefix,
    hub: deps.events,
  });
  await app.register(logsModule, { ...deps.logs });
  await app.register(errorsPlugin, (app) => ({
    onMaintenanceRefusal: app.logs.maintenanceRefused,
  }));
  await app.register(rateLimitsPlugin);

  await app.register(settingsModule);
  await app.register(privacyModule);
  await app.register(authModule, {
    sessionTimeoutMs: deps.sessionTimeoutMs,
    sessionMaxAgeMs: deps.sessionMaxAgeMs,
    login: limits.login,
    codes: limits.codes,
    routes: limits.routes,
  });
  await app.register(realtimePlugin, (app) => ({
    authenticator: app.authenticator,
    state: app.platform.state,
    settings: app.settings,
    translate,
    recheckMs: deps.realtimeRecheckMs,
    hub: app.platform.hub,
  }));
  await app.register(logsRoutesModule);
  await app.register(settingsRoutesModule);
  await app.register(systemModule, { version: deps.version });
  await app.register(agentsModule, { documentReadTimeoutMs: deps.documentReadTimeoutMs });
  await app.register(aiModule, { initial: deps.ai, testsPerMinute: limits.aiTestsPerMinute });
  await app.register(chatModule, { limit: limits.chat });
  if (wanted('whatsapp'))
    await app.register(whatsappModule, {
      ...deps.whatsapp,
      mediaDir: mediaDirOf(deps),
      mediaLimits: deps.whatsapp?.media,
      contactLimit: limits.whatsappContact,
      sendLimitPerMinute: limits.whatsappSendPerMinute,
      sandboxInboundPerMinute: limits.sandboxInboundPerMinute,
    });
  if (wanted('images'))
    await app.register(imagesModule, { dir: deps.imagesDir, decoding: deps.imageDecoding });
  if (wanted('monitor'))
    await app.register(monitorModule, {
      timing: deps.monitor,
      cgroup: deps.monitor?.cgroup,
      dataDir: deps.dataDir,
      metricsToken: deps.metricsToken,
      actionsPerMinute: limits.monitorActions,
    });
  if (wanted('admin')) await app.register(adminModule);
  await app.register(jobsRunnerPlugin);

  await app.register(webPlugin, {
    distDir: deps.webDistDir ?? WEB_DIST_DIR,
    brandDomains: deps.brandDomains,
  });
  return app;
}

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_DOMAINS } from '@contrateia/shared';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config';

/** The ConfigError loadConfig throws for this environment (fails the test if it does not throw). */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      imagesDir: path.resolve('./data/images'),
      mediaDir: path.resolve('./data/media'),
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'ContrateIA <no-reply@contrateia.com.br>',
      jwtSecret: undefined,
      brandDomains: DEFAULT_BRAND_DOMAINS,
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      logRetentionDays: 30,
      trustProxy: false,
      ai: {
        provider: 'builtin',
        baseUrl: undefined,
        apiKey: undefined,
        model: undefined,
        timeoutMs: 60_000,
        transcriptionModel: undefined,
        vision: false,
      },
      chatLimitPerMinute: 30,
      whatsapp: { transport: 'baileys', wsUrl: undefined },
      whatsappContactLimitPerMinute: 20,
      whatsappSendLimitPerMinute: 30,
      whatsappCatchupMinutes: 10,
      whatsappTakeoverMinutes: 30,
      whatsappPacing: { debounceMs: 2500, typingMsPerChar: 30, sendsPerMinute: 40 },
      whatsappMedia: { maxBytes: 16 * 1024 * 1024, retentionDays: 90 },
      sandbox: { inboundPerMinute: 600, secret: undefined },
      metricsToken: undefined,
    });
    expect(DEFAULT_BRAND_DOMAINS).toBe(
      'pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com',
    );
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('reads every variable that is set', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: 'some/dir',
      DATABASE_URL: 'postgresql://app:secret@db.internal:5432/contrateia',
      REDIS_URL: 'rediss://cache:6380',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Team <team@example.com>',
      JWT_SECRET: 'x'.repeat(32),
      BRAND_DOMAINS: 'pt-BR=exemplo.com.br,en-US=example.com',
      PUBLIC_URL: 'https://app.example.com/',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'true',
      AI_PROVIDER: 'openai',
      AI_BASE_URL: 'http://127.0.0.1:11434/v1',
      AI_API_KEY: 'sk-test',
      AI_MODEL: 'llama3',
      AI_TIMEOUT_MS: '5000',
      AI_TRANSCRIPTION_MODEL: 'whisper-1',
      AI_VISION: 'true',
      CHAT_LIMIT_PER_MINUTE: '12',
      WHATSAPP_CONTACT_LIMIT_PER_MINUTE: '40',
      WHATSAPP_SEND_LIMIT_PER_MINUTE: '9',
      WHATSAPP_CATCHUP_MINUTES: '30',
      WHATSAPP_TAKEOVER_MINUTES: '45',
      WHATSAPP_DEBOUNCE_MS: '1200',
      WHATSAPP_TYPING_MS_PER_CHAR: '0',
      WHATSAPP_SENDS_PER_MINUTE: '12',
      WHATSAPP_MEDIA_MAX_MB: '5',
      WHATSAPP_MEDIA_RETENTION_DAYS: '30',
      SANDBOX_INBOUND_PER_MINUTE: '5000',
      SANDBOX_SECRET: 'sandbox-secret-0123456789',
      WHATSAPP_TRANSPORT: 'sandbox',
      WHATSAPP_WS_URL: 'ws://127.0.0.1:9999/ws/chat',
      METRICS_TOKEN: 'scraper-token-0123456789',
      LOG_RETENTION_DAYS: '7',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('some/dir'),
      imagesDir: path.resolve('some/dir/images'),
      mediaDir: path.resolve('some/dir/media'),
      databaseUrl: 'postgresql://app:secret@db.internal:5432/contrateia',
      redisUrl: 'rediss://cache:6380',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      mailFrom: 'Team <team@example.com>',
      jwtSecret: 'x'.repeat(32),
      brandDomains: 'pt-BR=exemplo.com.br,en-US=example.com',
      publicUrl: 'https://app.example.com',
      logLevel: 'debug',
      logRetentionDays: 7,
      trustProxy: true,
      ai: {
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKey: 'sk-test',
        model: 'llama3',
        timeoutMs: 5000,
        transcriptionModel: 'whisper-1',
        vision: true,
      },
      chatLimitPerMinute: 12,
      whatsapp: { transport: 'sandbox', wsUrl: 'ws://127.0.0.1:9999/ws/chat' },
      whatsappContactLimitPerMinute: 40,
      whatsappSendLimitPerMinute: 9,
      whatsappCatchupMinutes: 30,
      whatsappTakeoverMinutes: 45,
      whatsappPacing: { debounceMs: 1200, typingMsPerChar: 0, sendsPerMinute: 12 },
      whatsappMedia: { maxBytes: 5 * 1024 * 1024, retentionDays: 30 },
      sandbox: { inboundPerMinute: 5000, secret: 'sandbox-secret-0123456789' },
      metricsToken: 'scraper-token-0123456789',
    });
  });

  it('refuses a WhatsApp media size or retention out of its range, saying the range', () => {
    expect(configError({ WHATSAPP_MEDIA_MAX_MB: '0' }).message).toBe(
      'Invalid configuration: WHATSAPP_MEDIA_MAX_MB must be from 1 to 100 MB (got "0")',
    );
    expect(configError({ WHATSAPP_MEDIA_RETENTION_DAYS: 'soon' }).message).toBe(
      'Invalid configuration: WHATSAPP_MEDIA_RETENTION_DAYS must be a whole number of days (got "soon")',
    );
  });

  it('takes baileys as the WhatsApp transport by default, and refuses anything but baileys or sandbox and a ws(s) URL', () => {
    expect(loadConfig({}).whatsapp).toEqual({ transport: 'baileys', wsUrl: undefined });
    expect(() => loadConfig({ WHATSAPP_TRANSPORT: 'fake' })).toThrow(
      new ConfigError(
        'Invalid configuration: WHATSAPP_TRANSPORT must be baileys or sandbox (got "fake")',
      ),
    );
    expect(() => loadConfig({ WHATSAPP_WS_URL: 'http://127.0.0.1:9999' })).toThrow(
      /^Invalid configuration: WHATSAPP_WS_URL must be a URL like wss:/,
    );
  });

  it('needs AI_BASE_URL and AI_MODEL for the openai provider, in one line naming them', () => {
    expect(() => loadConfig({ AI_PROVIDER: 'openai', AI_MODEL: 'm' })).toThrow(
      new ConfigError('Invalid configuration: AI_BASE_URL is required when AI_PROVIDER=openai'),
    );
    expect(() => loadConfig({ AI_PROVIDER: 'openai', AI_BASE_URL: 'http://x/v1' })).toThrow(
      new ConfigError('Invalid configuration: AI_MODEL is required when AI_PROVIDER=openai'),
    );
    expect(() => loadConfig({ AI_PROVIDER: 'gpt' })).toThrow(
      /^Invalid configuration: AI_PROVIDER must be builtin or openai/,
    );
    expect(() => loadConfig({ AI_TRANSCRIPTION_MODEL: 'whisper 1' })).toThrow(
      new ConfigError(
        'Invalid configuration: AI_TRANSCRIPTION_MODEL must be a model name such as whisper-1, without spaces (got "whisper 1")',
      ),
    );
    expect(() => loadConfig({ AI_VISION: 'yes' })).toThrow(
      new ConfigError('Invalid configuration: AI_VISION must be true or false (got "yes")'),
    );
    expect(() => loadConfig({ CHAT_LIMIT_PER_MINUTE: '0' })).toThrow(
      /^Invalid configuration: CHAT_LIMIT_PER_MINUTE/,
    );
    expect(() => loadConfig({ WHATSAPP_CONTACT_LIMIT_PER_MINUTE: 'lots' })).toThrow(
      new ConfigError(
        'Invalid configuration: WHATSAPP_CONTACT_LIMIT_PER_MINUTE must be a whole number (got "lots")',
      ),
    );
  });

  it('keeps stored log events 30 days unless LOG_RETENTION_DAYS says from 1 to 3650, in whole days', () => {
    expect(loadConfig({}).logRetentionDays).toBe(30);
    expect(loadConfig({ LOG_RETENTION_DAYS: '1' }).logRetentionDays).toBe(1);
    expect(loadConfig({ LOG_RETENTION_DAYS: '3650' }).logRetentionDays).toBe(3650);
    expect(configError({ LOG_RETENTION_DAYS: '0' }).message).toBe(
      'Invalid configuration: LOG_RETENTION_DAYS must be from 1 to 3650 days (got "0")',
    );
    expect(configError({ LOG_RETENTION_DAYS: '3651' }).message).toBe(
      'Invalid configuration: LOG_RETENTION_DAYS must be from 1 to 3650 days (got "3651")',
    );
    expect(configError({ LOG_RETENTION_DAYS: '1.5' }).message).toBe(
      'Invalid configuration: LOG_RETENTION_DAYS must be a whole number of days (got "1.5")',
    );
    expect(configError({ LOG_RETENTION_DAYS: 'forever' }).message).toBe(
      'Invalid configuration: LOG_RETENTION_DAYS must be a whole number of days (got "forever")',
    );
  });

  it('takes the embedded database exactly when DATABASE_URL is unset', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@h/db', JWT_SECRET: 'k'.repeat(32) }).databaseUrl,
    ).toBe('postgres://u@h/db');
  });

  it('refuses DATABASE_URL without JWT_SECRET: instances sharing a database must share the key', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      new ConfigError(
        'Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every instance sharing the database must sign tokens with the same key)',
      ),
    );
  });

  it('limits the owner’s WhatsApp sends to 30 a minute and sandbox contacts to 600 a minute per IP unless told; the sandbox secret is long or absent', () => {
    expect(loadConfig({})).toMatchObject({
      whatsappSendLimitPerMinute: 30,
      sandbox: { inboundPerMinute: 600, secret: undefined },
    });
  });

  it('waits 2.5 s for a burst, types 30 ms a character and sends 40 a minute unless told; refuses what is not a fitting whole number', () => {
    expect(loadConfig({}).whatsappPacing).toEqual({
      debounceMs: 2500,
      typingMsPerChar: 30,
      sendsPerMinute: 40,
    });
    expect(
      loadConfig({
        WHATSAPP_DEBOUNCE_MS: '0',
        WHATSAPP_TYPING_MS_PER_CHAR: '0',
        WHATSAPP_SENDS_PER_MINUTE: '2',
      }).whatsappPacing,
    ).toEqual({ debounceMs: 0, typingMsPerChar: 0, sendsPerMinute: 2 });
    for (const value of ['-1', '2.5', 'soon', '60001'])
      expect(() => loadConfig({ WHATSAPP_DEBOUNCE_MS: value })).toThrow(
        /^Invalid configuration: WHATSAPP_DEBOUNCE_MS must be/,
      );
    for (const value of ['-1', '0.5', 'fast', '1001'])
      expect(() => loadConfig({ WHATSAPP_TYPING_MS_PER_CHAR: value })).toThrow(
        /^Invalid configuration: WHATSAPP_TYPING_MS_PER_CHAR must be/,
      );
    for (const value of ['0', '-1', '1.5', 'many', '10001'])
      expect(() => loadConfig({ WHATSAPP_SENDS_PER_MINUTE: value })).toThrow(
        /^Invalid configuration: WHATSAPP_SENDS_PER_MINUTE must be/,
      );
  });

  it('answers messages delivered on connect up to 10 minutes old unless told; refuses a negative, fractional or huge window', () => {
    expect(loadConfig({}).whatsappCatchupMinutes).toBe(10);
    expect(loadConfig({ WHATSAPP_CATCHUP_MINUTES: '0' }).whatsappCatchupMinutes).toBe(0);
    expect(loadConfig({ WHATSAPP_CATCHUP_MINUTES: '60' }).whatsappCatchupMinutes).toBe(60);
    for (const value of ['-1', '2.5', 'ten', '10081'])
      expect(() => loadConfig({ WHATSAPP_CATCHUP_MINUTES: value })).toThrow(
        /^Invalid configuration: WHATSAPP_CATCHUP_MINUTES must be/,
      );
    expect(loadConfig({}).whatsappTakeoverMinutes).toBe(30);
    expect(loadConfig({ WHATSAPP_TAKEOVER_MINUTES: '0' }).whatsappTakeoverMinutes).toBe(0);
    expect(loadConfig({ WHATSAPP_TAKEOVER_MINUTES: '90' }).whatsappTakeoverMinutes).toBe(90);
    for (const value of ['-1', '2.5', 'half an hour', '10081'])
      expect(() => loadConfig({ WHATSAPP_TAKEOVER_MINUTES: value })).toThrow(
        /^Invalid configuration: WHATSAPP_TAKEOVER_MINUTES must be/,
      );
    expect(() => loadConfig({ SANDBOX_SECRET: 'short' })).toThrow(
      new ConfigError('Invalid configuration: SANDBOX_SECRET must be at least 16 characters'),
    );
    expect(() => loadConfig({ SANDBOX_INBOUND_PER_MINUTE: '0' })).toThrow(
      new ConfigError(
        'Invalid configuration: SANDBOX_INBOUND_PER_MINUTE must be at least 1 (got "0")',
      ),
    );
  });

  it('accepts port 0 and 65535', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it('counts empty strings as unset', () => {
    const config = loadConfig(Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, ''])));
    expect(config).toEqual(loadConfig({}));
  });

  it('builds the public origin from PORT when PUBLIC_URL is not set, and keeps a set one as an origin', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://contrateia.com.br' }).publicUrl).toBe(
      'https://contrateia.com.br',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:3000/' }).publicUrl).toBe(
      'http://10.0.0.5:3000',
    );
  });

  it('does not read variables it does not know', () => {
    expect(loadConfig({ SOMETHING_ELSE: 'x', NODE_ENV: 'production' })).toEqual(loadConfig({}));
  });

  const PORT_RULE = 'must be a port number (0-65535)';
  const DATABASE_URL_RULE = 'DATABASE_URL must be a URL like postgres://user@host:5432/db';
  const LOG_LEVELS = '"fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"';
  const BRAND_DOMAINS_RULE =
    'must look like pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com';

  describe('refuses bad values with one line naming the variable', () => {
    const cases: { name: string; value: string; message: string }[] = [
      { name: 'PORT', value: 'abc', message: `PORT ${PORT_RULE} (got "abc")` },
      { name: 'PORT', value: '70000', message: `PORT ${PORT_RULE} (got "70000")` },
      { name: 'PORT', value: '-1', message: `PORT ${PORT_RULE} (got "-1")` },
      { name: 'PORT', value: '80.5', message: `PORT ${PORT_RULE} (got "80.5")` },
      { name: 'DATABASE_URL', value: 'nonsense', message: DATABASE_URL_RULE },
      { name: 'DATABASE_URL', value: 'mysql://x', message: DATABASE_URL_RULE },
      {
        name: 'REDIS_URL',
        value: 'http://cache:6379',
        message: 'REDIS_URL must be a URL like redis://127.0.0.1:6379',
      },
      {
        name: 'SMTP_URL',
        value: 'http://x',
        message: 'SMTP_URL must be a URL like smtp://user:pass@host:587',
      },
      {
        name: 'WHATSAPP_WS_URL',
        value: 'https://web.whatsapp.com/ws/chat',
        message: 'WHATSAPP_WS_URL must be a URL like wss://web.whatsapp.com/ws/chat',
      },
      {
        name: 'JWT_SECRET',
        value: 'too-short',
        message: 'JWT_SECRET must be at least 32 characters',
      },
      {
        name: 'LOG_LEVEL',
        value: 'loud',
        message: `LOG_LEVEL Invalid option: expected one of ${LOG_LEVELS} (got "loud")`,
      },
      ...[
        'ftp://example.com',
        'example.com',
        'https://example.com/app',
        'https://example.com/?a=1',
        'https://example.com/#x',
        'https://user:pw@example.com',
      ].map((value) => ({
        name: 'PUBLIC_URL',
        value,
        message: `PUBLIC_URL must be an origin like https://contrateia.com.br, with no path, query or credentials`,
      })),
      {
        name: 'TRUST_PROXY',
        value: 'yes',
        message: 'TRUST_PROXY must be true or false (got "yes")',
      },
      {
        name: 'BRAND_DOMAINS',
        value: 'fr-FR=example.fr',
        message: `BRAND_DOMAINS ${BRAND_DOMAINS_RULE} (got "fr-FR=example.fr")`,
      },
    ];
    it.each(cases)('$name=$value', ({ name, value, message }) => {
      expect(configError({ [name]: value }).message).toBe(`Invalid configuration: ${message}`);
    });
  });

  it('names the value of harmless variables, to help the operator', () => {
    expect(configError({ PORT: 'abc' }).message).toBe(
      'Invalid configuration: PORT must be a port number (0-65535) (got "abc")',
    );
    expect(configError({ LOG_LEVEL: 'loud' }).message).toBe(
      `Invalid configuration: LOG_LEVEL Invalid option: expected one of ${LOG_LEVELS} (got "loud")`,
    );
  });

  it('keeps the message on one line even when the value given holds a newline', () => {
    // The value is shown escaped, as JSON writes it.
    expect(configError({ TRUST_PROXY: 'yes\nno' }).message).toBe(
      'Invalid configuration: TRUST_PROXY must be true or false (got "yes\\nno")',
    );
    expect(configError({ BRAND_DOMAINS: 'x\ny' }).message).toBe(
      `Invalid configuration: BRAND_DOMAINS ${BRAND_DOMAINS_RULE} (got "x\\ny")`,
    );
    expect(configError({ LOG_LEVEL: 'loud\r\nquiet' }).message).toBe(
      `Invalid configuration: LOG_LEVEL Invalid option: expected one of ${LOG_LEVELS} (got "loud\\r\\nquiet")`,
    );
  });

  describe('never echoes values that may hold credentials', () => {
    const cases: { name: string; value: string; secret: string; message: string }[] = [
      { name: 'DATABASE_URL', value: 'nonsense', secret: 'nonsense', message: DATABASE_URL_RULE },
      {
        name: 'DATABASE_URL',
        value: 'mysql://admin:hunter2@db.internal/app',
        secret: 'hunter2',
        message: DATABASE_URL_RULE,
      },
      {
        name: 'DATABASE_URL',
        value: 'postgres//admin:hunter2@db.internal/app',
        secret: 'hunter2',
        message: DATABASE_URL_RULE,
      },
      {
        name: 'SMTP_URL',
        value: 'http://mailer:s3cr3tpass@smtp.example.com',
        secret: 's3cr3tpass',
        message: 'SMTP_URL must be a URL like smtp://user:pass@host:587',
      },
      {
        name: 'REDIS_URL',
        value: 'http://:redispass@cache:6379',
        secret: 'redispass',
        message: 'REDIS_URL must be a URL like redis://127.0.0.1:6379',
      },
      {
        name: 'JWT_SECRET',
        value: 'short-but-secret-key',
        secret: 'short-but-secret-key',
        message: 'JWT_SECRET must be at least 32 characters',
      },
      {
        name: 'METRICS_TOKEN',
        value: 'too-short',
        secret: 'too-short',
        message: 'METRICS_TOKEN must be at least 16 characters',
      },
      {
        name: 'METRICS_TOKEN',
        value: 'long enough but spaced',
        secret: 'long enough but spaced',
        message: 'METRICS_TOKEN must be printable ASCII without spaces',
      },
    ];
    it.each(cases)('$name', ({ name, value, secret, message }) => {
      const text = configError({ [name]: value }).message;
      // The rule alone: no part of the value, however much of it the rule's example resembles.
      expect(text).toBe(`Invalid configuration: ${message}`);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(value);
    });
  });

  it('reports the first bad variable when several are bad, still on one line', () => {
    const message = configError({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://x',
    }).message;
    expect(message).toBe(`Invalid configuration: PORT ${PORT_RULE} (got "abc")`);
  });
});

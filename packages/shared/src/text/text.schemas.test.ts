import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as shared from '../index';
import { isWellFormedText, sliceWhole, textInput, toWellFormedText } from './text.schemas';

/**
 * What a client sends: every exported schema that validates a body, a query or what the sandbox's
 * phones and contacts send. Each of their texts must refuse ill-formed UTF-16 (a lone surrogate),
 * which the database cannot store as sent.
 */
const REQUEST_SCHEMAS = [
  // auth
  'emailSchema',
  'nameSchema',
  'passwordSchema',
  'otpSchema',
  'loginSchema',
  'registerFormSchema',
  'verifyFormSchema',
  'sendOtpSchema',
  'completeRegistrationSchema',
  'switchRoleSchema',
  'updateProfileSchema',
  'changePasswordSchema',
  'forgotPasswordSchema',
  'resetPasswordSchema',
  'deleteAccountSchema',
  'roleSchema',
  'otpPurposeSchema',
  // agents and the admin's agents, users, audit, language model
  'myAgentInputSchema',
  'businessProfileSchema',
  'openingPeriodSchema',
  'myCatalogueItemSchema',
  'faqEntrySchema',
  'agentNameSchema',
  'hireAgentSchema',
  'newAgentNameSchema',
  'knowledgeEntryInputSchema',
  'catalogueItemInputSchema',
  'catalogueInputSchema',
  'modelSettingsInputSchema',
  'agentConfigurationInputSchema',
  'createAgentSchema',
  'updateAgentSchema',
  'activeStatusSchema',
  'adminChatTestSchema',
  'adminUsersQuerySchema',
  'createSingleAgentUserSchema',
  'adminUserRoleSchema',
  'adminAuditQuerySchema',
  'aiSettingsInputSchema',
  // settings
  'contentSettingsSchema',
  'themeSettingsSchema',
  'systemSettingsSchema',
  // chat
  'chatTextSchema',
  'sendMessageSchema',
  'renameConversationSchema',
  'conversationsQuerySchema',
  'shortChatSchema',
  'pairingQrSchema',
  // images, logs
  'imageUploadFieldsSchema',
  'updateImageSchema',
  'listImagesQuerySchema',
  'imageFileQuerySchema',
  'listLogsQuerySchema',
  // WhatsApp and its sandbox
  'toggleAiSchema',
  'whitelistSchema',
  'assignAgentSchema',
  'whatsappSettingsSchema',
  'whatsappTextSchema',
  'whatsappPageQuerySchema',
  'sendWhatsAppMessageSchema',
  'whatsappCaptionSchema',
  'sendWhatsAppMediaFieldsSchema',
  'phoneSchema',
  'jidSchema',
  'sandboxPairSchema',
  'sandboxPairingCodeSchema',
  'pairingCodeRequestSchema',
  'blockSchema',
  'sandboxInboundSchema',
  'sandboxMediaSchema',
  'sandboxFailSendsSchema',
  'sandboxReceiptsSchema',
  'sandboxOutboundSchema',
  'sandboxNetworkSchema',
  'sandboxOwnMessageSchema',
  'sandboxEditSchema',
  'sandboxRevokeSchema',
  'sandboxReactSchema',
  'sandboxLidMappingSchema',
];

/**
 * What the server answers or stores (answers, seeds, stored configurations): texts it wrote
 * itself or took through a request schema, never read from a client as they are.
 */
const OTHER_SCHEMAS = [
  'myAgentSchema',
  'myAgentResponseSchema',
  'myAgentReplySchema',
  'myAgentsResponseSchema',
  'myAgentDocumentSchema',
  'myAgentDocumentsResponseSchema',
  'myAgentExportSchema',
  'whatsappReactionSchema',
  'whatsappMediaSchema',
  'whatsappMediaKindSchema',
  'whatsappMediaUnavailableSchema',
  'whatsappAccountExportSchema',
  'accountExportSchema',
  'accountArchiveLinkSchema',
  'adminAgentResponseSchema',
  'adminAgentSchema',
  'adminAgentsResponseSchema',
  'adminAuditResponseSchema',
  'adminChatTestResponseSchema',
  'adminSettingsResponseSchema',
  'adminUserResponseSchema',
  'adminUserSchema',
  'adminUsersResponseSchema',
  'agentCapabilitiesSchema',
  'agentConfigurationSchema',
  'businessHoursSchema',
  'agentSchema',
  'agentSeedSchema',
  'agentsResponseSchema',
  'aiSettingsSchema',
  'aiTestResponseSchema',
  'auditEntrySchema',
  'catalogueItemSchema',
  'catalogueSchema',
  'chatMessageSchema',
  'chatSenderSchema',
  'conversationResponseSchema',
  'conversationStatusSchema',
  'conversationSummarySchema',
  'conversationsResponseSchema',
  'deleteConversationResponseSchema',
  'deleteImageResponseSchema',
  'errorResponseSchema',
  'healthResponseSchema',
  'hireAgentResponseSchema',
  'imageResponseSchema',
  'imageSchema',
  'imageStatsResponseSchema',
  'imageUploadResponseSchema',
  'knowledgeEntrySchema',
  'listImagesResponseSchema',
  'listLogsResponseSchema',
  'localizedTextSchema',
  'logEntrySchema',
  'messageResponseSchema',
  'modelSettingsSchema',
  'monitorActionResponseSchema',
  'monitorQueueSchema',
  'monitorServiceSchema',
  'monitorStatusSchema',
  'monitorStorageSchema',
  'pairingQrResponseSchema',
  'profileResponseSchema',
  'publicSettingsSchema',
  'renameConversationResponseSchema',
  'sandboxPhoneEventSchema',
  'sendMessageResponseSchema',
  'sessionInfoSchema',
  'sessionResponseSchema',
  'sessionsResponseSchema',
  'shortChatResponseSchema',
  'updateProfileResponseSchema',
  'userResponseSchema',
  'userSchema',
  'userStatsResponseSchema',
  'whatsappAgentSchema',
  'whatsappCloseReasonSchema',
  'whatsappConversationDetailSchema',
  'whatsappConversationSchema',
  'whatsappDeliveryStatusSchema',
  'whatsappMessageSchema',
  'whatsappPlatformSchema',
  'whatsappSenderSchema',
  'whatsappStateSchema',
  'whatsappStatusSchema',
];

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: z.ZodType) => schema.def as unknown as Def;

/** Every string a schema takes, anywhere in it, with its path (`*` for any key or item). */
function* textsOf(
  schema: z.ZodType,
  path: string[] = [],
): Generator<{ path: string; schema: z.ZodType }> {
  const def = defOf(schema);
  const inner = (key: string) => def[key] as z.ZodType;
  switch (def.type) {
    case 'string':
      yield { path: path.join('.') || '(the value)', schema };
      return;
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>))
        yield* textsOf(value, [...path, key]);
      return;
    case 'array':
      yield* textsOf(inner('element'), [...path, '*']);
      return;
    case 'record':
      yield* textsOf(inner('keyType'), [...path, '(key)']);
      yield* textsOf(inner('valueType'), [...path, '*']);
      return;
    case 'union':
      for (const option of def.options as z.ZodType[]) yield* textsOf(option, path);
      return;
    case 'intersection':
      yield* textsOf(inner('left'), path);
      yield* textsOf(inner('right'), path);
      return;
    case 'pipe':
      yield* textsOf(inner('in'), path);
      return;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      yield* textsOf(inner('innerType'), path);
      return;
    case 'lazy':
      yield* textsOf((def.getter as () => z.ZodType)(), path);
      return;
    default:
      // numbers, booleans, enums, literals: a lone surrogate is none of them.
      return;
  }
}

const exported = Object.entries(shared as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);
const requestTexts = exported
  .filter(([name]) => REQUEST_SCHEMAS.includes(name))
  .flatMap(([name, schema]) =>
    [...textsOf(schema)].map((text) => ({ field: `${name}: ${text.path}`, schema: text.schema })),
  );

describe('texts a client sends', () => {
  it('are every exported schema told apart as a request schema or another (a new schema must be placed)', () => {
    const names = exported.map(([name]) => name).sort();
    expect(names).toEqual([...REQUEST_SCHEMAS, ...OTHER_SCHEMAS].sort());
  });

  it('number in the hundreds (the walk reaches into every request schema)', () => {
    // A walk that stopped at a wrapper would find next to nothing and check nothing.
    expect(requestTexts.length).toBeGreaterThan(150);
    const fields = requestTexts.map((text) => text.field);
    for (const field of [
      'createAgentSchema: displayName.pt-BR',
      'createAgentSchema: configuration.model.model',
      'createAgentSchema: configuration.knowledge.*.keywords.*',
      'createAgentSchema: configuration.catalogue.items.*.name.es-ES',
      'contentSettingsSchema: features.chat.description.en-US',
      'aiSettingsInputSchema: model',
      'sendWhatsAppMessageSchema: text',
      'sandboxInboundSchema: pushName',
      'completeRegistrationSchema: name',
      'updateImageSchema: title',
      'listLogsQuerySchema: search',
    ]) {
      expect(fields).toContain(field);
    }
  });

  // Half of 😀 alone, its second half alone, and a half inside a text that is otherwise fine.
  describe.each(['\ud83d', '\ude00', 'ok\ud83dok', '😀\ude00'])('with %j', (text) => {
    it.each(requestTexts)('are refused at $field', ({ schema }) => {
      const result = schema.safeParse(text);
      expect(result.success).toBe(false);
      // A text of a format (uuid, ISO date) is refused by its format; any other by the rule of well-formed text, before its own rules.
      if (!defOf(schema).format)
        expect(result.error?.issues[0]?.message).toBe('validation.textInvalid');
    });
  });
});

describe('well-formed text', () => {
  it('is any text whose surrogates come in pairs', () => {
    for (const text of ['', 'Olá', '😀', 'a😀b', '𝄞 and 👍🏽', '\uFFFD']) {
      expect(isWellFormedText(text)).toBe(true);
      expect(textInput().safeParse(text)).toEqual({ success: true, data: text });
    }
    for (const text of ['\ud83d', '\ude00', '\ude00\ud83d', 'a\ud83d😀'])
      expect(isWellFormedText(text)).toBe(false);
  });

  it('is what toWellFormedText makes of any text: each lone half becomes U+FFFD, pairs stay', () => {
    expect(toWellFormedText('a\ud83db\ude00c😀')).toBe('a\uFFFDb\uFFFDc😀');
    expect(toWellFormedText('Olá 😀')).toBe('Olá 😀');
  });

  it('is checked before the rules of the field, and the field keeps its own messages', () => {
    const name = textInput({ error: 'validation.nameRequired' })
      .trim()
      .min(2, 'validation.nameRequired')
      .max(5, 'validation.nameTooLong');
    expect(name.safeParse('\ud83d').error?.issues.map((issue) => issue.message)).toEqual([
      'validation.textInvalid',
    ]);
    expect(name.safeParse('abcdefgh\ud83d').error?.issues.map((issue) => issue.message)).toEqual([
      'validation.textInvalid',
    ]);
    expect(name.safeParse('abcdefgh').error?.issues[0]?.message).toBe('validation.nameTooLong');
    expect(name.safeParse(42).error?.issues[0]?.message).toBe('validation.nameRequired');
    expect(name.safeParse('  Ana  ').data).toBe('Ana');
  });
});

describe('sliceWhole', () => {
  it('cuts to a length, one unit fewer where it would split a pair', () => {
    expect(sliceWhole('abc', 5)).toBe('abc');
    expect(sliceWhole('abcdef', 3)).toBe('abc');
    expect(sliceWhole('ab😀c', 3)).toBe('ab');
    expect(sliceWhole('ab😀c', 4)).toBe('ab😀');
    expect(isWellFormedText(sliceWhole('😀'.repeat(10), 7))).toBe(true);
  });
});

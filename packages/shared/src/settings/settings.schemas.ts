import { z } from 'zod';
import type { LocalizedText } from '../agents/agents.schemas';
import { LANGUAGES, type Language } from '../i18n/languages';
import { textInput } from '../text/text.schemas';

/**
 * The admin's settings: content texts, theme colours and system rules. Shared by the server, which
 * validates, stores and enforces them, and the admin panel's forms. Messages are translation keys,
 * as in auth.schemas.ts.
 */

export const SETTINGS_SECTIONS = ['content', 'theme', 'system'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export const SETTING_TITLE_MAX = 100;
export const SETTING_TEXT_MAX = 300;

/** Control characters (line breaks included) and unassigned or private-use ones. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/u;

const settingText = (max: number) =>
  textInput({ error: 'adminValidation.settingTextInvalid' })
    .max(
      max,
      max === SETTING_TITLE_MAX
        ? 'adminValidation.settingTitleTooLong'
        : 'adminValidation.settingTextTooLong',
    )
    .refine((text) => !INVISIBLE.test(text), 'adminValidation.settingTextInvalid')
    .transform((text) => text.trim());

/** One text in each language; an empty one falls back to the built-in translation. */
const localized = (max: number) =>
  z.strictObject(
    Object.fromEntries(LANGUAGES.map((language) => [language, settingText(max)])) as Record<
      Language,
      ReturnType<typeof settingText>
    >,
  );

const feature = z.strictObject({
  title: localized(SETTING_TITLE_MAX),
  description: localized(SETTING_TEXT_MAX),
});

export const contentSettingsSchema = z.strictObject({
  appTitle: localized(SETTING_TITLE_MAX),
  appSubtitle: localized(SETTING_TEXT_MAX),
  logoText: localized(SETTING_TITLE_MAX),
  loginTitle: localized(SETTING_TITLE_MAX),
  loginSubtitle: localized(SETTING_TEXT_MAX),
  registerTitle: localized(SETTING_TITLE_MAX),
  registerSubtitle: localized(SETTING_TEXT_MAX),
  features: z.strictObject({ chat: feature, analytics: feature, management: feature }),
});
export type ContentSettings = z.infer<typeof contentSettingsSchema>;

/** `#rrggbb`, nothing else: a colour is written into a stylesheet and can never carry CSS. */
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
const color = textInput({ error: 'adminValidation.colorInvalid' })
  .regex(COLOR_PATTERN, 'adminValidation.colorInvalid')
  .transform((value) => value.toLowerCase());

export const THEME_COLORS = [
  'primaryColor',
  'secondaryColor',
  'backgroundColor',
  'textColor',
  'cardBackground',
  'buttonColor',
] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];

export const themeSettingsSchema = z.strictObject(
  Object.fromEntries(THEME_COLORS.map((name) => [name, color])) as Record<ThemeColor, typeof color>,
);
export type ThemeSettings = z.infer<typeof themeSettingsSchema>;

export const MAX_FILE_SIZE_MB = { min: 1, max: 100 };
export const SESSION_TIMEOUT_RANGE = { min: 5, max: 1440 };
export const ALLOWED_FILE_TYPES_MAX = 30;

const flag = z.boolean({ error: 'validation.booleanRequired' });

export const systemSettingsSchema = z.strictObject({
  maintenanceMode: flag,
  registrationEnabled: flag,
  emailVerification: flag,
  /** Whole megabytes. */
  maxFileSize: z
    .number({ error: 'adminValidation.maxFileSizeRange' })
    .int('adminValidation.maxFileSizeRange')
    .min(MAX_FILE_SIZE_MB.min, 'adminValidation.maxFileSizeRange')
    .max(MAX_FILE_SIZE_MB.max, 'adminValidation.maxFileSizeRange'),
  /** Lower-case extensions without the dot. */
  allowedFileTypes: z
    .array(
      textInput({ error: 'adminValidation.fileTypeInvalid' }).regex(
        /^[a-z0-9]{1,10}$/,
        'adminValidation.fileTypeInvalid',
      ),
      {
        error: 'adminValidation.fileTypesRequired',
      },
    )
    .min(1, 'adminValidation.fileTypesRequired')
    .max(ALLOWED_FILE_TYPES_MAX, 'adminValidation.fileTypesTooMany')
    .refine((types) => new Set(types).size === types.length, 'adminValidation.fileTypesRepeated'),
  /** Minutes a session may stay idle. */
  sessionTimeout: z
    .number({ error: 'adminValidation.sessionTimeoutRange' })
    .int('adminValidation.sessionTimeoutRange')
    .min(SESSION_TIMEOUT_RANGE.min, 'adminValidation.sessionTimeoutRange')
    .max(SESSION_TIMEOUT_RANGE.max, 'adminValidation.sessionTimeoutRange'),
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

const emptyText = (): LocalizedText => ({ 'pt-BR': '', 'en-US': '', 'es-ES': '' });
const emptyFeature = () => ({ title: emptyText(), description: emptyText() });

/** What a new install starts with; content texts empty, so the built-in translations show. */
export function defaultSettings(): {
  content: ContentSettings;
  theme: ThemeSettings;
  system: SystemSettings;
} {
  return {
    content: {
      appTitle: emptyText(),
      appSubtitle: emptyText(),
      logoText: emptyText(),
      loginTitle: emptyText(),
      loginSubtitle: emptyText(),
      registerTitle: emptyText(),
      registerSubtitle: emptyText(),
      features: { chat: emptyFeature(), analytics: emptyFeature(), management: emptyFeature() },
    },
    theme: {
      primaryColor: '#667eea',
      secondaryColor: '#764ba2',
      backgroundColor: '#f5f6fb',
      textColor: '#1f2937',
      cardBackground: '#ffffff',
      buttonColor: '#5a67d8',
    },
    system: {
      maintenanceMode: false,
      registrationEnabled: true,
      emailVerification: true,
      maxFileSize: 10,
      allowedFileTypes: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx'],
      sessionTimeout: 30,
    },
  };
}

export const adminSettingsResponseSchema = z.object({
  contentSettings: contentSettingsSchema,
  themeSettings: themeSettingsSchema,
  systemSettings: systemSettingsSchema,
});
export type AdminSettingsResponse = z.infer<typeof adminSettingsResponseSchema>;

/** What anyone may read, signed in or not (GET /api/settings/public). */
export const publicSettingsSchema = z.object({
  theme: themeSettingsSchema,
  content: contentSettingsSchema,
  registrationEnabled: z.boolean(),
  emailVerification: z.boolean(),
  maintenanceMode: z.boolean(),
  uploads: z.object({ maxFileSize: z.number().int(), allowedFileTypes: z.array(z.string()) }),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** What anyone may see of the settings (GET /api/settings/public). */
export function publicSettingsOf({
  content,
  theme,
  system,
}: {
  content: ContentSettings;
  theme: ThemeSettings;
  system: SystemSettings;
}): PublicSettings {
  return {
    theme,
    content,
    registrationEnabled: system.registrationEnabled,
    emailVerification: system.emailVerification,
    maintenanceMode: system.maintenanceMode,
    uploads: { maxFileSize: system.maxFileSize, allowedFileTypes: system.allowedFileTypes },
  };
}

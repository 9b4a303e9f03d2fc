export * from './auth/auth.schemas';
export * from './system/system.schemas';
export * from './i18n/languages';
export { sharedMessages } from './locales/index';
export * from './agents/agents.schemas';
export * from './chat/chat.schemas';
export * from './web/web-pages';
export * from './i18n/time-zones';

import { describe, expect, it } from 'vitest';
import { createTranslator, languageOf, timeZoneOf } from './i18n';

describe('languageOf', () => {
  it('takes the best-weighted supported language of Accept-Language', () => {
    expect(languageOf(undefined)).toBe('pt-BR');
    expect(languageOf('en-US')).toBe('en-US');
    expect(languageOf('fr-FR, es;q=0.8, en;q=0.5')).toBe('es-ES');
    expect(languageOf('en;q=0.4, pt-PT;q=0.9')).toBe('pt-BR');
    expect(languageOf('de, fr')).toBe('pt-BR');
    expect(languageOf('garbage;;;q=abc')).toBe('pt-BR');
  });
});

describe('createTranslator', () => {
  it('translates shared messages with interpolation in each language', () => {
    const t = createTranslator();
    expect(t('en-US')('auth.alreadyInMode', { role: 'admin' })).toBe('Already in admin mode');
    expect(t('pt-BR')('auth.otpInvalid')).toBe(
      'Código inválido. Confira o código e tente novamente.',
    );
    expect(t('es-ES')('validation.passwordsDoNotMatch')).toBe('Las contraseñas no coinciden');
  });
});

describe('timeZoneOf', () => {
  it("takes the browser's zone when the runtime knows it, else the language's default", () => {
    expect(timeZoneOf('Asia/Tokyo', 'pt-BR')).toBe('Asia/Tokyo');
    expect(timeZoneOf('UTC', 'es-ES')).toBe('UTC');
    expect(timeZoneOf(undefined, 'pt-BR')).toBe('America/Sao_Paulo');
    expect(timeZoneOf('Mars/Olympus_Mons', 'es-ES')).toBe('Europe/Madrid');
    expect(timeZoneOf('<script>', 'en-US')).toBe('UTC');
    expect(timeZoneOf(['Europe/Lisbon', 'Asia/Tokyo'], 'pt-BR')).toBe('Europe/Lisbon');
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_DOMAINS, languageFromTag, parseBrandDomains } from './languages';

describe('languageFromTag', () => {
  it('maps each primary subtag to its interface language', () => {
    expect(languageFromTag('pt')).toBe('pt-BR');
    expect(languageFromTag('pt-PT')).toBe('pt-BR');
    expect(languageFromTag('EN-gb')).toBe('en-US');
    expect(languageFromTag('es-MX')).toBe('es-ES');
    expect(languageFromTag('fr-FR')).toBeUndefined();
    expect(languageFromTag('')).toBeUndefined();
  });
});

describe('parseBrandDomains', () => {
  it('reads the default map', () => {
    expect(parseBrandDomains(DEFAULT_BRAND_DOMAINS)).toEqual({
      'pt-BR': 'contrateia.com.br',
      'en-US': 'hireyourai.com',
      'es-ES': 'hireyourai.com',
    });
  });
  it('ignores unknown languages and empty domains, and lower-cases domains', () => {
    expect(parseBrandDomains('fr-FR=x.fr, pt-BR = Example.COM ,en-US=')).toEqual({
      'pt-BR': 'example.com',
    });
  });
});

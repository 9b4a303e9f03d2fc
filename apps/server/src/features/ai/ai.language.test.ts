import { describe, expect, it } from 'vitest';
import { detectLanguage } from './ai.language';
import { expandChatSpelling } from './ai.spelling';

describe('detectLanguage', () => {
  it('finds the language of a question, whatever the interface language', () => {
    expect(detectLanguage('What is this app for?', 'pt-BR')).toBe('en-US');
    expect(detectLanguage('¿cuánto cuesta la consultoría?', 'pt-BR')).toBe('es-ES');
    expect(detectLanguage('como faço para contratar um agente?', 'en-US')).toBe('pt-BR');
  });

  it('keeps the interface language when the question is too short or unclear', () => {
    expect(detectLanguage('oi', 'es-ES')).toBe('es-ES');
    expect(detectLanguage('2 + 2', 'en-US')).toBe('en-US');
    expect(detectLanguage('cerrar sesion', 'es-ES')).toBe('es-ES');
    expect(detectLanguage('👍', 'pt-BR')).toBe('pt-BR');
  });

  it('answers a text asked again as the first time, for each interface language of its own', () => {
    for (let i = 0; i < 2; i += 1) {
      expect(detectLanguage('What is this app for?', 'es-ES')).toBe('en-US');
      expect(detectLanguage('cerrar sesion', 'es-ES')).toBe('es-ES');
      expect(detectLanguage('cerrar sesion', 'en-US')).toBe('en-US');
      expect(detectLanguage(`${'como faço para contratar um agente? '.repeat(40)}`, 'en-US')).toBe(
        'pt-BR',
      );
    }
  });

  it("trusts chat spelling only the interface language uses ('pra', 'zap')", () => {
    expect(detectLanguage('da pra conectar o zap?', 'pt-BR')).toBe('pt-BR');
  });

  it('reads the small words only one language has where the letters are a close call', () => {
    // Words both languages share ("consulta", "higiene", "oral") read as Spanish; "uma" and
    // "com" are Portuguese.
    expect(detectLanguage('Quanto custa uma consulta de higiene oral com flúor?', 'pt-BR')).toBe(
      'pt-BR',
    );
    // "to" is chat spelling of Portuguese ("estou"), but "how much … that … need" say English.
    expect(detectLanguage('how much to pull a tooth that doesnt need surgery?', 'pt-BR')).toBe(
      'en-US',
    );
  });
});

describe('expandChatSpelling', () => {
  it('writes out the abbreviations of each language, and only whole words', () => {
    expect(expandChatSpelling('vc sabe q dia e hj?', 'pt-BR')).toBe('voce sabe que dia e hoje?');
    expect(expandChatSpelling('thx, can u help pls', 'en-US')).toBe('thanks, can you help please');
    expect(expandChatSpelling('xq no funciona tmb', 'es-ES')).toBe('porque no funciona tambien');
    expect(expandChatSpelling('vcs querem', 'pt-BR')).toBe('voces querem');
  });
});

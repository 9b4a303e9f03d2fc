import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import whatsappEnUS from '@/locales/whatsapp/en-US.json';
import whatsappEsES from '@/locales/whatsapp/es-ES.json';
import whatsappPtBR from '@/locales/whatsapp/pt-BR.json';
import { contactDisplayName, formatPhoneNumber } from './contact-name';

async function tOf(lng: 'pt-BR' | 'en-US' | 'es-ES') {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: {
      'pt-BR': { translation: whatsappPtBR },
      'en-US': { translation: whatsappEnUS },
      'es-ES': { translation: whatsappEsES },
    },
  });
  return i18n.t;
}

describe('a WhatsApp contact’s name on the page', () => {
  it('writes Brazilian numbers as people do, others as + and the digits', () => {
    expect(formatPhoneNumber('5511987654321')).toBe('+55 11 98765-4321');
    expect(formatPhoneNumber('554133334444')).toBe('+55 41 3333-4444');
    expect(formatPhoneNumber('14155550100')).toBe('+14155550100');
  });

  it('is the push name, else the number, else a neutral label in each language (never LID digits)', async () => {
    const t = await tOf('pt-BR');
    expect(contactDisplayName({ contact_name: 'Bruna', contact_number: '5511987654321' }, t)).toBe(
      'Bruna',
    );
    expect(contactDisplayName({ contact_name: '', contact_number: '5511987654321' }, t)).toBe(
      '+55 11 98765-4321',
    );
    expect(
      contactDisplayName({ contact_name: '5511987654321', contact_number: '5511987654321' }, t),
    ).toBe('+55 11 98765-4321');
    expect(contactDisplayName({ contact_name: '', contact_number: '' }, t)).toBe(
      'Contato (número oculto)',
    );
    const hidden = { contact_name: '', contact_number: '' };
    expect(contactDisplayName(hidden, await tOf('en-US'))).toBe('Contact (number hidden)');
    expect(contactDisplayName(hidden, await tOf('es-ES'))).toBe('Contacto (número oculto)');
  });
});

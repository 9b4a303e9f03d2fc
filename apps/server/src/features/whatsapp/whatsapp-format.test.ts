import { describe, expect, it } from 'vitest';
import { toWhatsAppText } from './whatsapp-format';

const SITE = 'https://contrateia.example';

describe('toWhatsAppText', () => {
  it('turns Markdown emphasis into WhatsApp’s marks', () => {
    expect(toWhatsAppText('**Hire an agent** and _then_ wait for `code`', SITE)).toBe(
      '*Hire an agent* and _then_ wait for `code`',
    );
    expect(toWhatsAppText('*one* __two__', SITE)).toBe('_one_ *two*');
  });

  it('keeps the marks against the words, as WhatsApp needs them', () => {
    expect(toWhatsAppText('a ** b** c', SITE)).toBe('a ** b** c');
    expect(toWhatsAppText('**bold **x', SITE)).toBe('**bold **x');
    expect(toWhatsAppText('**bold** x', SITE)).toBe('*bold* x');
  });

  it('gives a link its address, a page of this site as a full address', () => {
    expect(toWhatsAppText('Page: [/dashboard](/dashboard)', SITE)).toBe(
      'Page: https://contrateia.example/dashboard',
    );
    expect(toWhatsAppText('See [your profile](/profile).', `${SITE}/`)).toBe(
      'See your profile (https://contrateia.example/profile).',
    );
    expect(toWhatsAppText('[docs](https://example.org/a)', SITE)).toBe(
      'docs (https://example.org/a)',
    );
    expect(toWhatsAppText('<https://example.org>', SITE)).toBe('https://example.org');
    // A reference link too; its definition is not shown, and one reply's definitions are not the next one's.
    expect(toWhatsAppText('See [the plans][p].\n\n[p]: /pricing', SITE)).toBe(
      'See the plans (https://contrateia.example/pricing).',
    );
    expect(toWhatsAppText('See [the plans][p].', SITE)).toBe('See [the plans][p].');
  });

  it('writes headings in bold, lists as lines, code as blocks, paragraphs apart', () => {
    const markdown = [
      '# Plans',
      '',
      'Two of them:',
      '',
      '- Basic',
      '- Pro',
      '  1. monthly',
      '  2. yearly',
      '',
      '```',
      'x = 1',
      '```',
      '',
      '> quoted',
      '> text',
    ].join('\n');
    expect(toWhatsAppText(markdown, SITE)).toBe(
      [
        '*Plans*',
        '',
        'Two of them:',
        '',
        '- Basic',
        '- Pro',
        '  1. monthly',
        '  2. yearly',
        '',
        '```',
        'x = 1',
        '```',
        '',
        '> quoted',
        '> text',
      ].join('\n'),
    );
    expect(toWhatsAppText('3. three\n4. four', SITE)).toBe('3. three\n4. four');
  });

  it('leaves plain text as it is, arithmetic stars included', () => {
    expect(toWhatsAppText('2 * 3 * 4 = 24', SITE)).toBe('2 * 3 * 4 = 24');
    expect(toWhatsAppText('Olá! Como posso ajudar?', SITE)).toBe('Olá! Como posso ajudar?');
    expect(toWhatsAppText('line one  \nline two', SITE)).toBe('line one\nline two');
  });
});

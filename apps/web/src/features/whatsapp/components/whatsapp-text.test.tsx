// @vitest-environment happy-dom
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WhatsAppText } from '@/features/whatsapp/components/whatsapp-text';

// The owner reads a message as the contact's phone shows it: WhatsApp's marks styled, not typed.

function html(text: string): string {
  return render(
    <p>
      <WhatsAppText text={text} />
    </p>,
  ).container.querySelector('p')!.innerHTML;
}

describe('WhatsApp’s text styles', () => {
  it('shows bold, italic, strikethrough and code as the phone does', () => {
    expect(html('Consulta: *R$ 150,00* _à vista_')).toBe(
      'Consulta: <strong>R$ 150,00</strong> <em>à vista</em>',
    );
    expect(html('~R$ 200~ agora *R$ 150*!')).toBe('<s>R$ 200</s> agora <strong>R$ 150</strong>!');
    expect(html('Use o código `SORRISO10`.')).toBe('Use o código <code>SORRISO10</code>.');
    expect(html('*_as duas_*')).toBe('<strong><em>as duas</em></strong>');
  });

  it('keeps a block of code as typed, marks and all', () => {
    expect(html('Veja:\n```*não* _muda_```')).toBe(
      'Veja:\n<code class="wa-text__block">*não* _muda_</code>',
    );
  });

  it('leaves marks WhatsApp does not read as marks', () => {
    for (const text of [
      '2*3*4 = 24',
      'arquivo_final_v2.pdf',
      '* lista com asterisco',
      '*sem fechar',
      'um * solto * aqui',
      '*duas\nlinhas*',
      'email@exemplo.com e ~ til',
    ])
      expect(html(text)).toBe(text);
  });

  it('never reads text as HTML', () => {
    expect(html('*<img src=x onerror=alert(1)>*')).toBe(
      '<strong>&lt;img src=x onerror=alert(1)&gt;</strong>',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { isStop, recipientLanguage, sendRequestOf } from './whatsapp.relay-text';
import { moderate } from './whatsapp.relay-moderation';

describe('a request to relay, as a person writes it', () => {
  it.each([
    ['envie para (11) 98888-7777: Oi, tudo bem?', '5511988887777', 'Oi, tudo bem?'],
    ['Manda pra 11 98888 7777 dizendo que o jantar é às 8', '5511988887777', 'o jantar é às 8'],
    ['+55 11 98888 7777: Oi', '5511988887777', 'Oi'],
    ['(11) 98888-7777 - "Saudades!"', '5511988887777', 'Saudades!'],
    ['send "miss you" to +55 11 98765-4321', '5511987654321', 'miss you'],
    ['send to +1 212 555 0100: hi there', '12125550100', 'hi there'],
    ['envía a +34 612 345 678: hola', '34612345678', 'hola'],
    ['envie uma mensagem para (21) 99876-5432', '5521998765432', ''],
  ])('%s', (message, digits, text) => {
    const request = sendRequestOf(message);
    expect(request).toMatchObject({ recipient: { digits }, text });
  });

  it('shows a number as WhatsApp does, with its country', () => {
    expect(sendRequestOf('(11) 98888-7777: oi')).toMatchObject({
      recipient: { shown: '+55 11 98888 7777', country: 'BR' },
    });
  });

  it('asks again when the digits make no number, and leaves other messages to the agent', () => {
    expect(sendRequestOf('envie para 123456789: oi')).toBe('noNumber');
    expect(sendRequestOf('como funciona?')).toBeUndefined();
    expect(sendRequestOf('meu número é (11) 98888-7777')).toBeUndefined();
  });
});

describe('STOP', () => {
  it.each(['STOP', 'stop', 'Pare!', ' sair. ', 'ALTO', 'Páre', 'stop 🛑'])('%s opts out', (text) =>
    expect(isStop(text)).toBe(true),
  );
  it.each(['não pare de escrever', 'stop it please', 'parece bom', ''])('%s does not', (text) =>
    expect(isStop(text)).toBe(false),
  );
});

describe('the recipient’s language', () => {
  it('is their country’s when it is one of ours, else Portuguese', () => {
    expect(recipientLanguage('BR')).toBe('pt-BR');
    expect(recipientLanguage('AR')).toBe('es-ES');
    expect(recipientLanguage('US')).toBe('en-US');
    expect(recipientLanguage('FR')).toBe('pt-BR');
    expect(recipientLanguage(undefined)).toBe('pt-BR');
  });
});

describe('the builtin moderation', () => {
  it.each([
    ['Vou te matar', 'threat'],
    ['sei onde você mora', 'threat'],
    ['I will kill you', 'threat'],
    ['te voy a matar', 'threat'],
    ['sua vagabunda', 'harassment'],
    ['you are a slut', 'harassment'],
    ['eres un pendejo', 'harassment'],
    ['Ganhe dinheiro: clique aqui', 'spam'],
    ['veja https://example.com/premio', 'spam'],
    ['compre em www.loja.com', 'spam'],
    ['click here to claim', 'spam'],
  ])('%s is refused as %s', (text, reason) => expect(moderate(text)).toBe(reason));

  it.each([
    'Oi, tudo bem? Saudades de você.',
    'Parabéns pelo aniversário!',
    'Happy birthday, see you at 8.',
    '¿Nos vemos mañana a las 7?',
  ])('%s goes', (text) => expect(moderate(text)).toBeUndefined());
});

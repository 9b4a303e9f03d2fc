import { describe, expect, it } from 'vitest';
import { asksForPerson } from './whatsapp.handoff';

describe('asksForPerson', () => {
  it.each([
    'Quero falar com um atendente',
    'ATENDENTE',
    'tem como eu falar com alguém?',
    'posso conversar com uma pessoa de verdade?',
    'vc é robô? quero um humano',
    'Falar com a recepção',
    'Can I talk to a human?',
    'I want to speak with someone',
    'is there a real person there?',
    '¿Puedo hablar con una persona?',
    'quiero hablar con un asesor',
    'prefiero una persona real',
  ])('hears a person asked for in "%s"', (text) => {
    expect(asksForPerson(text)).toBe(true);
  });

  it.each([
    'Qual o horário de atendimento?',
    'Vocês abrem sábado?',
    'Trabalho com recursos humanos, vocês atendem empresas?',
    'Quanto custa a limpeza?',
    'What are your opening hours?',
    '¿Cuánto cuesta el blanqueamiento?',
  ])('hears no such request in "%s"', (text) => {
    expect(asksForPerson(text)).toBe(false);
  });
});

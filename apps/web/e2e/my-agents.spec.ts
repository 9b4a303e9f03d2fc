import fs from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import type { MyAgentInput } from '@contrateia/shared';
import { chatReady, entries, messagesRegion, signedInUser } from './chat-helpers';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';

// "Meus agentes": a business makes its own agent through the form, with the example clinic's
// data, finds it in its list and asks its chat page a price from the catalogue it entered.

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The example business (a dental clinic in Curitiba), as a POST /api/my-agents body. */
const CLINIC = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'apps/server/test/examples/clinica-sorriso.json'), 'utf8'),
) as MyAgentInput;
const CLEANING = CLINIC.catalogue!.find((item) => item.name.startsWith('Limpeza'))!;
const INSURANCE = CLINIC.faq![0]!;
const MONDAY_MORNING = CLINIC.business.hours![0]!;

const SIZES = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** axe, no sideways scroll on a phone, and a screenshot, at a desktop's width and a phone's. */
async function checkAtBothSizes(page: Page, testInfo: TestInfo, where: string, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectNoSeriousViolations(page, `${where} at ${size.width}px`);
    await expectNoSidewaysScroll(page, `${where} at ${size.width}px`);
    await screenshot(page, testInfo, `my-agents-${name}-${size.width}`);
  }
  await page.setViewportSize(SIZES[0]);
}

test('a business creates its own agent from its data, finds it listed, and its chat answers a price it entered', async ({
  page,
  api,
}, testInfo) => {
  await signedInUser(page, api, { prefix: 'clinica' });
  await page.goto('/dashboard');
  await page
    .getByRole('navigation', { name: 'Navegação principal' })
    .getByRole('link', { name: 'Meus agentes' })
    .click();

  // No agent yet: what one is, and the way to make it.
  await expect(page).toHaveURL(/\/my-agents$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meus agentes' })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Você ainda não tem agentes próprios' }),
  ).toBeVisible();
  await checkAtBothSizes(page, testInfo, 'the empty list', 'list-empty');
  await page.getByRole('link', { name: 'Criar agente' }).click();

  await expect(page).toHaveURL(/\/my-agents\/new$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Criar agente' })).toBeVisible();
  // Nothing written: refused on its field, in Portuguese, before anything is sent.
  await page.getByRole('button', { name: 'Criar agente' }).click();
  const businessName = page.getByRole('textbox', { name: 'Nome do negócio' });
  await expect(businessName).toBeFocused();
  await expect(businessName).toHaveAccessibleDescription('O nome do negócio é obrigatório');
  await expect(page.getByRole('textbox', { name: 'Nome do agente' })).toHaveAccessibleDescription(
    /O nome do agente é obrigatório/,
  );

  // Negócio
  await businessName.fill(CLINIC.business.name);
  await page.getByRole('textbox', { name: 'Sobre o negócio' }).fill(CLINIC.business.about);
  await page.getByRole('textbox', { name: 'Endereço (opcional)' }).fill(CLINIC.business.address!);
  await page.getByRole('textbox', { name: 'Telefone (opcional)' }).fill(CLINIC.business.phone!);
  await expect(page.getByRole('combobox', { name: 'Fuso horário' })).toHaveValue(
    'America/Sao_Paulo',
  );

  // Horários: Monday morning, as the clinic opens.
  const monday = page.getByRole('group', { name: 'Segunda-feira' });
  await expect(monday).toContainText('Fechado');
  await monday.getByRole('button', { name: 'Adicionar horário' }).click();
  const opens = monday.getByLabel('Abre');
  await expect(opens).toBeFocused();
  await opens.fill(MONDAY_MORNING.open);
  await monday.getByLabel('Fecha').fill(MONDAY_MORNING.close);

  // Catálogo: the cleaning, its price with a comma.
  await page.getByRole('button', { name: 'Adicionar item' }).click();
  const item = page.getByRole('group', { name: 'Item 1' });
  await expect(item.getByRole('textbox', { name: 'Nome' })).toBeFocused();
  await item.getByRole('textbox', { name: 'Nome' }).fill(CLEANING.name);
  await item
    .getByRole('textbox', { name: 'Preço (R$)' })
    .fill(String(CLEANING.price).replace('.', ','));
  await item.getByRole('textbox', { name: 'Unidade (opcional)' }).fill(CLEANING.unit!);
  await item.getByRole('textbox', { name: 'Descrição (opcional)' }).fill(CLEANING.description!);

  // Perguntas frequentes: insurance, with its other wordings a line each.
  await page.getByRole('button', { name: 'Adicionar pergunta' }).click();
  const question = page.getByRole('group', { name: 'Pergunta 1' });
  await question.getByRole('textbox', { name: 'Pergunta', exact: true }).fill(INSURANCE.question);
  await question.getByRole('textbox', { name: 'Resposta' }).fill(INSURANCE.answer);
  await question
    .getByRole('textbox', { name: 'Outras formas de perguntar (opcional)' })
    .fill(INSURANCE.alternates!.join('\n'));

  // Instruções
  await page.getByRole('textbox', { name: 'Nome do agente' }).fill(CLINIC.displayName);
  await page
    .getByRole('textbox', { name: 'Descrição (opcional)' })
    .last()
    .fill(CLINIC.description!);
  await page.getByRole('textbox', { name: 'Instruções (opcional)' }).fill(CLINIC.instructions!);

  await page.getByRole('button', { name: 'Criar agente' }).click();

  // Created: its own page, saying so, with the test chat beside the form.
  await expect(page).toHaveURL(/\/my-agents\/[0-9a-f-]{36}$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Agente Clínica Sorriso criado' }),
  ).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Editar Clínica Sorriso' }),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'Segunda-feira' }).getByLabel('Abre')).toHaveValue(
    MONDAY_MORNING.open,
  );
  // The test chat answers from what was saved.
  const tester = page.getByRole('region', { name: 'Testar Clínica Sorriso' });
  await expect(tester).toContainText('Ele responde com o que foi salvo por último.');
  await tester
    .getByRole('textbox', { name: 'Mensagem para Clínica Sorriso' })
    .fill('vocês atendem convênio?');
  await tester.getByRole('button', { name: 'Enviar' }).click();
  await expect(tester.getByRole('log')).toContainText('Odontoprev');
  await checkAtBothSizes(page, testInfo, 'the agent form', 'form');

  // Listed, with its business.
  await page
    .getByRole('navigation', { name: 'Navegação principal' })
    .getByRole('link', { name: 'Meus agentes' })
    .click();
  await expect(page).toHaveURL(/\/my-agents$/);
  const card = page
    .getByRole('list', { name: 'Seus agentes' })
    .getByRole('listitem', { name: CLINIC.displayName });
  await expect(card.getByRole('heading', { name: CLINIC.displayName })).toBeVisible();
  await expect(card).toContainText(CLINIC.business.name);
  await expect(card).toContainText('1 item');
  await expect(page.getByText('1 de 10 agentes')).toBeVisible();
  await checkAtBothSizes(page, testInfo, 'the list with one agent', 'list');

  // Its chat page answers the price entered, in reais.
  await card.getByRole('link', { name: 'Conversar com Clínica Sorriso' }).click();
  await expect(page).toHaveURL(/\/agent\/clinica-sorriso$/);
  const messages = messagesRegion(page, 'Mensagens com Clínica Sorriso');
  await chatReady(messages);
  await page
    .getByRole('textbox', { name: 'Mensagem para Clínica Sorriso' })
    .fill('quanto custa a limpeza?');
  await page.getByRole('button', { name: 'Enviar' }).click();
  const reply = entries(messages).last();
  await expect(reply).toContainText(/R\$\s?180,00/);
  // A greeting said with who writes, stretched as people type it, is answered as a greeting.
  await page
    .getByRole('textbox', { name: 'Mensagem para Clínica Sorriso' })
    .fill('boa noitee, aqui é a Marta, sou nova na cidade');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(entries(messages).last()).toContainText('Olá! Em que posso ajudar?');
  await screenshot(page, testInfo, 'my-agents-chat');
});

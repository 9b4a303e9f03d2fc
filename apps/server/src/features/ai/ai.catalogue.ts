import type { Catalogue, CatalogueItem, KnowledgeEntry, Language } from '@contrateia/shared';
import type { Translate } from '@/lib/i18n';

/**
 * An agent's catalogue as knowledge entries in one language, so that both engines search and
 * quote it like the rest of what the agent knows. Each entry is made from one item, price
 * included: an answer that names an item states that item's price, written for the language
 * of the answer ("R$ 1.800,00" in pt-BR, "R$1,800.00" in en-US).
 */
export function catalogueEntries(
  catalogue: Catalogue | undefined,
  language: Language,
  t: Translate,
): KnowledgeEntry[] {
  if (!catalogue) return [];
  return catalogue.items.map((item) => ({
    // Prefixed so that an item never shares an id with a knowledge entry of the same agent.
    id: `catalogue.${item.id}.${language}`,
    language,
    title: item.name[language],
    content: `${item.description[language]}\n\n${priceLine(item, catalogue.currency, language, t)}`,
    keywords: item.keywords[language],
  }));
}

/** "Preço: R$ 1.800,00 (por mês)." */
function priceLine(
  item: CatalogueItem,
  currency: string,
  language: Language,
  t: Translate,
): string {
  const amount = priceFormat(language, currency).format(item.price);
  if (item.unitText !== undefined)
    return item.unitText
      ? t('engine.catalogue.pricePer', { amount, unit: item.unitText })
      : t('engine.catalogue.priceOnly', { amount });
  return t('engine.catalogue.price', { amount, unit: t(`engine.catalogue.${item.unit}`) });
}

// Intl formatters cost far more to make than to use: one per language and currency, kept.
const priceFormats = new Map<string, Intl.NumberFormat>();

function priceFormat(language: Language, currency: string): Intl.NumberFormat {
  const key = `${language} ${currency}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
    });
    priceFormats.set(key, format);
  }
  return format;
}

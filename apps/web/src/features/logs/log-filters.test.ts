import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDraft,
  draftOf,
  EMPTY_DRAFT,
  filtersFromSearch,
  isoToLocal,
  localToIso,
  searchOfFilters,
} from '@/features/logs/log-filters';

// The logs page's filters: the address they live in, and the times typed in the browser's zone
// sent as the ISO times with offset that the shared schema (and so the server) takes.

/** Runs the tests of a block with the process in `zone` (Node applies a change of TZ at once). */
function inZone(zone: string) {
  const before = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}

describe('in São Paulo (UTC−3)', () => {
  inZone('America/Sao_Paulo');

  it('sends a typed start as the start of its minute, and an end as its last millisecond', () => {
    expect(localToIso('2025-03-10T14:30')).toBe('2025-03-10T14:30:00.000-03:00');
    expect(localToIso('2025-03-10T14:30', { end: true })).toBe('2025-03-10T14:30:59.999-03:00');
    expect(localToIso('2025-03-10T14:30:20')).toBe('2025-03-10T14:30:20.000-03:00');
  });

  it('shows an ISO time of any zone in the local one', () => {
    expect(isoToLocal('2025-03-10T17:30:00.000Z')).toBe('2025-03-10T14:30');
    expect(isoToLocal('2025-03-11T01:00:00+05:30')).toBe('2025-03-10T16:30');
    expect(isoToLocal('nonsense')).toBe('');
    expect(isoToLocal(undefined)).toBe('');
  });

  it('gives times the shared schema takes, and the same filters back from the address', () => {
    const { filters, errors } = checkDraft({
      level: 'warn',
      category: 'auth',
      from: '2025-03-10T08:00',
      to: '2025-03-10T18:45',
      search: '  senha  ',
    });
    expect(errors).toEqual({});
    expect(filters).toEqual({
      level: 'warn',
      category: 'auth',
      from: '2025-03-10T08:00:00.000-03:00',
      to: '2025-03-10T18:45:59.999-03:00',
      search: 'senha',
    });
    const search = searchOfFilters(filters);
    expect(search).toBe(
      '?level=warn&category=auth&from=2025-03-10T08%3A00%3A00.000-03%3A00&to=2025-03-10T18%3A45%3A59.999-03%3A00&search=senha',
    );
    // Read back and written again, the address stays the same.
    expect(searchOfFilters(checkDraft(draftOf(filtersFromSearch(search))).filters)).toBe(search);
  });
});

describe('in India (UTC+5:30)', () => {
  inZone('Asia/Kolkata');

  it('writes an offset with its half hour', () => {
    expect(localToIso('2025-03-10T00:15')).toBe('2025-03-10T00:15:00.000+05:30');
  });
});

describe('the checks of the shared schema', () => {
  it('refuses an end before the start, on the end', () => {
    const { errors } = checkDraft({
      ...EMPTY_DRAFT,
      from: '2025-03-10T18:00',
      to: '2025-03-10T08:00',
    });
    expect(errors).toEqual({ to: 'adminValidation.logRangeInvalid' });
  });

  it('takes a range within one minute', () => {
    const draft = { ...EMPTY_DRAFT, from: '2025-03-10T18:00', to: '2025-03-10T18:00' };
    expect(checkDraft(draft).errors).toEqual({});
  });

  it('refuses what is no date: 30 February, a year of five digits, text', () => {
    expect(localToIso('2025-02-30T10:00')).toBe('2025-02-30T10:00');
    expect(checkDraft({ ...EMPTY_DRAFT, from: '2025-02-30T10:00' }).errors).toEqual({
      from: 'adminValidation.logDateInvalid',
    });
    expect(checkDraft({ ...EMPTY_DRAFT, to: '20250-01-01T10:00' }).errors).toEqual({
      to: 'adminValidation.logDateInvalid',
    });
    expect(checkDraft({ ...EMPTY_DRAFT, from: 'yesterday' }).errors).toEqual({
      from: 'adminValidation.logDateInvalid',
    });
  });

  it('refuses a search over 200 characters', () => {
    expect(checkDraft({ ...EMPTY_DRAFT, search: 'a'.repeat(201) }).errors).toEqual({
      search: 'validation.searchTooLong',
    });
    expect(checkDraft({ ...EMPTY_DRAFT, search: 'a'.repeat(200) }).errors).toEqual({});
  });
});

describe('the address', () => {
  it('holds only what is set, in a fixed order, with any cursor last', () => {
    expect(searchOfFilters({})).toBe('');
    expect(searchOfFilters({ search: 'falha', level: 'error' }, { cursor: 'abc' })).toBe(
      '?level=error&search=falha&cursor=abc',
    );
  });

  it('leaves out what no filter can hold: an unknown level or category, a date that is none, blank words', () => {
    expect(
      filtersFromSearch('?level=debug&category=billing&from=soon&to=2025-13-45&search=%20%20'),
    ).toEqual({});
    expect(filtersFromSearch('?level=error&category=whatsapp&search=%20qr%20')).toEqual({
      level: 'error',
      category: 'whatsapp',
      search: 'qr',
    });
  });
});

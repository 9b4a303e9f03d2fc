import { describe, expect, it } from 'vitest';
import {
  crossDomainUrl,
  detectLanguage,
  isLocalHostname,
  readBrandDomains,
  redirectDomain,
  withLangParam,
  withoutLangParam,
} from './language';

const domains = readBrandDomains(
  'pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com',
);

describe('readBrandDomains', () => {
  it('falls back to the defaults while the server placeholder is still there', () => {
    expect(readBrandDomains('__BRAND_DOMAINS__')).toEqual(domains);
    expect(readBrandDomains(undefined)).toEqual(domains);
  });
});

describe('detectLanguage', () => {
  const detect = (search: string, hostname: string, stored: string | null = null) =>
    detectLanguage({ search, hostname, stored, domains });

  it('prefers a supported ?lang=', () => {
    expect(detect('?a=1&lang=es-ES', 'contrateia.com.br')).toEqual({
      language: 'es-ES',
      fromUrl: true,
    });
    expect(detect('?lang=fr-FR', 'contrateia.com.br')).toEqual({
      language: 'pt-BR',
      fromUrl: false,
    });
  });

  it('follows the brand domain, keeping a stored language that belongs to it', () => {
    expect(detect('', 'hireyourai.com')).toEqual({ language: 'en-US', fromUrl: false });
    expect(detect('', 'hireyourai.com', 'es-ES').language).toBe('es-ES');
    expect(detect('', 'www.hireyourai.com', 'pt-BR').language).toBe('en-US');
    expect(detect('', 'contrateia.com.br', 'en-US').language).toBe('pt-BR');
  });

  it('uses the stored language elsewhere, else pt-BR', () => {
    expect(detect('', 'localhost', 'en-US').language).toBe('en-US');
    expect(detect('', '10.0.0.7', 'xx').language).toBe('pt-BR');
    expect(detect('', 'example.org').language).toBe('pt-BR');
  });
});

describe('lang parameter', () => {
  it('is removed without touching the other parameters', () => {
    expect(withoutLangParam('?q=a%20b&lang=en-US&x=1+2')).toBe('?q=a%20b&x=1+2');
    expect(withoutLangParam('?lang=en-US')).toBe('');
    expect(withoutLangParam('')).toBe('');
  });

  it('is added once', () => {
    expect(withLangParam('', 'en-US')).toBe('?lang=en-US');
    expect(withLangParam('?q=1&lang=es-ES', 'en-US')).toBe('?q=1&lang=en-US');
  });
});

describe('switching domains', () => {
  it('redirects only between different brand domains on a public host', () => {
    expect(redirectDomain({ target: 'en-US', hostname: 'contrateia.com.br', domains })).toBe(
      'hireyourai.com',
    );
    expect(
      redirectDomain({ target: 'es-ES', hostname: 'hireyourai.com', domains }),
    ).toBeUndefined();
    expect(redirectDomain({ target: 'en-US', hostname: 'localhost', domains })).toBeUndefined();
    expect(redirectDomain({ target: 'en-US', hostname: '192.168.0.2', domains })).toBeUndefined();
    expect(redirectDomain({ target: 'en-US', hostname: '[::1]', domains })).toBeUndefined();
  });

  it('keeps path, query and hash, and the port', () => {
    const location = {
      protocol: 'https:',
      port: '8443',
      pathname: '/register',
      search: '?ref=x',
      hash: '#top',
    };
    expect(crossDomainUrl({ location, domain: 'hireyourai.com', language: 'es-ES' })).toBe(
      'https://hireyourai.com:8443/register?ref=x&lang=es-ES#top',
    );
  });

  it('knows local hosts', () => {
    expect(['localhost', 'app.localhost', '127.0.0.1', '[::1]'].every(isLocalHostname)).toBe(true);
    expect(isLocalHostname('contrateia.com.br')).toBe(false);
  });
});

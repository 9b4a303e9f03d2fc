import type { FieldValues, Resolver } from 'react-hook-form';

export interface LazyResolver<T extends FieldValues> extends Resolver<T, unknown, T> {
  /** Starts the download ahead of the first validation, e.g. when the form gets focus. */
  preload(): void;
}

/**
 * A react-hook-form resolver whose validation code is downloaded on first use rather than with
 * the page. The shared zod schemas bring zod with them, a good share of what the login page may
 * weigh (its budget: scripts/login-weight.mjs); the user's first focus on the form is early enough
 * to fetch it.
 *
 * If the download fails the form is sent unvalidated: the server checks the same schemas, and
 * the request itself will report the network failure. The next attempt downloads again.
 */
export function lazyResolver<T extends FieldValues>(
  load: () => Promise<Resolver<T, unknown, T>>,
): LazyResolver<T> {
  let loading: Promise<Resolver<T, unknown, T>> | undefined;

  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  const resolver: Resolver<T, unknown, T> = async (values, context, options) => {
    let resolve: Resolver<T, unknown, T>;
    try {
      resolve = await get();
    } catch {
      return { values, errors: {} };
    }
    return resolve(values, context, options);
  };

  return Object.assign(resolver, {
    preload: () => {
      get().catch(() => {
        // Retried on submit.
      });
    },
  });
}

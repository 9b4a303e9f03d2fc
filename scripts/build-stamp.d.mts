// Types of build-stamp.mjs, for the TypeScript files that import it (apps/web/vite.config.ts).
export type PartName = 'web' | 'server' | 'template';

export interface Part {
  what: string;
  stamp: string;
  outputs: string[];
  inputs: (string | (() => string))[];
}

export interface StampOptions {
  root?: string;
  parts?: Record<string, Part>;
}

export const ROOT: string;
export const PARTS: Record<PartName, Part>;
export function inputsHash(name: string, options?: StampOptions): string;
export function checkPart(
  name: string,
  options?: StampOptions,
): { hash: string; upToDate: boolean };
export function writeStamp(name: string, hash: string, options?: StampOptions): void;
export function removeStamp(name: string, options?: StampOptions): void;

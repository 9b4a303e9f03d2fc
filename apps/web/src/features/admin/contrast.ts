import {
  COLOR_PATTERN,
  type ThemeColor,
  type ThemeSettings,
} from '@contrateia/shared/settings/settings.schemas';
// `useMode` registers a colour space; it is no React hook, hence the other name.
import { formatHex, modeLrgb, modeRgb, useMode as registerMode, wcagContrast } from 'culori/fn';

// culori's tree-shakeable build: only the colour spaces the contrast needs (sRGB, and linear
// sRGB for the luminance).
const toRgb = registerMode(modeRgb);
registerMode(modeLrgb);

/** WCAG 2 AA for normal text (SC 1.4.3). */
export const WCAG_AA_TEXT = 4.5;

/** Colours of the app that the theme does not set (styles/global.css, components/ui/ui.css). */
const WHITE = '#ffffff';
const MUTED_TEXT = '#4b5563';

/** A colour, or `undefined` while its field does not hold a valid `#rrggbb`. */
type Pick = (theme: Partial<Record<ThemeColor, string>>) => string | undefined;
const color =
  (name: ThemeColor): Pick =>
  (theme) => {
    const value = theme[name];
    return value !== undefined && COLOR_PATTERN.test(value) ? value : undefined;
  };
const fixed =
  (value: string): Pick =>
  () =>
    value;

/** `color-mix(in srgb, <colour> 85%, black)`: the links and focus rings (styles/global.css). */
const deepened =
  (name: ThemeColor): Pick =>
  (theme) => {
    const value = color(name)(theme);
    const rgb = value === undefined ? undefined : toRgb(value);
    return rgb && formatHex({ ...rgb, r: rgb.r * 0.85, g: rgb.g * 0.85, b: rgb.b * 0.85 });
  };

/** The text and background pairs the app draws with the theme's colours. */
export const CONTRAST_PAIRS = [
  { id: 'textOnBackground', text: color('textColor'), background: color('backgroundColor') },
  { id: 'textOnCard', text: color('textColor'), background: color('cardBackground') },
  { id: 'mutedOnCard', text: fixed(MUTED_TEXT), background: color('cardBackground') },
  // Primary buttons: white text on a gradient from the button colour to the secondary one.
  { id: 'buttonText', text: fixed(WHITE), background: color('buttonColor') },
  { id: 'buttonTextSecondary', text: fixed(WHITE), background: color('secondaryColor') },
  { id: 'linkOnCard', text: deepened('buttonColor'), background: color('cardBackground') },
] as const satisfies readonly { id: string; text: Pick; background: Pick }[];

export type ContrastPairId = (typeof CONTRAST_PAIRS)[number]['id'];

export interface ContrastWarning {
  pair: ContrastPairId;
  /** The WCAG contrast ratio, 1 to 21. */
  ratio: number;
}

/**
 * The pairs under WCAG AA's 4.5:1 with these colours (pairs with a colour not yet valid are left
 * out): warnings, not errors, since the admin may mean it.
 */
export function lowContrastPairs(theme: Partial<ThemeSettings>): ContrastWarning[] {
  return CONTRAST_PAIRS.flatMap(({ id, text, background }) => {
    const foreground = text(theme);
    const behind = background(theme);
    if (foreground === undefined || behind === undefined) return [];
    const ratio = wcagContrast(foreground, behind);
    return ratio < WCAG_AA_TEXT ? [{ pair: id, ratio }] : [];
  });
}

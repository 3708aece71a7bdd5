import { locale } from '@/utils/format';

/** An invoice amount in its currency, in the interface's language: `$29.00`, `29,00 $US`. */
export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(locale(), { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

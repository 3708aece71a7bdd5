/** Text for HTML element content and double-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A file name the builders write into the caller's directory without clobbering anything already there. */
export const builtName = (stem: string) => `${stem}-${Math.random().toString(36).slice(2, 10)}.html`;

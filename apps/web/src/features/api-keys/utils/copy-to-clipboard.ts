/**
 * Copy text: the async Clipboard API where the page is a secure context, else the old selection-and-execCommand way
 * (a self-hosted dashboard is often served over plain http on a private network, where navigator.clipboard is absent).
 */
export async function copyToClipboard(text: string): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    const ok = typeof document.execCommand === 'function' && document.execCommand('copy');
    if (!ok) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

import type { MouseEvent } from 'react';

/** In-page anchors scroll smoothly and keep the URL clean (the router would otherwise see a navigation). */
export function scrollToSection(e: MouseEvent, id: string): void {
  const el = document.getElementById(id);
  if (!el) return;
  e.preventDefault();
  el.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

import type { ReactElement } from 'react';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogues, i18n, setLanguage } from '@/i18n';
import { LanguageSync } from '@/app/language-sync';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { LoginForm } from '@/features/auth/components/login-form';
import { RegisterForm } from '@/features/auth/components/register-form';
import { ChangePasswordForm } from '@/features/settings/components/change-password-form';
import { ProfileForm } from '@/features/settings/components/profile-form';
import { SupportPage } from '@/features/support/components/support-page';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

type Tree = { [k: string]: string | Tree };
const texts = (node: Tree): string[] => Object.values(node).flatMap((v) => (typeof v === 'string' ? [v] : texts(v)));

/** Texts that exist only in English (a French screen showing one has been left half translated). */
const englishOnly = new Set(
  texts(catalogues.en as Tree).filter((t) => !texts(catalogues.fr as Tree).includes(t) && /\p{L}{3}/u.test(t)),
);

function shownTexts(root: HTMLElement): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent?.trim()) out.push(n.textContent.trim());
  for (const el of root.querySelectorAll('[aria-label],[placeholder],[title]'))
    for (const a of ['aria-label', 'placeholder', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a)!);
  return out;
}

const screens: Array<[string, () => ReactElement]> = [
  ['login', () => <LoginForm />],
  ['register', () => <RegisterForm />],
  ['forgot password', () => <ForgotPasswordForm />],
  ['profile', () => <ProfileForm user={makeUser()} />],
  ['change password', () => <ChangePasswordForm />],
  ['support', () => <SupportPage isAuthenticated={false} />],
  ['dashboard shell', () => <DashboardLayout>content</DashboardLayout>],
];

beforeEach(() => {
  mockFetch({});
  useAuthStore.setState({ user: makeUser({ role: 'admin' }), token: 't', isAuthenticated: true, isLoading: false });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('screens in French', () => {
  it.each(screens)('%s shows no English-only text', (_name, ui) => {
    setLanguage('fr');
    const { container } = renderWithProviders(ui());
    const left = shownTexts(container).filter((t) => englishOnly.has(t));
    expect(left).toEqual([]);
    // And it is French indeed, not empty.
    expect(shownTexts(container).length).toBeGreaterThan(0);
  });

  it('switches the whole interface at once, without a reload', () => {
    const { container } = renderWithProviders(<ProfileForm user={makeUser()} />);
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    // The check sees English when English is shown.
    expect(shownTexts(container).filter((t) => englishOnly.has(t)).length).toBeGreaterThan(3);
    act(() => setLanguage('fr'));
    expect(screen.getByRole('heading', { name: 'Profil' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enregistrer les modifications' })).toBeInTheDocument();
    expect(shownTexts(container).filter((t) => englishOnly.has(t))).toEqual([]);
  });

  it('follows the signed-in user’s language, and the browser’s when signed out', () => {
    useAuthStore.setState({ user: makeUser({ language: 'fr' }) });
    renderWithProviders(<LanguageSync />);
    expect(i18n.language).toBe('fr');
    act(() => useAuthStore.setState({ user: makeUser({ language: 'en-GB' }) }));
    expect(i18n.language).toBe('en');
    act(() => useAuthStore.setState({ user: makeUser({ language: 'fr-CA' }) }));
    expect(i18n.language).toBe('fr');
    // jsdom's browser language is English.
    act(() => useAuthStore.setState({ user: null }));
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

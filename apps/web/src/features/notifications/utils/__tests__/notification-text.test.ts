import { describe, expect, it } from 'vitest';
import type { TNotification } from '@docflow/contracts';
import { i18n, setLanguage } from '@/i18n';
import { notificationText } from '../notification-text';

const created: TNotification = {
  id: 'n1',
  type: 'success',
  title: 'Clé API créée',
  message: 'La clé « Prod » (Pro, production) a été créée. Conservez-la : elle ne sera plus affichée.',
  code: 'api-key.created',
  params: { name: 'Prod', plan: 'Pro', environment: 'production' },
  timestamp: '2026-11-28T06:00:00.000Z',
  read: false,
};

describe('notificationText', () => {
  it('renders a coded notification in the reader’s language', () => {
    setLanguage('en');
    expect(notificationText(created, i18n.t)).toEqual({
      title: 'API key created',
      message: 'The key “Prod” (Pro, production) was created. Keep it safe: it will not be shown again.',
    });
    setLanguage('fr');
    // The French sentence is the one the server writes.
    expect(notificationText(created, i18n.t)).toEqual({ title: created.title, message: created.message });
  });

  it('keeps the stored words of a notification without a code', () => {
    const old = { ...created, code: undefined, params: undefined, title: 'Essai Pro activé', message: 'x' };
    expect(notificationText(old, i18n.t)).toEqual({ title: 'Essai Pro activé', message: 'x' });
  });
});

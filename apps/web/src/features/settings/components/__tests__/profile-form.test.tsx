import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TUser } from '@docflow/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ProfileForm } from '@/features/settings/components/profile-form';
import { makeUser } from '@/testing/fixtures';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const client = new QueryClient();
const form = (user: TUser) => (
  <QueryClientProvider client={client}>
    <ProfileForm user={user} />
  </QueryClientProvider>
);

describe('ProfileForm', () => {
  it('shows the edits, then follows the server copy when it changes', () => {
    const { rerender } = render(form(makeUser({ name: 'Ada Lovelace', company: 'Analytical' })));
    const name = screen.getByRole('textbox', { name: 'Full name' });
    expect(name).toHaveValue('Ada Lovelace');

    fireEvent.change(name, { target: { value: 'Ada L.' } });
    expect(name).toHaveValue('Ada L.');

    rerender(form(makeUser({ name: 'Ada King', company: 'Engines Ltd' })));
    expect(screen.getByRole('textbox', { name: 'Full name' })).toHaveValue('Ada King');
    expect(screen.getByRole('textbox', { name: /Company/ })).toHaveValue('Engines Ltd');
  });
});

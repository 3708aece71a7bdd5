import type { ReactElement, ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Render inside a fresh QueryClient and a memory router; `routes` adds pages to land on after navigation. */
export function renderWithProviders(
  ui: ReactElement,
  {
    path = '/',
    initialEntries = [path],
    routes = {},
  }: { path?: string; initialEntries?: string[]; routes?: Record<string, ReactNode> } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={initialEntries}>
        <Routes>
          <Route path={path} element={ui} />
          {Object.entries(routes).map(([p, el]) => (
            <Route key={p} path={p} element={el} />
          ))}
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, user, queryClient };
}

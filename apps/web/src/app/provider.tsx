import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { TooltipProvider } from '@radix-ui/react-tooltip';
import { Toaster } from '@/components/ui/toaster';
import { queryClient } from '@/lib/react-query';
import { useAuthStore } from '@/lib/auth/auth-store';
import { LanguageSync } from './language-sync';
import { getNotificationsQueryOptions } from '@/features/notifications/api/notifications';

/** Start-up (spec-1 §4): a stored token counts as signed in and the user is re-read; notifications are fetched once. */
function Bootstrap() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  // A temporary password must be replaced first: the server refuses everything else until then.
  const mustChange = useAuthStore((s) => s.user?.mustChangePassword === true);
  useEffect(() => {
    void useAuthStore.getState().initialize();
  }, []);
  useEffect(() => {
    if (isAuthenticated && !mustChange) void queryClient.prefetchQuery(getNotificationsQueryOptions());
  }, [isAuthenticated, mustChange]);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider delayDuration={200}>
        <Bootstrap />
        <LanguageSync />
        {children}
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}

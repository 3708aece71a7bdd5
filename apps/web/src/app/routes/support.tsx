import { useAuthStore } from '@/lib/auth/auth-store';
import { SupportPage } from '@/features/support/components/support-page';

/** /support: public (spec-2). */
export default function SupportRoute() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  return <SupportPage isAuthenticated={isAuthenticated} />;
}

import { LegalPage } from '@/features/legal/components/legal-page';

/** /privacy: public, the operator's Privacy Policy (DATA_DIR/privacy.md) or the neutral default. */
export default function PrivacyRoute() {
  return <LegalPage document="privacy" />;
}

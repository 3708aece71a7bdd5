import { LegalPage } from '@/features/legal/components/legal-page';

/** /terms: public, the operator's Terms of Service (DATA_DIR/terms.md) or the neutral default. */
export default function TermsRoute() {
  return <LegalPage document="terms" />;
}

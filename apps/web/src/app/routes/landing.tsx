import { CallToAction, LandingFooter } from '@/features/landing/components/cta-footer';
import { Hero } from '@/features/landing/components/hero';
import { LandingHeader } from '@/features/landing/components/landing-header';
import { Pricing } from '@/features/landing/components/pricing';
import { Capabilities, Features, StatsStrip, Testimonials, WhyChoose } from '@/features/landing/components/sections';
import { useTranslation } from 'react-i18next';

/** `/` for visitors (signed-in users are sent to /dashboard by the gate). */
export default function LandingRoute() {
  const { t } = useTranslation();
  return (
    <div className="bg-white">
      <title>{t('landing.docflowDocumentProcessingApiFor')}</title>
      <LandingHeader />
      <main>
        <Hero />
        <StatsStrip />
        <Features />
        <Capabilities />
        <WhyChoose />
        <Pricing />
        <Testimonials />
        <CallToAction />
      </main>
      <LandingFooter />
    </div>
  );
}

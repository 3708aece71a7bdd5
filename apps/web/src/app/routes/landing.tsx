import { CallToAction, LandingFooter } from '@/features/landing/components/cta-footer';
import { Hero } from '@/features/landing/components/hero';
import { LandingHeader } from '@/features/landing/components/landing-header';
import { Pricing } from '@/features/landing/components/pricing';
import { Capabilities, Features, StatsStrip, Testimonials, WhyChoose } from '@/features/landing/components/sections';

/** `/` for visitors (signed-in users are sent to /dashboard by the gate). */
export default function LandingRoute() {
  return (
    <div className="bg-white">
      <title>DocFlow — Document processing API for developers</title>
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

import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { SectionHeading } from './sections';

/** The LANDING readings of spec-1 §9 (they differ from the plan table the API enforces; the spec keeps both). */
export const landingPlans = [
  {
    name: 'Free',
    price: '$0',
    period: '/month',
    description: 'For side projects and trying the API.',
    features: ['1,000 requests/month', 'Document conversion', 'Files under 10MB', 'Community support'],
    cta: { label: 'Get Started', to: paths.auth.register.getHref() },
    popular: false,
  },
  {
    name: 'Pro',
    price: '$29',
    period: '/month',
    description: 'For production apps that need every endpoint.',
    features: [
      '50,000 requests/month',
      'Conversion, PDF, OCR and QR codes',
      'Batch up to 20 files',
      'Priority email support',
    ],
    cta: { label: 'Start Free Trial', to: paths.auth.register.getHref() },
    popular: true,
  },
  {
    name: 'Enterprise',
    price: '$199',
    period: '/month',
    description: 'For high volumes and custom needs.',
    features: [
      '500,000 requests/month',
      'Unlimited file size (100MB+)',
      'Batch up to 50 files',
      'Custom limits',
      'SLA',
    ],
    cta: { label: 'Contact Sales', to: paths.support.getHref() },
    popular: false,
  },
] as const;

export function Pricing() {
  return (
    <section id="pricing" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          eyebrow="Pricing"
          title="Simple, transparent pricing"
          text="Start free. Upgrade when your traffic grows. Cancel anytime."
        />
        <div className="mx-auto mt-16 grid max-w-md gap-6 lg:max-w-none lg:grid-cols-3 lg:items-stretch">
          {landingPlans.map((p) => (
            <article
              key={p.name}
              className={cn(
                'relative flex flex-col rounded-3xl p-8',
                p.popular
                  ? 'bg-slate-950 text-white shadow-2xl shadow-indigo-900/30 ring-2 ring-indigo-500 lg:-my-4 lg:py-12'
                  : 'bg-white shadow-sm ring-1 ring-slate-200',
              )}
              aria-label={`${p.name} plan`}
            >
              {p.popular && (
                <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-gradient-to-r from-indigo-500 to-violet-500 px-3 py-1 text-xs font-semibold text-white shadow">
                  Most Popular
                </span>
              )}
              <h3 className={cn('text-lg font-semibold', p.popular ? 'text-white' : 'text-slate-900')}>{p.name}</h3>
              <p className={cn('mt-2 text-sm', p.popular ? 'text-slate-300' : 'text-slate-600')}>{p.description}</p>
              <p className="mt-6 flex items-baseline gap-1">
                <span className="text-5xl font-bold tracking-tight">{p.price}</span>
                <span className={cn('text-sm', p.popular ? 'text-slate-400' : 'text-slate-500')}>{p.period}</span>
              </p>
              <ul className="mt-8 flex-1 space-y-3">
                {p.features.map((f) => (
                  <li
                    key={f}
                    className={cn('flex items-start gap-3 text-sm', p.popular ? 'text-slate-200' : 'text-slate-700')}
                  >
                    <Check
                      className={cn('mt-0.5 h-4 w-4 shrink-0', p.popular ? 'text-indigo-300' : 'text-indigo-600')}
                      aria-hidden="true"
                    />
                    {f}
                  </li>
                ))}
              </ul>
              <Link
                to={p.cta.to}
                className={buttonVariants({
                  variant: p.popular ? 'primary' : 'secondary',
                  size: 'lg',
                  className: cn('mt-8 w-full', p.popular && 'bg-indigo-500 hover:bg-indigo-400'),
                })}
              >
                {p.cta.label}
              </Link>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}

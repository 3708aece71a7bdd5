import { Link } from 'react-router';
import {
  ArrowLeft,
  BookOpen,
  ChevronDown,
  ExternalLink,
  FlaskConical,
  LifeBuoy,
  Lock,
  Mail,
  MessageCircle,
} from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { Button, buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Spec-2 "Support page" FAQ, with its figures. */
const faq = [
  {
    q: 'How many requests does each plan include?',
    a: 'The Free plan includes 1,000 requests/month, Pro 50,000 requests/month and Enterprise 500,000+ requests/month. Your current usage is on the Analytics page.',
  },
  {
    q: 'Which file formats are supported?',
    a: '15+ formats, including PDF, DOCX, XLSX, PPTX, images (JPEG, PNG, TIFF), OpenDocument and HTML. The auto-to-pdf endpoint detects the format for you.',
  },
  {
    q: 'How do I authenticate my requests?',
    a: 'Create an API key on the API Keys page and send it in the x-api-key header (or as "Authorization: Bearer <key>") with every call.',
  },
  {
    q: 'Are my documents stored?',
    a: 'No. Each request works in a temporary folder that is deleted as soon as the answer is sent, whatever happened.',
  },
  {
    q: 'What happens when I reach my limit?',
    a: 'The API answers 429 with a Retry-After header. Upgrade your plan on the Plans page to raise your limits at once.',
  },
  {
    q: 'Can I change or cancel my plan?',
    a: 'Yes, anytime. All plans include a 14-day free trial with no credit card required.',
  },
];

export function SupportPage({ isAuthenticated }: { isAuthenticated: boolean }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <title>Support · DocFlow</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6 lg:px-8">
          <Link
            to={paths.home.getHref()}
            className="inline-flex items-center gap-2 rounded-lg text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Home
          </Link>
          <Link
            to={paths.home.getHref()}
            aria-label="DocFlow home"
            className="rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <Logo />
          </Link>
        </div>
      </header>

      <main>
        <section className="bg-gradient-to-b from-white to-slate-50 px-4 pb-8 pt-14 text-center sm:px-6">
          <span className="mx-auto grid h-12 w-12 place-items-center rounded-2xl bg-indigo-50 text-indigo-600 ring-1 ring-inset ring-indigo-100">
            <LifeBuoy className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-5 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">How can we help?</h1>
          <p className="mx-auto mt-3 max-w-xl text-slate-600">
            Guides, a playground and a team that answers. Everything you need to get the most out of the DocFlow API.
          </p>
        </section>

        <section
          className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6 md:grid-cols-3 lg:px-8"
          aria-label="Ways to get help"
        >
          <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-indigo-50 text-indigo-600">
              <BookOpen className="h-5 w-5" aria-hidden="true" />
            </span>
            <h2 className="mt-5 text-lg font-semibold text-slate-900">Documentation</h2>
            <p className="mt-2 flex-1 text-sm text-slate-600">
              Every endpoint with its parameters, answers, errors and examples.
            </p>
            <a
              href={paths.apiDocs.getHref()}
              target="_blank"
              rel="noreferrer"
              className={buttonVariants({ variant: 'secondary', className: 'mt-6' })}
            >
              Open Documentation <ExternalLink className="h-4 w-4" aria-hidden="true" />
            </a>
          </article>

          <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-violet-50 text-violet-600">
              <FlaskConical className="h-5 w-5" aria-hidden="true" />
            </span>
            <h2 className="mt-5 text-lg font-semibold text-slate-900">API Playground</h2>
            <p className="mt-2 flex-1 text-sm text-slate-600">
              Try conversions, OCR, PDF tools and QR codes from your browser.
            </p>
            {isAuthenticated ? (
              <Link
                to={paths.app.playground.getHref()}
                className={buttonVariants({ variant: 'secondary', className: 'mt-6' })}
              >
                Open Playground
              </Link>
            ) : (
              <Link
                to={paths.auth.login.getHref()}
                className={buttonVariants({ variant: 'secondary', className: 'mt-6' })}
              >
                <Lock className="h-4 w-4" aria-hidden="true" /> Sign In Required
              </Link>
            )}
          </article>

          <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-emerald-50 text-emerald-600">
              <MessageCircle className="h-5 w-5" aria-hidden="true" />
            </span>
            <h2 className="mt-5 text-lg font-semibold text-slate-900">Contact Support</h2>
            <p className="mt-2 flex-1 text-sm text-slate-600">
              Questions about your account, billing or an integration? Our team answers within one business day.
            </p>
            {/* Inert by specification (spec-2 "Support page"): no support-message endpoint exists yet, so the button does nothing. */}
            <Button variant="secondary" className="mt-6">
              <Mail className="h-4 w-4" aria-hidden="true" /> Send Message
            </Button>
          </article>
        </section>

        <section className="mx-auto max-w-3xl px-4 py-12 sm:px-6" aria-labelledby="faq-heading" id="faq">
          <h2 id="faq-heading" className="text-center text-2xl font-bold tracking-tight text-slate-900">
            Frequently asked questions
          </h2>
          <div className="mt-8 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
            {faq.map((item) => (
              <details key={item.q} className="group px-6 py-1 [&_summary::-webkit-details-marker]:hidden">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 text-left text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
                  {item.q}
                  <ChevronDown
                    className="h-4 w-4 shrink-0 text-slate-400 transition-transform group-open:rotate-180"
                    aria-hidden="true"
                  />
                </summary>
                <p className="pb-5 text-sm leading-6 text-slate-600">{item.a}</p>
              </details>
            ))}
          </div>
        </section>

        <section className="px-4 pb-20 sm:px-6">
          <div className="mx-auto max-w-3xl rounded-3xl bg-slate-950 px-6 py-12 text-center sm:px-12">
            <h2 className="text-2xl font-bold text-white">Still need help?</h2>
            <p className="mx-auto mt-3 max-w-md text-sm text-slate-300">
              Can&apos;t find the answer you&apos;re looking for? Our support team is happy to help with the
              document-flow API.
            </p>
            {/* Inert by specification (spec-2 "Support page"): there is no contact endpoint; the button does nothing. */}
            <Button className="mt-8 bg-indigo-500 hover:bg-indigo-400" size="lg">
              Contact Support Team
            </Button>
          </div>
        </section>
      </main>
    </div>
  );
}

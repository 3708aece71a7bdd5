import { Link } from 'react-router';
import { maxFilesOf } from '@docflow/contracts/endpoints';
import { ArrowRight, Check, Copy, Terminal } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useCopy } from '@/hooks/use-copy';
import { scrollToSection } from './scroll-to-section';
import { FreeOfferLine } from './free-offer-line';
import { useTranslation } from 'react-i18next';

const origin = typeof window === 'undefined' ? 'https://your-docflow-host' : window.location.origin;

/** The sample call of spec-1: POST auto-to-pdf, header x-api-key, multipart field `file`, a PDF back. */
const sampleCommand = `curl -X POST ${origin}/api/v1/conversion/auto-to-pdf \\
  -H "x-api-key: YOUR_API_KEY" \\
  -F "file=@invoice.docx" \\
  -o invoice.pdf`;

export function Hero() {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  return (
    <section className="relative isolate overflow-hidden bg-slate-950 pb-20 pt-32 sm:pb-28 sm:pt-40">
      <div
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(60rem_40rem_at_70%_-10%,rgba(99,102,241,0.35),transparent),radial-gradient(40rem_30rem_at_10%_10%,rgba(139,92,246,0.22),transparent)]"
        aria-hidden="true"
      />
      <div
        className="pointer-events-none absolute inset-0 -z-10 bg-[linear-gradient(to_right,rgba(255,255,255,0.04)_1px,transparent_1px),linear-gradient(to_bottom,rgba(255,255,255,0.04)_1px,transparent_1px)] bg-[size:48px_48px] [mask-image:radial-gradient(ellipse_at_top,black,transparent_70%)]"
        aria-hidden="true"
      />
      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-14 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div className="min-w-0">
          <a
            href="#features"
            onClick={(e) => scrollToSection(e, 'features')}
            className="inline-flex items-center gap-2 rounded-full bg-white/5 px-3 py-1 text-xs font-medium text-indigo-200 ring-1 ring-inset ring-white/10 hover:bg-white/10"
          >
            <span className="rounded-full bg-indigo-500 px-2 py-0.5 text-[10px] font-bold uppercase tracking-wide text-white">
              {t('hero.new')}
            </span>
            {t('hero.ocrIn6LanguagesBatch')} {maxFilesOf('/conversion/batch-to-pdf')} {t('hero.files')}
            <ArrowRight className="h-3 w-3" aria-hidden="true" />
          </a>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-white sm:text-5xl lg:text-6xl">
            {t('hero.theDocumentApi')}{' '}
            <span className="bg-gradient-to-r from-indigo-300 via-violet-300 to-fuchsia-300 bg-clip-text text-transparent">
              {t('hero.developersEnjoy')}
            </span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">{t('hero.convert15FormatsToPdf')}</p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <Link
              to={paths.auth.register.getHref()}
              className={buttonVariants({ size: 'lg', className: 'bg-indigo-500 hover:bg-indigo-400' })}
            >
              {t('hero.getStartedFree')} <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
            <a
              href={paths.apiDocs.getHref()}
              target="_blank"
              rel="noreferrer"
              className={buttonVariants({ variant: 'outline-light', size: 'lg' })}
            >
              {t('hero.readTheDocs')}
            </a>
          </div>
          <FreeOfferLine />
        </div>

        <div className="relative min-w-0">
          <div
            className="absolute -inset-4 -z-10 rounded-3xl bg-gradient-to-tr from-indigo-500/20 to-fuchsia-500/10 blur-2xl"
            aria-hidden="true"
          />
          <div className="overflow-hidden rounded-2xl bg-slate-900/80 shadow-2xl ring-1 ring-white/10">
            <div className="flex items-center justify-between border-b border-white/5 px-4 py-3">
              <div className="flex items-center gap-2">
                <span className="h-3 w-3 rounded-full bg-rose-400/80" />
                <span className="h-3 w-3 rounded-full bg-amber-400/80" />
                <span className="h-3 w-3 rounded-full bg-emerald-400/80" />
                <span className="ml-3 flex items-center gap-1.5 text-xs text-slate-400">
                  <Terminal className="h-3.5 w-3.5" aria-hidden="true" /> {t('hero.convertAnyDocumentToPdf')}
                </span>
              </div>
              <button
                type="button"
                onClick={() => copy(sampleCommand)}
                className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs text-slate-400 hover:bg-white/5 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400"
                aria-label={copied ? t('hero.copied') : t('hero.copyTheCommand')}
              >
                {copied ? (
                  <Check className="h-3.5 w-3.5 text-emerald-400" aria-hidden="true" />
                ) : (
                  <Copy className="h-3.5 w-3.5" aria-hidden="true" />
                )}
                {copied ? t('hero.copied') : t('hero.copy')}
              </button>
            </div>
            <pre
              className="overflow-x-auto p-5 font-mono text-[13px] leading-6 text-slate-300"
              data-testid="hero-command"
            >
              <code>
                <span className="text-emerald-400">curl</span> -X <span className="text-sky-300">POST</span> {origin}
                <span className="text-white">/api/v1/conversion/auto-to-pdf</span> \{'\n'}
                {'  '}-H <span className="text-amber-300">&quot;x-api-key: YOUR_API_KEY&quot;</span> \{'\n'}
                {'  '}-F <span className="text-amber-300">&quot;file=@invoice.docx&quot;</span> \{'\n'}
                {'  '}-o invoice.pdf
              </code>
            </pre>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-white/5 bg-black/20 px-5 py-3 font-mono text-xs">
              <span className="text-emerald-400">200 OK</span>
              <span className="text-slate-400">Content-Type: application/pdf</span>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

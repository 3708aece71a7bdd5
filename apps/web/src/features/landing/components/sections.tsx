import {
  BadgeCheck,
  Braces,
  Clock,
  FileStack,
  FileText,
  Gauge,
  Layers,
  Lock,
  QrCode,
  ScanText,
  Server,
  ShieldCheck,
  ScanSearch,
  Sparkles,
  type LucideIcon,
} from 'lucide-react';
// The zod-free modules of the contracts: the landing page does not load the request schemas.
import { endpointAt, maxFilesOf, processingEndpoints, type TCataloguePath } from '@docflow/contracts/endpoints';
import { qrTypeNames } from '@docflow/contracts/qr-types';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

export function SectionHeading({
  eyebrow,
  title,
  text,
  dark,
}: {
  eyebrow: string;
  title: string;
  text?: string;
  dark?: boolean;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className={dark ? 'text-sm font-semibold text-indigo-300' : 'text-sm font-semibold text-indigo-600'}>
        {eyebrow}
      </p>
      <h2 className={`mt-2 text-3xl font-bold tracking-tight sm:text-4xl ${dark ? 'text-white' : 'text-slate-900'}`}>
        {title}
      </h2>
      {text && <p className={`mt-4 text-lg leading-8 ${dark ? 'text-slate-300' : 'text-slate-600'}`}>{text}</p>}
    </div>
  );
}

/**
 * Figures that hold for every DocFlow server. Uptime and response times are not here: no public endpoint measures
 * them, so the page does not claim any.
 */
const stats = (t: TFunction) => [
  { value: String(processingEndpoints.length), label: t('landingSections.stats.endpoints') },
  { value: '15+', label: t('landingSections.stats.formats') },
  { value: String(qrTypeNames.length), label: t('landingSections.stats.qrCodeTypes') },
];

export function StatsStrip() {
  const { t } = useTranslation();
  return (
    <section aria-label={t('sections.keyFigures')} className="border-y border-slate-200 bg-white">
      <dl className="mx-auto grid max-w-7xl grid-cols-1 gap-px bg-slate-200 sm:grid-cols-3">
        {stats(t).map((s) => (
          <div key={s.label} className="flex flex-col items-center gap-1 bg-white px-4 py-8">
            <dt className="order-2 text-sm text-slate-500">{s.label}</dt>
            <dd className="order-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

interface FeatureCard {
  icon: LucideIcon;
  title: string;
  text: string;
  /** Catalogue paths: a path the API does not serve is a type error. */
  endpoints: TCataloguePath[];
  tone: string;
}

const batchMax = maxFilesOf('/conversion/batch-to-pdf');

/** `POST /pdf/merge`, as the API serves it. */
export const endpointLabel = (path: TCataloguePath) => `${endpointAt(path).method} ${path}`;

const features = (t: TFunction): FeatureCard[] => [
  {
    icon: FileText,
    title: t('landingSections.features.documentConversion'),
    text: t('landingSections.features.wordExcelPowerpointHtmlMarkdown'),
    endpoints: ['/conversion/auto-to-pdf', '/conversion/word-to-pdf', '/conversion/html-to-pdf'],
    tone: 'bg-indigo-50 text-indigo-600',
  },
  {
    icon: ScanText,
    title: t('landingSections.features.ocr'),
    text: t('landingSections.features.extractTextFromScansAnd'),
    endpoints: ['/ocr/extract', '/ocr/enhanced', '/ocr/searchable-pdf'],
    tone: 'bg-violet-50 text-violet-600',
  },
  {
    icon: Layers,
    title: t('landingSections.features.pdfOperations'),
    text: t('landingSections.features.mergeSplitWatermarkProtectCompress'),
    endpoints: ['/pdf/merge', '/pdf/watermark', '/pdf/protect'],
    tone: 'bg-sky-50 text-sky-600',
  },
  {
    icon: QrCode,
    title: t('landingSections.features.qrCodes'),
    text: t('landingSections.features.qr', { count: qrTypeNames.length }),
    endpoints: ['/qrcode/url', '/qrcode/wifi', '/qrcode/contact'],
    tone: 'bg-emerald-50 text-emerald-600',
  },
  {
    icon: FileStack,
    title: t('landingSections.features.batchConversion'),
    text: t('landingSections.features.batch', { count: batchMax }),
    endpoints: ['/conversion/batch-to-pdf'],
    tone: 'bg-amber-50 text-amber-600',
  },
  {
    icon: ScanSearch,
    title: t('landingSections.features.documentInsight'),
    text: t('landingSections.features.detectAFileSReal'),
    endpoints: ['/conversion/detect', '/pdf/analyze', '/pdf/compression-analysis'],
    tone: 'bg-rose-50 text-rose-600',
  },
];

export function Features() {
  const { t } = useTranslation();
  return (
    <section id="features" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          eyebrow={t('sections.features')}
          title={t('sections.everythingYourDocumentsNeed')}
          text={t('sections.fourGroupsOfEndpointsOne')}
        />
        <div className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features(t).map((f) => (
            <article
              key={f.title}
              className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
            >
              <span className={`grid h-11 w-11 place-items-center rounded-xl ${f.tone}`}>
                <f.icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{f.title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{f.text}</p>
              <ul className="mt-5 space-y-1.5" aria-label={t('landingSections.endpointsOf', { title: f.title })}>
                {f.endpoints.map((e) => (
                  <li key={e}>
                    <code className="rounded-md bg-slate-100 px-2 py-1 font-mono text-xs text-slate-700">
                      {endpointLabel(e)}
                    </code>
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}

const capabilities = (t: TFunction) => [
  {
    title: t('landingSections.capabilities.conversion'),
    icon: FileText,
    items: [
      t('landingSections.capabilities.t15FormatsToPdf'),
      t('landingSections.capabilities.automaticFormatDetection'),
      t('landingSections.capabilities.wordExcelPowerpointOpendocument'),
      t('landingSections.capabilities.htmlUrlAndMarkdown'),
      t('landingSections.capabilities.imagesJpegPngTiffWebp'),
      t('landingSections.capabilities.batch', { count: batchMax }),
    ],
  },
  {
    title: t('landingSections.capabilities.ocr'),
    icon: ScanText,
    items: [
      t('landingSections.capabilities.severalLanguages'),
      t('landingSections.capabilities.enhancedAccuracyMode'),
      t('landingSections.capabilities.imageQualityAnalysis'),
      t('landingSections.capabilities.confidenceScores'),
      t('landingSections.capabilities.wordPositions'),
      t('landingSections.capabilities.characterWhitelist'),
    ],
  },
  {
    title: t('landingSections.capabilities.pdf'),
    icon: Layers,
    items: [
      t('landingSections.capabilities.watermark'),
      t('landingSections.capabilities.mergeAndSplit'),
      t('landingSections.capabilities.passwordProtection'),
      t('landingSections.capabilities.metadata'),
      t('landingSections.capabilities.analysisAndTextExtraction'),
      t('landingSections.capabilities.compressionAnalysis'),
    ],
  },
  {
    title: t('landingSections.capabilities.qrCodes'),
    icon: QrCode,
    items: [
      t('landingSections.capabilities.urlWifiContact'),
      t('landingSections.capabilities.eventLocationSms'),
      t('landingSections.capabilities.emailPhoneText'),
      t('landingSections.capabilities.genericPayloads'),
      t('landingSections.capabilities.pngOrSvgOutput'),
      t('landingSections.capabilities.customColoursAndSize'),
    ],
  },
];

export function Capabilities() {
  const { t } = useTranslation();
  return (
    <section className="bg-white py-20 sm:py-28" aria-labelledby="capabilities-heading">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-indigo-600">{t('sections.capabilities')}</p>
          <h2 id="capabilities-heading" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {processingEndpoints.length} {t('sections.endpointsReadyToday')}
          </h2>
        </div>
        <div className="mt-14 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          {capabilities(t).map((c) => (
            <div key={c.title}>
              <h3 className="flex items-center gap-2 text-base font-semibold text-slate-900">
                <c.icon className="h-5 w-5 text-indigo-600" aria-hidden="true" /> {c.title}
              </h3>
              <ul className="mt-4 space-y-2.5">
                {c.items.map((i) => (
                  <li key={i} className="flex items-start gap-2 text-sm text-slate-600">
                    <BadgeCheck className="mt-0.5 h-4 w-4 shrink-0 text-emerald-500" aria-hidden="true" />
                    {i}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

const reasons = (t: TFunction) => [
  {
    icon: Gauge,
    title: t('landingSections.reasons.fast'),
    text: t('landingSections.reasons.warmEnginesAndStreamingUploads'),
  },
  {
    icon: Clock,
    title: t('landingSections.reasons.reliable'),
    text: t('landingSections.reasons.aBadDocumentNeverTakes'),
  },
  {
    icon: ShieldCheck,
    title: t('landingSections.reasons.secure'),
    text: t('landingSections.reasons.hashedApiKeysPerKey'),
  },
  {
    icon: Braces,
    title: t('landingSections.reasons.developerFirst'),
    text: t('landingSections.reasons.openapiDocsAPlaygroundCode'),
  },
  { icon: Server, title: t('landingSections.reasons.selfHostable'), text: t('landingSections.reasons.runItOnYourOwn') },
  {
    icon: Lock,
    title: t('landingSections.reasons.predictablePricing'),
    text: t('landingSections.reasons.clearMonthlyQuotasAndRate'),
  },
];

export function WhyChoose() {
  const { t } = useTranslation();
  return (
    <section id="why-choose" className="scroll-mt-16 bg-slate-950 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          dark
          eyebrow={t('sections.whyDocflow')}
          title={t('sections.whyDevelopersChooseDocflow')}
          text={t('sections.builtByDevelopersWhoWere')}
        />
        <div className="mt-16 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {reasons(t).map((r) => (
            <div key={r.title} className="flex gap-4">
              <span className="grid h-10 w-10 shrink-0 place-items-center rounded-lg bg-indigo-500/15 text-indigo-300 ring-1 ring-inset ring-indigo-400/20">
                <r.icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold text-white">{r.title}</h3>
                <p className="mt-1 text-sm leading-6 text-slate-400">{r.text}</p>
              </div>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

const testimonials = (t: TFunction) => [
  {
    quote: t('landingSections.testimonials.weMovedOurInvoicePipeline'),
    name: 'Maya Chen',
    role: t('landingSections.testimonials.ctoLedgerly'),
  },
  {
    quote: t('landingSections.testimonials.theOcrWordPositionsAnd'),
    name: 'Lucas Martin',
    role: t('landingSections.testimonials.leadEngineerContractly'),
  },
  {
    quote: t('landingSections.testimonials.selfHostingItWasOne'),
    name: 'Priya Raman',
    role: t('landingSections.testimonials.platformLeadHealthbridge'),
  },
];

export function Testimonials() {
  const { t } = useTranslation();
  return (
    <section id="testimonials" className="scroll-mt-16 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow={t('sections.testimonials')} title={t('sections.lovedByDevelopers')} />
        <div className="mt-16 grid gap-6 lg:grid-cols-3">
          {testimonials(t).map((q) => (
            <figure key={q.name} className="flex flex-col rounded-2xl border border-slate-200 bg-slate-50 p-6">
              <Sparkles className="h-5 w-5 text-indigo-500" aria-hidden="true" />
              <blockquote className="mt-4 flex-1 text-sm leading-6 text-slate-700">“{q.quote}”</blockquote>
              <figcaption className="mt-6 flex items-center gap-3">
                <span
                  className="grid h-10 w-10 place-items-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-600 text-sm font-bold text-white"
                  aria-hidden="true"
                >
                  {q.name
                    .split(' ')
                    .map((p) => p[0])
                    .join('')}
                </span>
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{q.name}</span>
                  <span className="block text-xs text-slate-500">{q.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}

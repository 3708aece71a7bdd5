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
const stats = [
  { value: String(processingEndpoints.length), label: 'Endpoints' },
  { value: '15+', label: 'Formats' },
  { value: String(qrTypeNames.length), label: 'QR code types' },
];

export function StatsStrip() {
  return (
    <section aria-label="Key figures" className="border-y border-slate-200 bg-white">
      <dl className="mx-auto grid max-w-7xl grid-cols-1 gap-px bg-slate-200 sm:grid-cols-3">
        {stats.map((s) => (
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

const features: FeatureCard[] = [
  {
    icon: FileText,
    title: 'Document conversion',
    text: 'Word, Excel, PowerPoint, HTML, Markdown, images and more to PDF, with automatic format detection.',
    endpoints: ['/conversion/auto-to-pdf', '/conversion/word-to-pdf', '/conversion/html-to-pdf'],
    tone: 'bg-indigo-50 text-indigo-600',
  },
  {
    icon: ScanText,
    title: 'OCR',
    text: 'Extract text from scans and photos in several languages, with confidence scores and word positions.',
    endpoints: ['/ocr/extract', '/ocr/enhanced', '/ocr/searchable-pdf'],
    tone: 'bg-violet-50 text-violet-600',
  },
  {
    icon: Layers,
    title: 'PDF operations',
    text: 'Merge, split, watermark, protect, compress, read metadata and extract text from any PDF.',
    endpoints: ['/pdf/merge', '/pdf/watermark', '/pdf/protect'],
    tone: 'bg-sky-50 text-sky-600',
  },
  {
    icon: QrCode,
    title: 'QR codes',
    text: `${qrTypeNames.length} QR types from a JSON body — URL, WiFi, contact cards, events and more — as PNG or SVG.`,
    endpoints: ['/qrcode/url', '/qrcode/wifi', '/qrcode/contact'],
    tone: 'bg-emerald-50 text-emerald-600',
  },
  {
    icon: FileStack,
    title: 'Batch conversion',
    text: `Send up to ${batchMax} files in one call and get a zip of PDFs with a per-file report.`,
    endpoints: ['/conversion/batch-to-pdf'],
    tone: 'bg-amber-50 text-amber-600',
  },
  {
    icon: ScanSearch,
    title: 'Document insight',
    text: 'Detect a file’s real format, analyse a PDF’s fonts, images and forms, and estimate what compression saves.',
    endpoints: ['/conversion/detect', '/pdf/analyze', '/pdf/compression-analysis'],
    tone: 'bg-rose-50 text-rose-600',
  },
];

export function Features() {
  return (
    <section id="features" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          eyebrow="Features"
          title="Everything your documents need"
          text="Four groups of endpoints, one consistent API: multipart in, files or JSON out, clear errors."
        />
        <div className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((f) => (
            <article
              key={f.title}
              className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
            >
              <span className={`grid h-11 w-11 place-items-center rounded-xl ${f.tone}`}>
                <f.icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{f.title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{f.text}</p>
              <ul className="mt-5 space-y-1.5" aria-label={`${f.title} endpoints`}>
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

const capabilities = [
  {
    title: 'Conversion',
    icon: FileText,
    items: [
      '15+ formats to PDF',
      'Automatic format detection',
      'Word, Excel, PowerPoint, OpenDocument',
      'HTML, URL and Markdown',
      'Images: JPEG, PNG, TIFF, WebP',
      `Batch of up to ${batchMax} files`,
    ],
  },
  {
    title: 'OCR',
    icon: ScanText,
    items: [
      'Several languages',
      'Enhanced accuracy mode',
      'Image quality analysis',
      'Confidence scores',
      'Word positions',
      'Character whitelist',
    ],
  },
  {
    title: 'PDF',
    icon: Layers,
    items: [
      'Watermark',
      'Merge and split',
      'Password protection',
      'Metadata',
      'Analysis and text extraction',
      'Compression analysis',
    ],
  },
  {
    title: 'QR codes',
    icon: QrCode,
    items: [
      'URL, WiFi, Contact',
      'Event, Location, SMS',
      'Email, Phone, Text',
      'Generic payloads',
      'PNG or SVG output',
      'Custom colours and size',
    ],
  },
];

export function Capabilities() {
  return (
    <section className="bg-white py-20 sm:py-28" aria-labelledby="capabilities-heading">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-indigo-600">Capabilities</p>
          <h2 id="capabilities-heading" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {processingEndpoints.length} endpoints, ready today
          </h2>
        </div>
        <div className="mt-14 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          {capabilities.map((c) => (
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

const reasons = [
  { icon: Gauge, title: 'Fast', text: 'Warm engines and streaming uploads: no tool starts cold for your request.' },
  {
    icon: Clock,
    title: 'Reliable',
    text: 'A bad document never takes the service down: timeouts and crashes recycle the converter, not the API.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure',
    text: 'Hashed API keys, per-key limits, and files deleted as soon as they are processed.',
  },
  {
    icon: Braces,
    title: 'Developer-first',
    text: 'OpenAPI docs, a playground, code samples and errors that name the field to fix.',
  },
  { icon: Server, title: 'Self-hostable', text: 'Run it on your own servers: one command, no third-party services.' },
  {
    icon: Lock,
    title: 'Predictable pricing',
    text: 'Clear monthly quotas and rate limits, visible in real time on your dashboard.',
  },
];

export function WhyChoose() {
  return (
    <section id="why-choose" className="scroll-mt-16 bg-slate-950 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          dark
          eyebrow="Why DocFlow"
          title="Why developers choose DocFlow"
          text="Built by developers who were tired of gluing five tools together."
        />
        <div className="mt-16 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {reasons.map((r) => (
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

const testimonials = [
  {
    quote:
      'We moved our invoice pipeline to DocFlow in a day. Conversions that took seconds now come back before the spinner shows.',
    name: 'Maya Chen',
    role: 'CTO, Ledgerly',
  },
  {
    quote:
      'The OCR word positions and confidence scores let us build a review screen for scanned contracts without a single extra library.',
    name: 'Lucas Martin',
    role: 'Lead engineer, Contractly',
  },
  {
    quote: 'Self-hosting it was one command. Our compliance team loves that documents never leave our network.',
    name: 'Priya Raman',
    role: 'Platform lead, HealthBridge',
  },
];

export function Testimonials() {
  return (
    <section id="testimonials" className="scroll-mt-16 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading eyebrow="Testimonials" title="Loved by developers" />
        <div className="mt-16 grid gap-6 lg:grid-cols-3">
          {testimonials.map((t) => (
            <figure key={t.name} className="flex flex-col rounded-2xl border border-slate-200 bg-slate-50 p-6">
              <Sparkles className="h-5 w-5 text-indigo-500" aria-hidden="true" />
              <blockquote className="mt-4 flex-1 text-sm leading-6 text-slate-700">“{t.quote}”</blockquote>
              <figcaption className="mt-6 flex items-center gap-3">
                <span
                  className="grid h-10 w-10 place-items-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-600 text-sm font-bold text-white"
                  aria-hidden="true"
                >
                  {t.name
                    .split(' ')
                    .map((p) => p[0])
                    .join('')}
                </span>
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{t.name}</span>
                  <span className="block text-xs text-slate-500">{t.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}

import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Eye, EyeOff, Send } from 'lucide-react';
import type { TJob } from '@docflow/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { fieldErrorsOf } from '@/lib/api-client';
import { categoryTones, type PlaygroundEndpoint } from '../config/endpoints';
import { sendPlaygroundRequest, type PlaygroundResponse } from '../api/send-request';
import { sendPlaygroundJob } from '../api/send-job';
import { API_KEY_SLOT } from '../utils/code-samples';
import {
  endpointUrl,
  initialValues,
  planCall,
  validateFields,
  validationMessages,
  type FieldFiles,
  type FieldValues,
} from '../utils/request-plan';
import { CodeExamples } from './code-examples';
import { CopyButton } from './copy-button';
import { FieldControl } from './field-control';
import { JobPanel } from './job-panel';
import { ResponsePanel } from './response-panel';
import { useTranslation } from 'react-i18next';
import { usePlaygroundText } from '../utils/playground-text';
import { fileErrorsOf } from '../utils/file-errors';

const API_KEY_FIELD = 'pg-api-key';

/**
 * One endpoint's form, response and code examples. The page mounts it keyed by endpoint, so choosing another
 * endpoint starts from fresh values, no files and no response (spec-2 §2); only the API key lives above it.
 */
export function EndpointWorkbench({
  endpoint,
  apiBase,
  apiKey,
  onApiKey,
}: {
  endpoint: PlaygroundEndpoint;
  apiBase: string;
  apiKey: string;
  onApiKey: (key: string) => void;
}) {
  const { t } = useTranslation();
  const pt = usePlaygroundText();
  const [values, setValues] = useState<FieldValues>(() => initialValues(endpoint));
  const [files, setFiles] = useState<FieldFiles>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [response, setResponse] = useState<PlaygroundResponse | null>(null);
  const [sending, setSending] = useState(false);
  const [showKey, setShowKey] = useState(false);
  const [asJob, setAsJob] = useState(false);
  const [job, setJob] = useState<TJob | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  // Leaving (another endpoint, another page) drops a call still running: its answer would land nowhere.
  useEffect(() => () => inFlight.current?.abort(), []);
  // Each answer's bytes live in an object URL until the next answer replaces it.
  useEffect(() => {
    const url = response?.file?.url;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [response]);

  const codePlan = useMemo(
    () => planCall(endpoint, { apiBase, apiKey: API_KEY_SLOT, values, files, sampleFiles: true, asJob }),
    [endpoint, apiBase, values, files, asJob],
  );

  // The server's field errors of the last answer (its files' too), worded at each render (a language switch
  // rewords them); a field edited since is no longer judged by them.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const serverErrors = Object.fromEntries(
    Object.entries({ ...fileErrorsOf(endpoint, response, files), ...fieldErrorsOf(response?.details) }).filter(
      ([name]) => !edited.has(name),
    ),
  );
  const errorOf = (name: string): string | undefined => errors[name] ?? serverErrors[name];

  const clearError = (name: string) => {
    setEdited((s) => (s.has(name) ? s : new Set(s).add(name)));
    setErrors((e) => {
      if (!e[name]) return e;
      const { [name]: _, ...rest } = e;
      return rest;
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateFields(endpoint, values, files);
    if (!apiKey.trim()) found[API_KEY_FIELD] = validationMessages.apiKey;
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      const id = first === API_KEY_FIELD ? API_KEY_FIELD : `pg-field-${first}`;
      document.getElementById(id)?.focus();
      return;
    }
    inFlight.current?.abort();
    setEdited(new Set());
    const controller = new AbortController();
    inFlight.current = controller;
    setSending(true);
    setJob(null);
    setResponse(null);
    try {
      const plan = planCall(endpoint, { apiBase, apiKey: apiKey.trim(), values, files, asJob });
      const answer = asJob
        ? (
            await sendPlaygroundJob(plan, {
              signal: controller.signal,
              onJob: (j) => {
                if (!controller.signal.aborted) setJob(j);
              },
            })
          ).response
        : await sendPlaygroundRequest(plan, { signal: controller.signal });
      if (!controller.signal.aborted) setResponse(answer);
    } catch {
      // Aborted because the user moved on: nothing to show.
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setSending(false);
      }
    }
  };

  const url = endpointUrl(apiBase, endpoint);
  return (
    <div className="min-w-0 space-y-6">
      <Card>
        <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="pg-endpoint-title">
          <CardHeader>
            <div className="flex flex-wrap items-center gap-2">
              <endpoint.icon className="h-5 w-5 text-indigo-600" aria-hidden="true" />
              <CardTitle id="pg-endpoint-title">{pt(endpoint.name)}</CardTitle>
              <Badge tone={categoryTones[endpoint.category]}>{endpoint.category}</Badge>
            </div>
            <CardDescription>{pt(endpoint.description)}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            <Field
              id={API_KEY_FIELD}
              label={
                <>
                  {t('endpointWorkbench.apiKey')}
                  <span aria-hidden="true" className="ml-0.5 text-rose-600">
                    *
                  </span>
                </>
              }
              error={errors[API_KEY_FIELD]}
              hint={
                <>
                  {t('endpointWorkbench.theFullKeyIsShown')}{' '}
                  <Link to={paths.app.keys.getHref()} className="font-medium text-indigo-600 hover:text-indigo-500">
                    {t('endpointWorkbench.manageApiKeys')}
                  </Link>
                </>
              }
            >
              <KeyInput
                value={apiKey}
                visible={showKey}
                onToggle={() => setShowKey((v) => !v)}
                onChange={(v) => {
                  onApiKey(v);
                  clearError(API_KEY_FIELD);
                }}
              />
            </Field>

            <div>
              <p className="text-sm font-medium text-slate-700" id="pg-url-label">
                {t('endpointWorkbench.endpointUrl')}
              </p>
              <div className="mt-1.5 flex items-start gap-2">
                <div
                  className="flex min-w-0 flex-1 items-start gap-2 rounded-lg bg-slate-100 px-3 py-2.5 font-mono text-sm"
                  aria-labelledby="pg-url-label"
                  role="group"
                >
                  <span className="font-semibold text-emerald-700">{endpoint.method}</span>
                  <span className="min-w-0 break-all text-slate-800" data-testid="endpoint-url">
                    {url}
                  </span>
                </div>
                <CopyButton text={url} label={t('endpointWorkbench.copyEndpointUrl')} className="mt-1" />
              </div>
              <p className="mt-1.5 text-xs text-slate-500">
                {endpoint.contentType === 'multipart/form-data'
                  ? t('endpointWorkbench.sentAsMultipartFormData')
                  : t('endpointWorkbench.sentAsJsonWithThe')}
              </p>
            </div>

            {endpoint.hint && <Alert tone="info">{pt(endpoint.hint)}</Alert>}

            <div className="flex items-start gap-2">
              <Checkbox
                id="pg-as-job"
                checked={asJob}
                onCheckedChange={(v) => setAsJob(v === true)}
                aria-describedby="pg-as-job-hint"
                className="mt-0.5"
              />
              <div>
                <label htmlFor="pg-as-job" className="text-sm font-medium text-slate-700">
                  {t('endpointWorkbench.sendAsJob')}
                </label>
                <p id="pg-as-job-hint" className="text-xs text-slate-500">
                  {t('endpointWorkbench.sendAsJobHint')}
                </p>
              </div>
            </div>

            <fieldset className="grid gap-5 sm:grid-cols-2">
              <legend className="sr-only">{t('endpointWorkbench.parameters')}</legend>
              {endpoint.fields.map((f) => (
                <FieldControl
                  key={f.name}
                  field={f}
                  value={values[f.name]}
                  files={files[f.name] ?? []}
                  error={errorOf(f.name)}
                  onValue={(v) => {
                    setValues((s) => ({ ...s, [f.name]: v }));
                    clearError(f.name);
                  }}
                  onFiles={(list) => {
                    setFiles((s) => ({ ...s, [f.name]: list }));
                    clearError(f.name);
                  }}
                />
              ))}
            </fieldset>
          </CardContent>
          <CardFooter className="justify-between">
            <p className="text-xs text-slate-500">
              <span aria-hidden="true" className="text-rose-600">
                *
              </span>{' '}
              {t('endpointWorkbench.required')}
            </p>
            <Button type="submit" isLoading={sending}>
              {!sending && <Send className="h-4 w-4" aria-hidden="true" />}
              {sending ? t('endpointWorkbench.sending') : t('endpointWorkbench.sendRequest')}
            </Button>
          </CardFooter>
        </form>
      </Card>

      {job && <JobPanel job={job} />}
      <ResponsePanel response={response} isSending={sending} waitingForJob={job !== null} />
      <CodeExamples plan={codePlan} />
    </div>
  );
}

function KeyInput({
  value,
  visible,
  onToggle,
  onChange,
  ...rest
}: {
  value: string;
  visible: boolean;
  onToggle: () => void;
  onChange: (v: string) => void;
  id?: string;
  invalid?: boolean;
  'aria-describedby'?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="relative">
      <Input
        {...rest}
        type={visible ? 'text' : 'password'}
        name="apiKey"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        autoComplete="off"
        spellCheck={false}
        placeholder={t('endpointWorkbench.dfk')}
        className="pr-10 font-mono"
      />
      <button
        type="button"
        onClick={onToggle}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
        aria-label={visible ? t('endpointWorkbench.hideApiKey') : t('endpointWorkbench.showApiKey')}
        aria-pressed={visible}
        aria-controls={rest.id}
      >
        {visible ? <EyeOff className="h-4 w-4" aria-hidden="true" /> : <Eye className="h-4 w-4" aria-hidden="true" />}
      </button>
    </div>
  );
}

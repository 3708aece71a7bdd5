import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AlertTriangle, CheckCircle2, Loader2, Lock, RefreshCw, Sparkles } from 'lucide-react';
import {
  apiKeyEnvironments,
  hasCapability,
  type TApiKey,
  type TApiKeyEnvironment,
  type TCustomLimitsDraft,
  type TPlan,
} from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { formatBytes, formatPlanPrice, visiblePlans } from '@/lib/plans/format-plan';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useAuthStore } from '@/lib/auth/auth-store';
import { useCreateApiKey } from '../api/create-api-key';
import {
  findUserByEmail,
  useCreateCustomKey,
  useCustomLimitsPreview,
  useCustomLimitsTemplate,
} from '../api/custom-keys';
import { CustomLimitsEditor, CustomLimitsPreviewPanel } from './custom-limits-editor';
import { environmentLabel, formatCount, formatDate, keyPlanName } from '../utils/key-display';
import { planErrorOf, type PlanRefusal } from '../utils/plan-refusal';
import { keyMessages } from '../utils/messages';
import { SecretKeyField } from './secret-key-field';
import { useTranslation } from 'react-i18next';
import { createKeyBlocker } from '../utils/create-key-blocker';
import type { TKey } from '@/i18n';
import { fieldErrors } from '@/lib/api-client';

export interface PlansState {
  data?: TPlan[];
  isPending: boolean;
  isError: boolean;
  isFetching?: boolean;
  refetch: () => unknown;
}

export interface CreateApiKeyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  plans: PlansState;
  /** Why the server would refuse a new key on a plan (null: it would not); such a plan cannot be picked. */
  refusalOf: (plan: TPlan) => PlanRefusal | null;
}

/** Spec-2 §9: the default plan of a new key is pro (when the user may use it), the default environment development. */
const DEFAULT_PLAN = 'pro';

const environmentHint: Record<TApiKeyEnvironment, TKey> = {
  development: 'createApiKeyDialog.envHint.development',
  staging: 'createApiKeyDialog.envHint.staging',
  production: 'createApiKeyDialog.envHint.production',
};

function pickDefaultPlan(plans: TPlan[], canUse: (p: TPlan) => boolean): string | undefined {
  if (plans.some((p) => p.name === DEFAULT_PLAN && canUse(p))) return DEFAULT_PLAN;
  return plans.find(canUse)?.name;
}

/** Why a plan cannot carry a new key, beside it: what to do about it, with the way to the plans page if it helps. */
function RefusalHint({ refusal, id }: { refusal: PlanRefusal; id: string }) {
  const { t } = useTranslation();
  const toPlans = (
    <>
      <Link to={paths.app.plans.getHref()} className="underline underline-offset-2 hover:text-amber-900">
        {t('createApiKeyDialog.plansPage')}
      </Link>{' '}
      {t('createApiKeyDialog.toUseThisPlan')}
    </>
  );
  return (
    <span id={id} className="mt-2 flex items-center gap-1.5 text-xs font-medium text-amber-700">
      <Lock className="h-3.5 w-3.5" aria-hidden="true" />
      {refusal.reason === 'keyLimit' ? (
        <span>{t('createApiKeyDialog.planKeyLimit', { n: refusal.max })}</span>
      ) : refusal.reason === 'ended' ? (
        <span>
          {refusal.endedAt
            ? t('createApiKeyDialog.planEndedOn', { date: formatDate(refusal.endedAt) })
            : t('createApiKeyDialog.planEnded')}{' '}
          {toPlans}
        </span>
      ) : (
        <span>
          {t('createApiKeyDialog.startAFreeTrialOn')} {toPlans}
        </span>
      )}
    </span>
  );
}

function CreatedView({ apiKey, onDone }: { apiKey: TApiKey; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 space-y-5" data-testid="api-key-created">
      <div className="flex items-start gap-3 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800 ring-1 ring-inset ring-emerald-200">
        <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <p>{t('createApiKeyDialog.yourApiKeyIsReady')}</p>
      </div>
      {apiKey.key && <SecretKeyField value={apiKey.key} />}
      <dl className="grid grid-cols-2 gap-3 rounded-xl bg-slate-50 p-4 text-sm">
        <div>
          <dt className="text-slate-500">{t('createApiKeyDialog.name')}</dt>
          <dd className="font-medium text-slate-900">{apiKey.name}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('createApiKeyDialog.environment')}</dt>
          <dd className="font-medium text-slate-900">{environmentLabel[apiKey.environment]}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('createApiKeyDialog.plan')}</dt>
          <dd className="font-medium text-slate-900">{keyPlanName(apiKey)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('createApiKeyDialog.monthlyLimit')}</dt>
          <dd className="font-medium text-slate-900">
            {formatCount(apiKey.limits.maxRequestsPerMonth)} {t('createApiKeyDialog.requests')}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('createApiKeyDialog.rateLimit')}</dt>
          <dd className="font-medium text-slate-900">
            {formatCount(apiKey.limits.maxRequestsPerMinute)} {t('createApiKeyDialog.min')}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('createApiKeyDialog.keyPrefix')}</dt>
          <dd className="font-mono font-medium text-slate-900">{apiKey.keyPrefix.slice(0, 8)}…</dd>
        </div>
      </dl>
      <p className="text-xs text-slate-500">
        {t('createApiKeyDialog.sendItInThe')}{' '}
        <code className="rounded bg-slate-100 px-1 py-0.5">{t('createApiKeyDialog.xApiKey')}</code>{' '}
        {t('createApiKeyDialog.headerOfYourRequests')}
      </p>
      <div className="flex justify-end">
        <Button onClick={onDone}>{t('createApiKeyDialog.done')}</Button>
      </div>
    </div>
  );
}

export function CreateApiKeyDialog({ open, onOpenChange, plans, refusalOf }: CreateApiKeyDialogProps) {
  const { t } = useTranslation();
  const nameId = useId();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<TApiKeyEnvironment>('development');
  const [pickedPlan, setPlanName] = useState<string | undefined>(undefined);
  const [created, setCreated] = useState<TApiKey | null>(null);

  // Admins also choose Standard or Custom (spec-2: 'Admin Only'); a custom key has limits of its own, checked live.
  const me = useAuthStore((s) => s.user);
  const canCustom = hasCapability(me?.role, 'customKeys');
  const createCustom = useCreateCustomKey();
  const nameError = fieldErrors(create.error ?? createCustom.error).name;
  // The plan was refused anyway (the lists were stale, a creation elsewhere): the server's words beside the plans.
  const planError = planErrorOf(create.error);
  const planErrorId = useId();
  const [keyType, setKeyType] = useState<'standard' | 'custom'>('standard');
  const custom = canCustom && keyType === 'custom';
  const template = useCustomLimitsTemplate(open && custom);
  const [edited, setLimits] = useState<TCustomLimitsDraft | null>(null);
  const limits = edited ?? template.data?.template ?? null;
  const [ownerText, setOwnerEmail] = useState<string | null>(null);
  const ownerEmail = ownerText ?? me?.email ?? '';
  const settledEmail = useDebouncedValue(ownerEmail.trim(), 500);
  const owner = useQuery({
    queryKey: ['admin', 'user-by-email', settledEmail],
    queryFn: async () => (await findUserByEmail(settledEmail)) ?? null,
    enabled: custom && settledEmail.includes('@'),
  });
  const settledLimits = useDebouncedValue(limits, 500);
  const preview = useCustomLimitsPreview(custom ? settledLimits : null, owner.data?.id);
  const previewCurrent =
    JSON.stringify(settledLimits) === JSON.stringify(limits) && !preview.isFetching && !!preview.data;
  const customReady = previewCurrent && preview.data!.valid && !!owner.data && settledEmail === ownerEmail.trim();
  const pending = create.isPending || createCustom.isPending;

  const listed = useMemo(() => visiblePlans(plans.data ?? []), [plans.data]);

  // The default plan stands until the user picks one, and again whenever the picked one is no longer usable.
  const isUsable = (p: TPlan) => refusalOf(p) === null;
  const planName =
    pickedPlan && listed.some((p) => p.name === pickedPlan && isUsable(p))
      ? pickedPlan
      : pickDefaultPlan(listed, isUsable);
  // Every plan listed would be refused: nothing to send until one is freed (a key deleted, a trial started).
  const noPlan = !custom && listed.length > 0 && planName === undefined;

  const reset = () => {
    setName('');
    setEnvironment('development');
    setPlanName(undefined);
    setCreated(null);
    create.reset();
    createCustom.reset();
    setKeyType('standard');
    setLimits(null);
    setOwnerEmail(null);
  };

  const changeOpen = (next: boolean) => {
    if (!next && pending) return;
    onOpenChange(next);
    if (!next) reset();
  };

  const canSubmit = name.trim().length > 0 && !pending && !noPlan && (!custom || customReady);
  const blocker = createKeyBlocker({
    name,
    pending,
    custom,
    noPlan,
    owner: settledEmail === ownerEmail.trim() ? owner.data : undefined,
    previewCurrent,
    previewFailed: preview.isError,
    previewValid: preview.data?.valid,
  });
  const blockerId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    if (custom)
      createCustom.mutate(
        { userId: owner.data!.id, customLimits: limits!, keyOptions: { name: name.trim(), environment } },
        { onSuccess: (key) => setCreated(key) },
      );
    else create.mutate({ name: name.trim(), environment, planName }, { onSuccess: (key) => setCreated(key) });
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        title={created ? t('createApiKeyDialog.apiKeyCreated') : t('createApiKeyDialog.createApiKey')}
        description={created ? undefined : t('createApiKeyDialog.aKeyAuthenticatesYourCalls')}
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
        onInteractOutside={(e) => {
          if (pending || created) e.preventDefault();
        }}
      >
        {created ? (
          <CreatedView apiKey={created} onDone={() => changeOpen(false)} />
        ) : (
          <form onSubmit={submit} className="mt-5 space-y-6" noValidate>
            <div className="space-y-1.5">
              <Label htmlFor={nameId}>{t('createApiKeyDialog.keyName')}</Label>
              <Input
                id={nameId}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder={t('createApiKeyDialog.eGProductionBackend')}
                maxLength={100}
                autoComplete="off"
                required
                autoFocus
              />
              {nameError ? (
                <p className="text-sm text-rose-600" role="alert" data-testid="key-name-error">
                  {nameError}
                </p>
              ) : (
                <p className="text-xs text-slate-500">{t('createApiKeyDialog.t3To100CharactersLetters')}</p>
              )}
            </div>

            <fieldset>
              <legend className="text-sm font-medium text-slate-700">{t('createApiKeyDialog.environment')}</legend>
              <div className="mt-2 grid grid-cols-3 gap-2">
                {apiKeyEnvironments.map((env) => (
                  <label
                    key={env}
                    className={cn(
                      'flex cursor-pointer items-start gap-2 rounded-xl border p-2.5 text-sm transition-colors sm:gap-2.5 sm:p-3',
                      'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600',
                      environment === env
                        ? 'border-indigo-500 bg-indigo-50/60'
                        : 'border-slate-200 hover:border-slate-300',
                    )}
                  >
                    <input
                      type="radio"
                      name="environment"
                      value={env}
                      checked={environment === env}
                      onChange={() => setEnvironment(env)}
                      aria-labelledby={`${nameId}-env-${env}`}
                      aria-describedby={`${nameId}-env-${env}-hint`}
                      className="mt-0.5 h-4 w-4 accent-indigo-600"
                    />
                    <span>
                      <span id={`${nameId}-env-${env}`} className="block truncate font-medium text-slate-900">
                        {environmentLabel[env]}
                      </span>
                      <span id={`${nameId}-env-${env}-hint`} className="hidden text-xs text-slate-500 sm:block">
                        {t(environmentHint[env])}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>

            {canCustom && (
              <fieldset>
                <legend className="text-sm font-medium text-slate-700">{t('createApiKeyDialog.keyType')}</legend>
                <div className="mt-2 grid grid-cols-2 gap-2">
                  {(['standard', 'custom'] as const).map((kind) => (
                    <label
                      key={kind}
                      className={cn(
                        'flex cursor-pointer items-center gap-2 rounded-xl border p-3 text-sm',
                        keyType === kind ? 'border-indigo-500 bg-indigo-50/60' : 'border-slate-200',
                      )}
                    >
                      <input
                        type="radio"
                        name="keyType"
                        value={kind}
                        checked={keyType === kind}
                        onChange={() => setKeyType(kind)}
                        className="h-4 w-4 accent-indigo-600"
                      />
                      <span className="font-medium text-slate-900">
                        {kind === 'standard' ? t('createApiKeyDialog.standard') : t('createApiKeyDialog.custom')}
                      </span>
                      {kind === 'custom' && <Badge tone="amber">{t('createApiKeyDialog.adminOnly')}</Badge>}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}

            {custom ? (
              <div className="space-y-4">
                <div className="space-y-1.5">
                  <Label htmlFor={`${nameId}-owner`}>{t('createApiKeyDialog.forTheUserEMail')}</Label>
                  <Input
                    id={`${nameId}-owner`}
                    type="email"
                    value={ownerEmail}
                    onChange={(e) => setOwnerEmail(e.target.value)}
                    autoComplete="off"
                  />
                  {owner.data === null && settledEmail === ownerEmail.trim() && (
                    <p className="text-xs text-red-700" data-testid="owner-not-found">
                      {t('createApiKeyDialog.noUserWithThisE')}
                    </p>
                  )}
                </div>
                {template.isError ? (
                  <p className="text-sm text-red-700">{keyMessages.errors.template}</p>
                ) : limits && template.data ? (
                  <>
                    <CustomLimitsEditor
                      value={limits}
                      onChange={setLimits}
                      endpointGroups={template.data.endpointGroups}
                    />
                    <CustomLimitsPreviewPanel
                      preview={preview.data}
                      checking={!previewCurrent && !preview.isError}
                      failed={preview.isError}
                    />
                  </>
                ) : (
                  <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
                    <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />{' '}
                    {t('createApiKeyDialog.loadingTheTemplate')}
                  </p>
                )}
              </div>
            ) : (
              <fieldset aria-describedby={planError ? planErrorId : undefined}>
                <legend className="text-sm font-medium text-slate-700">{t('createApiKeyDialog.plan')}</legend>
                {planError && (
                  <p id={planErrorId} className="mt-1 text-sm text-rose-600" role="alert" data-testid="key-plan-error">
                    {planError}
                  </p>
                )}
                {plans.isPending ? (
                  <p className="mt-3 flex items-center gap-2 text-sm text-slate-500" role="status">
                    <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />{' '}
                    {t('createApiKeyDialog.loadingPlans')}
                  </p>
                ) : listed.length === 0 ? (
                  <div className="mt-2 flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 p-5 text-center">
                    <p className="flex items-center gap-2 text-sm font-medium text-slate-700">
                      <AlertTriangle className="h-4 w-4 text-amber-500" aria-hidden="true" />
                      {keyMessages.noPlans}
                    </p>
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => void plans.refetch()}
                      isLoading={plans.isFetching}
                    >
                      {!plans.isFetching && <RefreshCw className="h-4 w-4" aria-hidden="true" />}
                      {t('createApiKeyDialog.recharger')}
                    </Button>
                  </div>
                ) : (
                  <div className="mt-2 space-y-2">
                    {listed.map((plan) => {
                      const refusal = refusalOf(plan);
                      const usable = refusal === null;
                      const price = formatPlanPrice(plan);
                      const labelId = `${nameId}-plan-${plan.name}`;
                      const detailsId = `${labelId}-details`;
                      const hintId = `${labelId}-hint`;
                      return (
                        <label
                          key={plan.id}
                          data-plan={plan.name}
                          className={cn(
                            'flex items-start gap-3 rounded-xl border p-4 text-sm transition-colors',
                            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600',
                            !usable && 'cursor-not-allowed bg-slate-50 opacity-75',
                            usable && 'cursor-pointer',
                            usable && planName === plan.name ? 'border-indigo-500 bg-indigo-50/60' : 'border-slate-200',
                            usable && planName !== plan.name && 'hover:border-slate-300',
                          )}
                        >
                          <input
                            type="radio"
                            name="plan"
                            value={plan.name}
                            checked={planName === plan.name}
                            disabled={!usable}
                            onChange={() => {
                              setPlanName(plan.name);
                              create.reset();
                            }}
                            aria-labelledby={labelId}
                            aria-describedby={usable ? detailsId : `${detailsId} ${hintId}`}
                            className="mt-0.5 h-4 w-4 accent-indigo-600"
                          />
                          <span className="min-w-0 flex-1">
                            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                              <span id={labelId} className="font-semibold text-slate-900">
                                {plan.displayName}
                              </span>
                              <span className="font-mono text-xs text-slate-400">{plan.name}</span>
                              {plan.isRecommended && (
                                <Badge tone="indigo">
                                  <Sparkles className="h-3 w-3" aria-hidden="true" />
                                  {t('createApiKeyDialog.recommended')}
                                </Badge>
                              )}
                              <span className="ml-auto font-semibold text-slate-900">
                                {price.amount}
                                <span className="font-normal text-slate-500"> {price.period}</span>
                              </span>
                            </span>
                            <span id={detailsId}>
                              {plan.description && (
                                <span className="mt-1 block text-slate-600">{plan.description}</span>
                              )}
                              <span className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
                                <span className="sr-only">{`${price.amount} ${price.period}.`}</span>
                                <span>
                                  {formatCount(plan.maxRequestsPerMonth)} {t('createApiKeyDialog.requestsMonth')}
                                </span>
                                <span>
                                  {formatBytes(plan.maxFileSize)} {t('createApiKeyDialog.perFile')}
                                </span>
                                <span>
                                  {formatCount(plan.maxRequestsPerMinute)} {t('createApiKeyDialog.requestsMin')}
                                </span>
                              </span>
                            </span>
                            {refusal && <RefusalHint refusal={refusal} id={hintId} />}
                          </span>
                        </label>
                      );
                    })}
                  </div>
                )}
              </fieldset>
            )}

            <div className="sticky -bottom-6 -mx-6 -mb-6 flex flex-col-reverse gap-2 rounded-b-2xl border-t border-slate-100 bg-white px-6 py-4 sm:flex-row sm:items-center sm:justify-end">
              <Button variant="secondary" onClick={() => changeOpen(false)} disabled={pending}>
                {t('createApiKeyDialog.cancel')}
              </Button>
              <Button
                type="submit"
                disabled={!canSubmit}
                isLoading={pending}
                aria-describedby={!canSubmit && blocker ? blockerId : undefined}
              >
                {t('createApiKeyDialog.createApiKey')}
              </Button>
              {/* Just above Create on a phone (the column is reversed), at the left of the buttons otherwise. */}
              {!canSubmit && blocker && (
                <p
                  id={blockerId}
                  role="status"
                  data-testid="create-blocker"
                  className="text-sm text-slate-600 sm:order-first sm:mr-auto"
                >
                  {t(blocker)}
                </p>
              )}
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

import { useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { API_BASE } from '@/lib/api-client';
import { playgroundEndpoints, type PlaygroundEndpoint } from '../config/endpoints';
import { useSessionApiKey } from '../hooks/use-session-api-key';
import { EndpointList } from './endpoint-list';
import { EndpointWorkbench } from './endpoint-workbench';
import { useTranslation } from 'react-i18next';

/** The API base as callers outside the dashboard see it: this origin (the server serves the dashboard) plus /api/v1. */
const defaultApiBase = () => `${window.location.origin}${API_BASE}`;

/** The API playground (spec-2 §2): endpoints on the left, the request, its answer and code on the right. */
export function PlaygroundPage({
  endpoints = playgroundEndpoints,
  apiBase = defaultApiBase(),
}: {
  endpoints?: PlaygroundEndpoint[];
  apiBase?: string;
}) {
  const { t } = useTranslation();
  const [selectedId, setSelectedId] = useState(endpoints[0]!.id);
  const [apiKey, setApiKey] = useSessionApiKey();
  const endpoint = endpoints.find((e) => e.id === selectedId) ?? endpoints[0]!;
  const select = (id: string) => {
    setSelectedId(id);
    // Below lg the list sits above the form: bring the form into view, or the choice seems to do nothing.
    if (window.matchMedia?.('(max-width: 1023px)').matches) {
      requestAnimationFrame(() => document.getElementById('pg-workbench')?.scrollIntoView?.({ block: 'start' }));
    }
  };
  return (
    <>
      <PageHeader title={t('playgroundPage.apiPlayground')} description={t('playgroundPage.tryTheApiWithOne')} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <EndpointList endpoints={endpoints} selectedId={endpoint.id} onSelect={select} />
        <div id="pg-workbench" className="min-w-0 scroll-mt-20">
          <EndpointWorkbench
            key={endpoint.id}
            endpoint={endpoint}
            apiBase={apiBase}
            apiKey={apiKey}
            onApiKey={setApiKey}
          />
        </div>
      </div>
    </>
  );
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TLegalDocument, TLegalDocumentName } from '@docflow/contracts';
import { api } from '@/lib/api-client';
import type { TLanguage } from '@/i18n';

/** GET /legal/{terms,privacy}: the operator's text (DATA_DIR/terms.md, privacy.md), else the neutral default. */
export const getLegalDocument = async (document: TLegalDocumentName, lang: TLanguage): Promise<TLegalDocument> => {
  const res = await api.get<{ data: { legal: TLegalDocument } }>(`/legal/${document}?lang=${lang}`, { silent: true });
  return res.data.legal;
};

export const getLegalDocumentQueryOptions = (document: TLegalDocumentName, lang: TLanguage) =>
  queryOptions({ queryKey: ['legal', document, lang], queryFn: () => getLegalDocument(document, lang) });

export const useLegalDocument = (document: TLegalDocumentName, lang: TLanguage) =>
  useQuery(getLegalDocumentQueryOptions(document, lang));

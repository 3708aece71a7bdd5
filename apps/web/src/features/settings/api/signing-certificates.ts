import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSigningCertificate, TStoreSigningCertificateRequest } from '@docflow/contracts';
import { api } from '@/lib/api-client';

interface CertificateList {
  certificates: TSigningCertificate[];
  max: number;
}

export const signingCertificatesQueryOptions = () =>
  queryOptions({
    queryKey: ['signing-certificates'],
    queryFn: async () => (await api.get<{ data: CertificateList }>('/signing-certificates')).data,
  });

export const useSigningCertificates = () => useQuery(signingCertificatesQueryOptions());

/** POST /signing-certificates: the file goes as base64 in JSON (a PKCS#12 is a few kilobytes). */
export function useStoreSigningCertificate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: TStoreSigningCertificateRequest) =>
      (await api.post<{ data: { certificate: TSigningCertificate } }>('/signing-certificates', input)).data.certificate,
    onSuccess: () => qc.invalidateQueries({ queryKey: signingCertificatesQueryOptions().queryKey }),
  });
}

export function useDeleteSigningCertificate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/signing-certificates/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: signingCertificatesQueryOptions().queryKey }),
  });
}

/** A file's bytes in standard base64, as the API takes them. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

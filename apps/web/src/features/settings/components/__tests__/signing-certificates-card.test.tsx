import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TSigningCertificate } from '@docflow/contracts';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { SigningCertificatesCard } from '../signing-certificates-card';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const stored: TSigningCertificate = {
  id: '0b6f3f0e-5d1f-4b53-9b1a-3f1a2b3c4d5e',
  label: 'Jane at work',
  subject: 'CN=Jane Signer, O=DocFlow Tests',
  commonName: 'Jane Signer',
  issuer: 'CN=DocFlow Test Root CA, O=DocFlow Tests',
  serialNumber: '1000',
  validFrom: '2026-01-01T00:00:00Z',
  validTo: '2099-01-01T00:00:00Z',
  createdAt: '2026-11-28T00:00:00Z',
  lastUsedAt: null,
};

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SigningCertificatesCard />
    </QueryClientProvider>,
  );
}

describe('SigningCertificatesCard', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the stored certificates with their id, and sends a chosen file as base64 with its name and password', async () => {
    let listed: TSigningCertificate[] = [];
    const { calls } = mockFetch({
      'GET /api/v1/signing-certificates': () => json(200, { success: true, data: { certificates: listed, max: 20 } }),
      'POST /api/v1/signing-certificates': () => {
        listed = [stored];
        return json(201, { success: true, data: { certificate: stored } });
      },
    });
    renderCard();
    expect(await screen.findByText('No certificate stored yet.')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Jane at work');
    await userEvent.upload(
      screen.getByLabelText('PKCS#12 file'),
      new File([new Uint8Array([0x30, 0x82, 0xff])], 'jane.p12'),
    );
    await userEvent.type(screen.getByLabelText('File password'), 's3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Store certificate' }));
    const row = await screen.findByTestId('certificate-row');
    expect(within(row).getByText('CN=Jane Signer, O=DocFlow Tests')).toBeInTheDocument();
    expect(row).toHaveTextContent(`certificateId: ${stored.id}`);
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ label: 'Jane at work', password: 's3cret', pkcs12: 'MIL/' });
  });

  it("shows the server's reason when the file does not open", async () => {
    mockFetch({
      'GET /api/v1/signing-certificates': () => json(200, { success: true, data: { certificates: [], max: 20 } }),
      'POST /api/v1/signing-certificates': () =>
        apiError(
          422,
          'CERTIFICATE_PASSWORD_WRONG',
          'password: the password does not open this PKCS#12 certificate file',
        ),
    });
    renderCard();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Wrong');
    await userEvent.upload(screen.getByLabelText('PKCS#12 file'), new File([new Uint8Array([1])], 'x.p12'));
    await userEvent.click(screen.getByRole('button', { name: 'Store certificate' }));
    expect(await screen.findByTestId('certificate-error')).toHaveTextContent(/does not open this PKCS#12/);
  });
});

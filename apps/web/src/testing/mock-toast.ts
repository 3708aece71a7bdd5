import { vi } from 'vitest';
import type { toast as shownToast } from '@/lib/toast';

/**
 * The toast wrapper with every call recorded and nothing shown. A test file takes it with
 * `vi.mock('@/lib/toast', () => import('@/testing/mock-toast'))` and reads the calls on `toast` from `@/lib/toast`.
 */
export const toast = {
  success: vi.fn(),
  error: vi.fn(),
  info: vi.fn(),
  warning: vi.fn(),
  message: vi.fn(),
  dismiss: vi.fn(),
  count: () => 0,
} satisfies Record<keyof typeof shownToast, unknown>;

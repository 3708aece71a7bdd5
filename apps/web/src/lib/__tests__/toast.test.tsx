import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toast as sonner } from 'sonner';
import { Toaster } from '@/components/ui/toaster';
import { constants } from '@/config/messages';
import { toast } from '@/lib/toast';

const tick = (ms = 20) => act(async () => void (await new Promise((r) => setTimeout(r, ms))));

// sonner unmounts a dismissed toast 200 ms later, on a timer: the test waits it out, else the timer fires after the
// page is torn down ("window is not defined").
afterEach(async () => {
  act(() => void toast.dismiss());
  await tick(500);
});

describe('toasts (spec-1 §9: the list is capped at 20)', () => {
  it('keeps at most 20 toasts: each one past the 20th dismisses the oldest', async () => {
    render(<Toaster />);
    act(() => {
      for (let i = 1; i <= 25; i += 1) toast.info(`Message ${i}`, { duration: 60_000 });
    });
    await tick();
    expect(constants.toastCap).toBe(20);
    expect(toast.count()).toBe(20);
    // sonner's own list of live (not dismissed) toasts.
    const live = sonner.getToasts().map((t) => ('title' in t ? t.title : undefined));
    expect(live).toHaveLength(20);
    expect(live).not.toContain('Message 1');
    expect(live).not.toContain('Message 5');
    expect(live).toContain('Message 6');
    expect(live).toContain('Message 25');
  });

  it('renders a toast and forgets it once dismissed', async () => {
    const { container } = render(<Toaster />);
    let id: string | number = 0;
    act(() => {
      id = toast.success('Done');
    });
    await tick();
    expect(container.ownerDocument.querySelector('[data-sonner-toaster]')).toBeTruthy();
    expect(container.ownerDocument.body.textContent).toContain('Done');
    expect(toast.count()).toBe(1);
    act(() => void toast.dismiss(id));
    expect(toast.count()).toBe(0);
  });
});

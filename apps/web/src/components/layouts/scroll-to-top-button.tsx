import { useEffect, useState } from 'react';
import { ArrowUp } from 'lucide-react';
import { constants } from '@/config/messages';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';

/** Appears after 300 px of scrolling (spec-1 §2). */
export function ScrollToTopButton() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > constants.scrollTopThresholdPx);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <button
      type="button"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      aria-label={t('scrollToTopButton.scrollToTop')}
      tabIndex={visible ? 0 : -1}
      aria-hidden={!visible}
      data-testid="scroll-to-top"
      className={cn(
        'fixed bottom-6 right-6 z-40 grid h-11 w-11 place-items-center rounded-full bg-indigo-600 text-white shadow-lg shadow-indigo-600/30',
        'transition-all duration-200 hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        visible ? 'translate-y-0 opacity-100' : 'pointer-events-none translate-y-4 opacity-0',
      )}
    >
      <ArrowUp className="h-5 w-5" aria-hidden="true" />
    </button>
  );
}

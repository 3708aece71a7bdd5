import type { TFunction } from 'i18next';
import type { TNotification } from '@docflow/contracts';

/**
 * A notification's words in the reader's language: the server stores the event's code and values, the catalogue
 * holds its sentences (`notificationEvents`). A notification without a code keeps the words it was written with.
 */
export function notificationText(n: TNotification, t: TFunction): { title: string; message: string } {
  if (!n.code) return { title: n.title, message: n.message };
  const params = n.params ?? {};
  return {
    title: t(`notificationEvents.${n.code}.title`, params),
    message: t(`notificationEvents.${n.code}.message`, params),
  };
}

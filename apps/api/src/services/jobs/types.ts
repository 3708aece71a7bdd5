/** The job records as the doors see them (the table's own types, kept in data/schema). */
export type {
  GotenbergWebhookFormat,
  JobInput,
  JobResult,
  JobRow,
  JobStep,
  WebhookMethod,
} from '../../data/schema/index';

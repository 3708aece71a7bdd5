import { z } from 'zod';

/**
 * The three figures of a month of API calls, with one meaning on every page (dashboard, analytics, key cards, plan
 * card). Every call is *made*; a call is *counted* against the monthly quota when it passed the key's limits and the
 * server did its part; the rest are *not counted*: refused before running (a limit, the plan, a disabled key) or
 * given back because the server failed it (5xx). Refused calls are not counted because the customer got nothing for
 * them: a call refused for being over a limit must not itself use up the limit.
 */
export const ZMonthCalls = z
  .object({
    month: z.string().describe('YYYY-MM (UTC calendar month)'),
    made: z.number().int().describe('Every call this month, refused ones included'),
    counted: z.number().int().describe('Calls counted against the monthly quota this month'),
    notCounted: z
      .number()
      .int()
      .describe('Calls this month refused by a limit or the plan, or given back because the server failed them'),
  })
  .meta({ id: 'MonthCalls' });
export type TMonthCalls = z.infer<typeof ZMonthCalls>;

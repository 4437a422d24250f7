import { z } from 'zod';

/** An optional whole-number input from `min` to `max` (inclusive; no upper bound when absent), described for the model. */
export function wholeNumber(min: number, max: number | undefined, description: string) {
  const n = z.number().int().min(min);
  return (max === undefined ? n : n.max(max)).optional().describe(description);
}

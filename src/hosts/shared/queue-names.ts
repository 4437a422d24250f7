/** The BullMQ queue `proofpr serve` enqueues to and `proofpr worker` takes from. */
export const RUNS_QUEUE = 'runs';

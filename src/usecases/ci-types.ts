/** CI facts and the CI port, for the usecases (the port itself is src/github/ci-port.ts). */
export type { CiState, CiCheck, CiEvidence } from '../agent/evidence/types.js';
export type { CheckRunInfo, CommitStatusInfo, WorkflowRunInfo, WorkflowJobInfo, CiPort } from '../github/ci-port.js';

import type { ModelClient, Usage } from '../../model/model-client.js';
import type { ToolDefinition } from '../../tools/define-tool.js';
import { bashTool } from '../../tools/bash.js';
import { globTool } from '../../tools/glob.js';
import { grepTool } from '../../tools/grep.js';
import { readTool } from '../../tools/read.js';
import { createRegistry, type ToolRegistry } from '../../tools/registry.js';
import { taskTool } from '../../tools/task.js';
import type { RunSpend } from '../budget.js';
import type { EventQueue } from '../events.js';
import type { TranscriptWriter } from '../evidence/ledger.js';
import type { HookRunner } from '../hooks/types.js';
import { createPolicy, type PolicyOptions } from '../permissions/create-policy.js';
import { createSubagentRunner, type SubagentLimits } from './run-subagent.js';

/** The sub-agent's tools: reading and searching, and Bash (which its plan-mode policy keeps read-only). */
export function subagentToolbox(): ToolRegistry {
  return createRegistry([readTool, grepTool, globTool, bashTool] as ToolDefinition[]);
}

export interface TaskToolOptions {
  model: ModelClient;
  modelId: string;
  hooks: HookRunner;
  events: EventQueue;
  costOf: (usage: Usage) => number;
  /** The run's permission settings; the sub-agent's policy is the same rules in plan mode (read-only). */
  policy: Omit<PolicyOptions, 'mode' | 'tools'>;
  limits?: Partial<SubagentLimits>;
  /** The run's shared spend: sub-agents draw from the run's remaining turns and cost. */
  spend?: RunSpend;
  /** Opens each sub-agent's transcript in the run folder (redacted like the run's). */
  transcripts?: (relPath: string) => TranscriptWriter;
  maxTokens?: number;
}

/** The Task tool of a run, wired to a read-only sub-agent runner with its own tools and a plan-mode policy. */
export async function createTaskTool(o: TaskToolOptions): Promise<ToolDefinition> {
  const toolbox = subagentToolbox();
  const policy = await createPolicy({ ...o.policy, mode: 'plan', tools: toolbox });
  const runner = createSubagentRunner({
    model: o.model,
    modelId: o.modelId,
    toolbox,
    policy,
    hooks: o.hooks,
    events: o.events,
    costOf: o.costOf,
    ...(o.limits ? { limits: o.limits } : {}),
    ...(o.spend ? { spend: o.spend } : {}),
    ...(o.transcripts ? { transcripts: o.transcripts } : {}),
    ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
  });
  return taskTool(runner) as ToolDefinition;
}

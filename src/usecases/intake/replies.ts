/** What the intake answers on GitHub, the same words in every host. */
import type { MonthSpend, RunView } from '../ports.js';

const usd = (n: number): string => `$${n.toFixed(2)}`;

const spendLine = (spend: MonthSpend, budget: number | undefined): string =>
  `${usd(spend.costUsd)} spent${budget !== undefined ? ` of ${usd(budget)}` : ''} over ${spend.runs} run(s), ${spend.verified} verified (${spend.runs ? Math.round((100 * spend.verified) / spend.runs) : 0}%)`;

export const replies = {
  unauthorized: (user: string, allowed: readonly string[]) =>
    `Sorry @${user}, only people with ${allowed.join(', ')} access to this repository can ask me to work here, so I did not start.`,
  notOurs: (why: string) => `proofpr follows up only on pull requests it opened: ${why}, so I did not start.`,
  status: (run: RunView | undefined, number: number, trigger: string) =>
    run
      ? `Run \`${run.id}\` is ${run.status}${run.verdict ? ` (${run.verdict})` : ''}${run.commentUrl ? `: ${run.commentUrl}` : ''}${run.prUrl ? `, PR ${run.prUrl}` : ''}.`
      : `No proofpr run for #${number} yet. Comment \`${trigger} fix\` to start one.`,
  overBudget: (spend: MonthSpend, budget: number) =>
    `This month's proofpr spend on this repository is ${usd(spend.costUsd)} over ${spend.runs} run(s), which reached the monthly budget of ${usd(budget)} (\`budget.monthly_usd\`), so I did not start. Raise the budget in .github/proofpr.yml or wait for next month.`,
  overInstallationBudget: (owner: string, spend: MonthSpend, budget: number) =>
    `This month's proofpr spend across ${owner}'s repositories (this App installation) is ${usd(spend.costUsd)} over ${spend.runs} run(s), which reached the installation's monthly budget of ${usd(budget)} (\`PROOFPR_INSTALLATION_MONTHLY_USD\`, the App's setting), so I did not start. Whoever runs the App can raise PROOFPR_INSTALLATION_MONTHLY_USD in its environment (or .env); else wait for next month.`,
  monthSpend: (spend: MonthSpend, budget: number | undefined) => `This month: ${spendLine(spend, budget)}.`,
  installationMonthSpend: (owner: string, spend: MonthSpend, budget: number) =>
    `This month across ${owner}'s repositories (the installation's budget): ${spendLine(spend, budget)}.`,
  nothingToCancel: (number: number) => `Nothing to cancel: no run is queued or running for #${number}.`,
  alreadyRunning: (number: number, active: RunView) =>
    `A run for #${number} is already ${active.status} (run \`${active.id}\`).${active.commentUrl ? ` Progress: ${active.commentUrl}` : ''}`,
  /** A host without run state (the Action, the CLI) cannot answer status or cancel. */
  stateless: (verb: 'status' | 'cancel') =>
    verb === 'status'
      ? "This repository runs proofpr as a workflow step, which keeps no run state: each run is a workflow run, with its status comment on the issue. It keeps no spend either: `budget.monthly_usd` and the month's spend are the App's."
      : 'This repository runs proofpr as a workflow step: cancel its workflow run to stop it.',
};

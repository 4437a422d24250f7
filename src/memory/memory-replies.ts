/** What proofpr says about its memory on GitHub. */
export const memoryReplies = {
  kept: (line: string, n: number, trigger: string) =>
    `Noted for later runs in this repository (memory entry ${n}):\n\n${line}\n\n` +
    `\`${trigger} memory\` lists what I keep; \`${trigger} forget ${n}\` removes this one.`,
  list: (index: string | undefined, trigger: string) =>
    index
      ? `What I keep from reviews in this repository (given to later runs as possibly stale data):\n\n${index}\n\n\`${trigger} forget N\` removes entry N.`
      : 'I keep nothing from reviews in this repository yet.',
  forgot: (line: string) => `Forgotten: ${line.replace(/^\d+\.\s*/, '')}`,
  noSuchEntry: (arg: string, count: number, trigger: string) =>
    `There is no memory entry ${arg ? `\`${arg}\`` : '(no number given)'}: I keep ${count} (\`${trigger} memory\` lists them; \`${trigger} forget N\` removes entry N).`,
  stateless: 'This repository runs proofpr as a workflow step, which keeps no memory between runs.',
};

/**
 * No import cycle between folders of src/: neither between top folders, nor between the subfolders of one
 * top folder (see import-graph.ts). A cycle means
 * two folders are one layer in disguise: the arrows in docs/architecture.md point one way only.
 */
import { describe, expect, it } from '@jest/globals';
import { cycles, folderGraph } from './import-graph.js';

describe('architecture - folder imports', () => {
  it.each([1, 2] as const)('architecture - no import cycle between folders of src/ (depth %i)', (depth) => {
    const graph = folderGraph(depth);
    const found = cycles(graph).map((comp) => {
      // Name the imports that close the cycle, so the failure says what to move.
      const inside = comp.flatMap((from) =>
        [...(graph.get(from) ?? new Map<string, string[]>()).entries()]
          .filter(([to]) => comp.includes(to))
          .map(([to, via]) => `${from} → ${to}: ${via.slice(0, 3).join(', ')}`),
      );
      return { folders: comp, imports: inside };
    });
    expect(found).toEqual([]);
  });

  it('architecture - the graph is read (a sanity check on the parser)', () => {
    const top = folderGraph(1);
    expect(top.get('src/hosts')?.has('src/usecases')).toBe(true);
    expect(top.get('src/usecases')?.has('src/github')).toBe(true);
    expect(folderGraph(2).get('src/hosts/probot')?.has('src/hosts/shared')).toBe(true);
  });
});

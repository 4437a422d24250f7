/** Expectations over tables of inputs, for the wall tests' predicates (protected paths, secret names, tokens). */
import { expect } from '@jest/globals';

/** `predicate` gives `expected` for each of `inputs` (one expectation an input, naming it on failure). */
export function expectEach<T>(predicate: (input: T) => unknown, expected: unknown, inputs: T[]): void {
  for (const input of inputs) expect({ input, answer: predicate(input) }).toEqual({ input, answer: expected });
}

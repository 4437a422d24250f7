import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mean, median } from '../src/stats.js';

test('mean of a few numbers', () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
});

test('median of an even count', () => {
  assert.equal(median([1, 2, 3, 4]), 2.5);
});

test('median of numbers with different digit counts', () => {
  assert.equal(median([10, 9, 2]), 9);
});

test('median of an empty list throws', () => {
  assert.throws(() => median([]), RangeError);
});

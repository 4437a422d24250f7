import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discount, withTax } from '../src/prices.js';

test('ten percent off', () => {
  assert.equal(discount(200, 10), 180);
});

test('tax is added and rounded', () => {
  assert.equal(withTax(100, 7.5), 108);
});

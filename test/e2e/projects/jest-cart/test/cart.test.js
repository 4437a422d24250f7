const { total, receipt } = require('../src/cart');
const { line } = require('./helpers/items');

describe('cart', () => {
  test('total multiplies price by quantity', () => {
    expect(total([line(250, 2), line(100, 1)])).toBe(600);
  });

  test('an empty cart costs nothing', () => {
    expect(total([])).toBe(0);
  });

  test('receipt lists the lines and the total', () => {
    expect(receipt([line(250, 2)])).toMatchSnapshot();
  });
});

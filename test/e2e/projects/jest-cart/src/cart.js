/** Shopping cart totals, in cents. */

function total(items) {
  return items.reduce((sum, item) => sum + item.price, 0);
}

function receipt(items) {
  const rows = items.map((i) => `${i.qty} x ${(i.price / 100).toFixed(2)}`);
  return [...rows, `TOTAL ${(total(items) / 100).toFixed(2)}`].join('\n');
}

module.exports = { total, receipt };

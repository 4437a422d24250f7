/** Price helpers. `pct` is a percentage (10 = 10 %). */

export function discount(price, pct) {
  return price - price * pct;
}

export function withTax(price, rate) {
  return Math.round(price * (1 + rate / 100));
}

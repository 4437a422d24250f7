/** Cart lines for the tests. */
function line(price, qty) {
  return { price, qty };
}

module.exports = { line };

export const VAT_RATE = 0.2;

export function lineTotal(line) {
  return line.unitPence * line.quantity;
}

export function invoiceTotals(lines) {
  const net = lines.reduce((sum, line) => sum + lineTotal(line), 0);
  const vat = Math.round(net * VAT_RATE);
  return { net, vat, gross: net + vat };
}

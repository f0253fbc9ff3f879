import { fmt } from "./format.ts";

export interface Line {
  name: string;
  pence: number;
  quantity: number;
}

export function summary(lines: readonly Line[]): string[] {
  const total = lines.reduce((sum, line) => sum + line.pence * line.quantity, 0);
  return [...lines.map((line) => `${line.quantity} x ${line.name}: ${fmt(line.pence * line.quantity)}`), `Total: ${fmt(total)}`];
}

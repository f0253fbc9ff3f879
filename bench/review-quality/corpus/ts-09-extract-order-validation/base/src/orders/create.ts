export interface OrderInput {
  customerId: string;
  items: { sku: string; quantity: number }[];
}

export interface Order extends OrderInput {
  id: string;
  createdAt: Date;
}

export function createOrder(input: OrderInput, newId: () => string): Order {
  if (!input.customerId) throw new Error("An order needs a customer");
  if (input.items.length === 0) throw new Error("An order needs at least one item");
  for (const item of input.items) {
    if (!Number.isInteger(item.quantity) || item.quantity < 1) {
      throw new Error(`Invalid quantity for ${item.sku}`);
    }
  }
  return { ...input, id: newId(), createdAt: new Date() };
}

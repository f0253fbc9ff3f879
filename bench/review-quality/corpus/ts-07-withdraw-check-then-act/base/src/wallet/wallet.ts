export interface Ledger {
  record(entry: { walletId: string; amount: number; at: Date }): Promise<void>;
}

export class Wallet {
  #balance: number;

  constructor(
    readonly id: string,
    balance: number,
    private readonly ledger: Ledger,
  ) {
    this.#balance = balance;
  }

  get balance(): number {
    return this.#balance;
  }

  async deposit(amount: number): Promise<void> {
    this.#balance += amount;
    await this.ledger.record({ walletId: this.id, amount, at: new Date() });
  }
}

export interface Customer {
  loyaltyYears: number;
  isStaff: boolean;
}

/** The discount in percent for a basket worth `totalPence`. */
export function discountPercent(customer: Customer | undefined, totalPence: number): number {
  let percent = 0;
  if (customer) {
    if (customer.isStaff) {
      percent = 30;
    } else {
      if (customer.loyaltyYears >= 5) {
        percent = 10;
      } else if (totalPence >= 10_000) {
        percent = 5;
      }
    }
  }
  return percent;
}

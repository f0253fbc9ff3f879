/** An account as queries load it: shared by accounts.ts and sessions.ts. */

export interface Account {
  user: { id: string; email: string; name: string; role: string };
  org: { id: string; name: string };
}

/** The columns that make an Account, for every query that loads one. */
export const ACCOUNT_COLUMNS = [
  "users.id as userId",
  "users.email",
  "users.name",
  "users.role",
  "organizations.id as orgId",
  "organizations.name as orgName",
] as const;

export function accountFromRow(row: {
  userId: string;
  email: string;
  name: string;
  role: string;
  orgId: string;
  orgName: string;
}): Account {
  return {
    user: { id: row.userId, email: row.email, name: row.name, role: row.role },
    org: { id: row.orgId, name: row.orgName },
  };
}
